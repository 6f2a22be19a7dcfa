"""GameBench's paper protocol: the released agent's request bodies, answer reading, retries and action ids.

The expected prompts below are written out from the digest's record of the released
agent (seed-gamebench-advgamebench.md, A3.2), not from the module that builds them.
Requests go through the real LLM client (litellm) to the loopback fake server.
"""

from __future__ import annotations

import ast
import asyncio
import json
import random
import re

import pytest
from stratbench.agents.llm import LLMAgent
from stratbench.families import standalone_registry
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, _decide, _observe, _Stats, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError
from stratbench.games.gamebench import EXTRA_GAME_IDS, GAME_IDS
from stratbench.games.gamebench import paper_protocol as paper
from stratbench.llm.client import LLMClient
from stratbench.protocols import agent_options
from stratbench.registry import Registry
from stratbench.scaffolds.cot import cot
from stratbench.scaffolds.direct import direct
from stratbench.testing.fake_llm import FakeLLMServer

SYSTEM = "You are an agent playing a game. Select the action that maximizes your probability of winning."
FORMAT = 'Return actions in json with the following keys.\n{\n    "action": str,\n}\n'
FORMAT_OPEN = (
    'Return actions in json with the following keys.\n{\n    "action": str,\n    "openended_response": '
    "Optional[str],\n}\nInclude the openended response only if you have chosen an openended action.\n"
)
EXPLAIN_LINE = (
    "Return the action Explain(<action>) to receive additional info about what any of the above actions do.\n"
)
COT = "First, let's reason out loud about which action you should take to maximize your probability of winning."


def _summary(predefined: list[str], openended: list[str]) -> str:
    return (
        "\nTo summarize, if you choose a predefined action, you must return json with an 'action' key which "
        f"contains one of the following valid actions:\n{predefined}\nOr if you choose an openended action, you "
        "must return json with an 'action' key which contains one of the following valid actions and an "
        f"'openended_response' key which contains your response to the prompt:\n{openended}"
    )


def _head(observation) -> str:
    rules = observation.rules
    text = f"You are playing a game called {rules.title}. The rules are as follows:\n{rules.summary}\n"
    if rules.topics:
        keys = {f"H{i}": t for i, t in enumerate(rules.topics, start=1)}
        text += ("The following are headings with additional information about the rules that you can expand "
                 "by taking the action Explain(<heading key>).\n" + json.dumps(keys, indent=4))
    return text + f"\n# Observation\nThe following describes the current state of the game:\n{observation.text}\n"


def _registry() -> Registry:
    registry = standalone_registry(("games", "protocols"))
    return registry


def _paper_game(name: str, **options):
    registry = _registry()
    return registry.game(name, **options, **registry.protocol(name, "paper").game_options)


def _agent(game, player: int, server: FakeLLMServer, scaffold, transcript: Transcript | None = None) -> LLMAgent:
    options = agent_options(_registry().protocol(game.info.name, "paper"), {"temperature": 0.0, "vision": "off"},
                            temperature_given=False)
    client = LLMClient(api_base=server.api_base, allow_placeholder_key=True, max_attempts=1)
    spec = AgentSpec(kind="llm", model="openai/m", scaffold="direct")
    context = AgentContext(spec, game, player, 0, random.Random(0), transcript or Transcript(), llm=client,
                           options=options)
    return LLMAgent(context, scaffold)


def _act(agent: LLMAgent, observation):
    return asyncio.run(agent.act(observation))


def test_every_gamebench_game_registers_the_paper_protocol_with_the_released_settings():
    registry = _registry()
    for game in (*GAME_IDS, *EXTRA_GAME_IDS):
        protocol = registry.protocol(game, "paper")
        assert protocol.game_options == {"protocol": "paper"}
        assert protocol.agent_options == {"temperature": None}
        assert protocol.suite == {"illegal_tolerance": 3, "fallback": "random"}
        assert "Joshuaclymer/GameBench" in protocol.source
    with pytest.raises(ValueError, match="protocol must be one of default, paper; got 'papr'"):
        registry.game("codenames", protocol="papr")


def test_golden_codenames_spymaster_first_request_open_ended():
    game = _paper_game("codenames")
    state = game.new_initial_state(7)
    observation = game.observe(state, 0)
    with FakeLLMServer(responder=lambda body: '{"action": "submit_clue", "openended_response": "river,2"}') as server:
        action = _act(_agent(game, 0, server, direct()), observation)
    assert action == Action("submit_clue", "river,2")
    (request,) = server.requests
    body = (
        _head(observation)
        + "\n# Actions\nGive a one-word clue and how many of your team's cards it relates to, formatted like: word,3\n"
        + FORMAT_OPEN
        + "The following are openended actions you can take\n['submit_clue']\n"
        + EXPLAIN_LINE
        + _summary([], ["submit_clue"])
    )
    assert request.body["messages"] == [{"role": "system", "content": SYSTEM}, {"role": "user", "content": body}]
    assert request.body["response_format"] == {"type": "json_object"}
    assert "temperature" not in request.body  # the released agent sets none: the API's default
    assert "Explain(<heading key>)" in body and '"H6": "Special Rules"' in body


def test_golden_sea_battle_first_request_released_ids_and_cot_second_call():
    game = _paper_game("sea_battle")
    observation = game.observe(game.new_initial_state(3), 0)
    released = [
        "move forward then shoot left", "move forward then shoot right", "move left then shoot left",
        "move left then shoot right", "move right then shoot left", "move right then shoot right",
        "don't move then shoot left", "don't move then shoot right",
    ]
    body = (
        _head(observation)
        + "\n# Actions\nChoose how you sail and where you fire this turn.\n"
        + FORMAT
        + f"The following are predefined actions you can take:\n{released}\n"
        + EXPLAIN_LINE
    )
    # A Python list's text: the released id with an apostrophe is double-quoted.
    assert '"don\'t move then shoot left"' in body
    replies = iter(["I should stay and fire left.", '{"action": "don\'t move then shoot left"}'])
    with FakeLLMServer(responder=lambda body: next(replies)) as server:
        action = _act(_agent(game, 0, server, cot()), observation)
    assert action == Action("stay then shoot left")
    first, second = server.requests
    assert first.body["messages"] == [{"role": "system", "content": SYSTEM}, {"role": "user", "content": body + COT}]
    assert "response_format" not in first.body
    assert second.body["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": body + COT},
        {"role": "assistant", "content": "I should stay and fire left."},
        {"role": "user", "content": _summary(released, [])},
    ]
    assert second.body["response_format"] == {"type": "json_object"}


def test_direct_sends_body_and_summary_as_one_message():
    game = _paper_game("sea_battle")
    observation = game.observe(game.new_initial_state(3), 0)
    with FakeLLMServer(responder=lambda body: "{'action': 'move left then shoot right'}") as server:
        assert _act(_agent(game, 0, server, direct()), observation) == Action("move left then shoot right")
    content = server.requests[0].body["messages"][1]["content"]
    assert content.endswith("\"don't move then shoot right\"]\n" + EXPLAIN_LINE + _summary(
        [a.replace("stay then", "don't move then") for a in observation.legal_actions], []))
    assert COT not in content


def test_retries_unreadable_json_re_asks_with_no_message_and_explain_answers_with_the_rule_text():
    game = _paper_game("codenames")
    state = game.new_initial_state(7)
    observation = game.observe(state, 0)
    replies = iter([
        'not json at all',
        '{"action": "Explain(H2)"}',
        '{"action": "submit_clue", "openended_response": "river,2"}',
    ])
    transcript = Transcript()
    with FakeLLMServer(responder=lambda body: next(replies)) as server:
        # Only the first decision, the spymaster's clue, through the runner's attempts.
        action = asyncio.run(_decide(game, state, 0, _agent(game, 0, server, direct(), transcript),
                                     random.Random(0), MatchRules(3, "random"), transcript, _Stats(4),
                                     _observe(game, state, 0)))
    assert action == Action("submit_clue", "RIVER, 2")
    first, second, third = (r.body["messages"] for r in server.requests)
    assert second == [*first, {"role": "assistant", "content": "not json at all"}]  # no user message
    topic = game.rules.topics["Turn Structure"]
    assert third == [*second, {"role": "assistant", "content": '{"action": "Explain(H2)"}'},
                     {"role": "user", "content": topic}]
    rejected = [e["error"] for e in transcript.of_kind("rejected")]
    assert rejected == [paper.NOT_JSON, topic]
    assert observation.asking.prompt_style == "gamebench"


def test_three_failed_attempts_then_a_random_action():
    game = _paper_game("sea_battle", max_rounds=2)
    transcript = Transcript()
    with FakeLLMServer(responder=lambda body: '{"action": "sail away"}') as server:
        agents = {p: _agent(game, p, server, direct(), transcript) for p in range(6)}
        outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0),
                                        rules=MatchRules(3, "random"), transcript=transcript))
        n_requests = len(server.requests)
    assert outcome.turns == 2 and outcome.decisions == {p: 2 for p in range(6)}
    assert n_requests == 3 * 12  # 3 attempts for every ship's decision, then the random action
    assert outcome.fallbacks == {p: 2 for p in range(6)}
    assert [e["policy"] for e in transcript.of_kind("fallback")] == ["random"] * 12
    reminder = next(e["error"] for e in transcript.of_kind("rejected"))
    assert reminder.startswith("sail away is not one of the valid actions. As a reminder, the valid actions are "
                               "as follows:\n['move forward then shoot left', ")
    assert reminder.endswith("\nPlease return a json with the key 'action' with the action you choose and "
                             "(optionally) the key 'openended_response' if you select openended response action.")


# -- the reader -------------------------------------------------------------------------------


def _codenames_operative():
    game = _paper_game("codenames")
    state = game.new_initial_state(7)
    state.apply({0: Action("submit_clue", "river, 2")})
    return game, state, game.observe(state, 1)


def test_reader_maps_released_ids_and_reads_python_literals_only():
    _, state, observation = _codenames_operative()
    words = state.words
    assert paper.read_answer('{"action": "guess_4"}', observation) == Action(f"guess {words[4]}")
    assert paper.read_answer("  {'action': 'guess_0', 'openended_response': 'x'}  ", observation) == Action(
        f"guess {words[0]}")
    with pytest.raises(ActionParseError) as error:
        paper.read_answer('{"action": "guess_4", "openended_response": null}', observation)  # null is no literal
    assert str(error.value) == paper.NOT_JSON
    for reply in ('```json\n{"action": "guess_4"}\n```', "Action: guess_4", '["guess_4"]', ""):
        with pytest.raises(ActionParseError, match="GameBench re-asks with no message"):
            paper.read_answer(reply, observation)
    retry = observation.with_feedback(paper.NOT_JSON, 2)
    assert paper.retry_message(retry) is None


def test_reader_explain_requests_and_invalid_actions_get_the_released_messages():
    _, state, observation = _codenames_operative()

    def message(reply: str) -> str:
        with pytest.raises(ActionParseError) as error:
            paper.read_answer(reply, observation)
        return str(error.value)

    assert message('{"action": "Explain(H4)"}') == observation.rules.topics["Forbidden Actions"]
    assert message('{"action": "Explain(H9)"}') == "This is an invalid Explain action."
    assert message('{"action": "Explain(guess_2)"}') == f"Guess the word: {state.words[2]}"
    assert message('{"action": "Explain(end_turn)"}') == ""  # not offered before the first guess
    assert message('{"action": 3}') == "This is an invalid Explain action."
    valid = [f"guess_{i}" for i in range(21)]
    assert message('{"action": "guess 4"}') == (
        "guess 4 is not one of the valid actions. As a reminder, the valid actions are as follows:\n"
        f"{valid}\nPlease return a json with the key 'action' with the action you choose and (optionally) the key "
        "'openended_response' if you select openended response action."
    )
    spymaster = _paper_game("codenames").observe(_paper_game("codenames").new_initial_state(7), 0)
    with pytest.raises(ActionParseError) as error:
        paper.read_answer('{"action": "submit_clue"}', spymaster)
    assert str(error.value) == "You chose an openended action, and so your json must have an 'openended_response' key."
    santorini = _paper_game("santorini")
    placement = santorini.observe(santorini.new_initial_state(0), 0)
    with pytest.raises(ActionParseError, match="^This is an invalid Explain action.$"):
        paper.read_answer('{"action": "Explain(H1)"}', placement)  # no rule headings: the released lookup fails


# -- the released action ids ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", ["air_land_sea", "santorini", "hive", "sea_battle", "codenames", "pit",
                                  "two_rooms_and_a_boom", "are_you_the_traitor", "arctic_scavengers"])
def test_every_released_id_names_exactly_one_legal_action_throughout_a_match(name):
    game = _paper_game(name)
    state = game.new_initial_state(1)
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal() and decisions < 150:
        joint = {}
        for player in state.current_players():
            if player < 0:
                joint[player] = Action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            observation = game.observe(state, player)
            actions = paper.released_actions(observation)
            owned = [own for own, _ in actions.predefined.values()]
            assert sorted(owned) == sorted(observation.legal_actions)
            for released, (own, _) in actions.predefined.items():
                assert paper.read_answer(repr({"action": released}), observation) == Action(own)
            for released, (own, _) in actions.openended.items():
                assert paper.read_answer(repr({"action": released, "openended_response": "x"}), observation) == \
                    Action(own, "x")
            decisions += 1
            if observation.legal_actions:
                joint[player] = Action(rng.choice(observation.legal_actions))
            else:
                joint[player] = state.fallback_action(player, rng) or Action(next(iter(observation.open_ended)), "x")
        state.apply(joint)
    assert decisions > 5


def test_released_ids_of_the_matched_games():
    santorini = _paper_game("santorini")
    placement = paper.released_actions(santorini.observe(santorini.new_initial_state(0), 0))
    assert placement.predefined["(0, 0)"] == ("place A a5", "Place pawn A at (0, 0).")
    assert placement.predefined["(4, 2)"][0] == "place A c1"
    assert len(placement.predefined) == 25
    hive = _paper_game("hive")
    opening = paper.released_actions(hive.observe(hive.new_initial_state(0), 0))
    assert list(opening.predefined) == ["place_(0,0)_Ant", "place_(0,0)_Hopper", "place_(0,0)_Queen",
                                        "place_(0,0)_Spider"]
    als = _paper_game("air_land_sea")
    state = als.new_initial_state(0)
    player = state.current_players()[0]
    observation = als.observe(state, player)
    hand = observation.data["hand"]
    actions = paper.released_actions(observation)
    h = len(hand)
    assert h == 6
    theater = hand[0].split("(")[1].split()[0]
    assert actions.predefined["0"][0] == f"deploy {hand[0]} to {theater}"
    assert actions.predefined[str(h + 1)][0] == f"improvise {hand[1]} to Air"
    assert actions.predefined[str(3 * h + 5)][0] == f"improvise {hand[5]} to Sea"
    assert actions.predefined[str(4 * h)][0] == "withdraw"


def test_the_default_protocol_observation_is_unchanged():
    registry = _registry()
    for name in ("codenames", "sea_battle", "santorini"):
        default, paper_game = registry.game(name), _paper_game(name)
        state = default.new_initial_state(2)
        own, viewed = default.observe(state, 0), paper_game.observe(state, 0)
        assert own.asking.prompt_style == "" and own.asking.answer_parser == ""
        assert viewed.asking.prompt_style == "gamebench" and viewed.asking.answer_parser == "gamebench"
        assert (own.text, own.legal_actions, own.open_ended) == (viewed.text, viewed.legal_actions, viewed.open_ended)


def test_constrained_under_the_paper_protocol_asks_as_the_released_agent():
    from stratbench.scaffolds.constrained import constrained

    game = _paper_game("sea_battle")
    observation = game.observe(game.new_initial_state(3), 0)
    with FakeLLMServer(responder=lambda body: '{"action": "move right then shoot left"}') as server:
        assert _act(_agent(game, 0, server, constrained()), observation) == Action("move right then shoot left")
    (request,) = server.requests
    assert request.body["response_format"] == {"type": "json_object"}  # no schema of the project's ids
    assert request.body["messages"][1]["content"].startswith(
        f"You are playing a game called Sea Battle. The rules are as follows:\n{game.rules.summary}\n")


# -- a whole run ------------------------------------------------------------------------------

_VALID = re.compile(r"one of the following valid actions:\n(\[.*?\])\n", re.DOTALL)
_OPEN = re.compile(r"your response to the prompt:\n(\[.*?\])$", re.DOTALL)


def released_responder(body: dict) -> str:
    """Answers the released prompt's summary with its first valid action, as JSON."""
    last = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    predefined = ast.literal_eval(_VALID.search(last).group(1))
    openended = ast.literal_eval(_OPEN.search(last).group(1))
    if openended:
        return json.dumps({"action": openended[0], "openended_response": "river,2"})
    return json.dumps({"action": predefined[0]})


SUITE = """
import pytest

@pytest.mark.stratbench(game="codenames", opponents=["random"], matches=1, illegal_tolerance=5, fallback="forfeit")
def test_codenames(match):
    match.play()
"""


@pytest.mark.slow
def test_a_run_under_the_paper_protocol_sends_the_released_requests_and_reports_table_1(pytester):
    pytester.makepyfile(test_cn=SUITE)
    with FakeLLMServer(responder=released_responder) as server:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "0", "--stratbench-bootstrap", "50",
                                               "--model", "openai/m", "--api-base", server.api_base,
                                               "--protocol", "paper")
        bodies = [r.body for r in server.requests]
    assert result.ret == 0, result.stdout.str()[-3000:]
    records = [json.loads(line) for line in (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    assert {r["protocol"] for r in records} == {"paper"}
    assert all("[paper-" in r["match_id"] for r in records)
    assert {r["rules"]["illegal_tolerance"] for r in records} == {3}  # the protocol's, not the suite's 5
    assert {r["rules"]["fallback"] for r in records} == {"random"}
    assert bodies and all("temperature" not in b and b["response_format"] == {"type": "json_object"} for b in bodies)
    assert all(b["messages"][0]["content"] == SYSTEM for b in bodies)
    assert any("'submit_clue'" in b["messages"][1]["content"] for b in bodies)
    assert any("'guess_0'" in b["messages"][1]["content"] for b in bodies)
    report = (pytester.path / "reports/latest/report.md").read_text()
    assert "GameBench ratings (Table 1) · paper protocol" in report
    assert "| GPT-4-CoT | paper (Table 1) | 0.16 |" in report


def test_pit_offers_and_acceptances_take_the_released_ids():
    pit = _paper_game("pit")
    state = pit.new_initial_state(1)
    observation = pit.observe(state, 0)
    actions = paper.released_actions(observation)
    offers = [a for a in observation.legal_actions if a.startswith("offer ") and "+" not in a]
    assert offers
    for own in offers:
        _, n, commodity = own.split()
        released = f"Offer_{commodity.replace('Soybeans', 'Soyabeans')}_{n}"
        assert actions.predefined[released] == (own, f"Offer {n} {commodity.replace('Soybeans', 'Soyabeans')}")
    kept = [a for a in observation.legal_actions if "+" in a or a in ("pass", "withdraw")]
    assert kept and all(actions.predefined[a] == (a, a) for a in kept)
    assert paper.read_answer("{'action': 'pass'}", observation) == Action("pass")
