"""Hanabi's paper protocol: the released primer turn kept, the released wording, reader, retries and score."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")

from stratbench.families import standalone_registry  # noqa: E402
from stratbench.core.runner import MatchRules, run_match  # noqa: E402
from stratbench.core.transcript import Transcript  # noqa: E402
from stratbench.core.types import Action, ActionParseError  # noqa: E402
from stratbench.games.spin import hanabi_paper  # noqa: E402
from stratbench.games.spin.hanabi import Hanabi  # noqa: E402
from stratbench.llm.client import LLMClient  # noqa: E402
from stratbench.llm.session import ModelSession  # noqa: E402
from stratbench.games.spin.paper_protocols.hanabi import read_action_answer  # noqa: E402
from stratbench.scaffolds.direct import direct  # noqa: E402
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "hanabi_paper_2p_seed0_first_decision.txt"
SYSTEM = {"role": "system", "content": "You are a helpful, creative, and smart assistant."}

# SPIN-Bench Appendix E.2 as published (digest §5.3), everything but the per-card blocks, in order.
E2_PASSAGES = [
    "Below is the current detailed state information. There are 2 players in the game.",
    "Game State:",
    "There are 3 life tokens and 8 info tokens remaining.",
    "The fireworks progress: R stack is at 0, Y stack is at 0, G stack is at 0, W stack is at 0, B stack is at 0.",
    "Your hand contains the following cards:",
    "Card 1:",
    "- Hidden info: 'XX'. This represents what you cannot see about this card. It means you have no direct "
    "knowledge about the card's identity from your perspective.",
    "- Known info: 'XX'. No hints about this card's color or rank have been given yet.",
    "- Possible identities: 'RYGWB12345'. This list represents the set of all cards that could possibly be in this "
    "position, given the hints received and the remaining cards in the deck.",
    "From your perspective, you can see the other players' hands clearly. Here's what you observe:",
    "Player +1's hand:",
    "- A card: You can see the card: '",
    "This player has no specific hints about the card's identity, This player knows the card could be one of the "
    "following: RYGWB12345.",
    "cards remaining in the deck. The discard pile is currently empty.",
    """Please think step by step based on the current state
# Think step by step
## Evaluate Playable Cards in Hand
Look at each card in your hand.
Cross-reference with the current game state to see if any card can be immediately played to complete or extend a firework stack.
Consider hints you have received about each card (color/rank information) to determine if it might be safe to play.
If a card can be played without risk, prioritize playing it to score a point.
## Consider Teammates' Hands and Hint Opportunities
Analyze the visible cards in your teammates' hands.
Identify if any of their cards can now be played based on the current firework stacks or previous hints.
If you notice a teammate holds a card that can be played but they may not realize it, think about what hints you could give them.
Use hints to communicate critical information, such as color or rank, to help them make the right play.
Choose the hint that maximizes the chance for a correct play while considering the limited hint tokens.
## Assess Discard Options to Gain Info Tokens
Look for cards in your hand that are least likely to be playable or helpful in the near future.
Consider the remaining deck composition and cards already played/discarded to predict the value of each card.
Discard a card that you believe to be least useful to gain an Info token, especially if no immediate playable or hint options are available.
Ensure that discarding this card won't permanently remove a critical card needed to complete any firework stack.
Now it's your turn. You can choose from the following legal actions:
The legal actions are provided in a mapping of action identifiers to their descriptions:
{5: '(Play 0)', 6: '(Play 1)', 7: '(Play 2)', 8: '(Play 3)', 9: '(Play 4)',""",
    """(Reveal player +N color C): Give a hint about color C to the player who is N positions ahead of you.
(Reveal player +N rank R): Give a hint about rank R to the player who is N positions ahead.
(Play X): Play the card in position X from your hand.
(Discard X): Discard the card in position X from your hand.
Based on the annotated state and the list of legal actions, decide on the most appropriate move to make. Consider factors like current tokens, firework progress, and information available in hands. Then, output one of the legal action descriptions as your chosen action.
Your output should be in this format:
{"reason": string, "action": int} And the action should be one of the legal actions provided above.
You can only use json valid characters. When you write json, all the elements (including all the keys and values) should be enclosed in double quotes!!!
To win, you need to play the cards in the correct sequence and maximize the total score of the fireworks. Good luck!""",
]


def _squash(text):
    return re.sub(r"\s+", " ", text).strip()


def _paper_game(variant="2p", **options):
    registry = standalone_registry(("games", "protocols"))
    protocol = registry.protocol("hanabi", "paper")
    return registry.game("hanabi", variant, **protocol.game_options, **options), protocol


class _ScaffoldAgent:
    """One seat's model behind the direct scaffold, as the llm agent drives it."""

    def __init__(self, api_base, player):
        client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
        self.session = ModelSession(client, "openai/m", player, Transcript(), settings={"temperature": 0.95})
        self.scaffold = direct()

    async def act(self, observation):
        return await self.scaffold.decide(observation, self.session)


def _responder(answer_legal=True):
    count = itertools.count(1)

    def respond(body):
        n = next(count)
        last = body["messages"][-1]["content"]
        if last == hanabi_paper.PRIMER:
            return f"Understood, teammate #{n}."
        if not answer_legal:
            return "I play my first card."
        return '{"reason": "first listed", "action": "%s"}' % re.findall(r"(\d+): '\(", last)[0]
    return respond


def _play(game, protocol, responder, seed=0):
    with FakeLLMServer(responder=responder) as server:
        agents = {p: _ScaffoldAgent(server.api_base, p) for p in range(game.info.num_players)}
        suite = protocol.suite
        outcome = asyncio.run(run_match(
            game, game.new_initial_state(seed), agents, rng=random.Random(seed),
            rules=MatchRules(illegal_tolerance=suite["illegal_tolerance"], fallback=suite["fallback"])))
        return outcome, [r.body for r in server.requests]


def test_the_protocol_registration():
    _, protocol = _paper_game()
    assert protocol.game_options == {"protocol": "paper"} and protocol.agent_options == {"temperature": 0.95}
    assert protocol.suite == {"illegal_tolerance": 6, "fallback": "forfeit"}
    with pytest.raises(ValueError, match="unknown hanabi protocol 'x'; known: default, paper"):
        Hanabi("2p", protocol="x")


def test_golden_primer_turn_then_the_decision_with_the_reply_kept():
    game, protocol = _paper_game("2p", max_turns=3)
    outcome, bodies = _play(game, protocol, _responder())
    # Per seat: one primer request, then its decisions; 3 decisions alternate seats 0, 1, 0.
    assert len(bodies) == 5 and outcome.turns == 3
    primer = {"role": "user", "content": hanabi_paper.PRIMER}
    assert bodies[0]["messages"] == [SYSTEM, primer]
    assert bodies[0]["messages"][1]["content"].startswith("\nYou are a master of hanabi game. You are playing a game")
    first = bodies[1]["messages"]
    assert first[:3] == [SYSTEM, primer, {"role": "assistant", "content": "Understood, teammate #1."}]
    assert len(first) == 4 and first[3]["role"] == "user"
    assert first[3]["content"] == GOLDEN.read_text()
    # Seat 1's primer is its own request; seat 0's next decision keeps seat 0's primer reply, not the last turn.
    assert bodies[2]["messages"] == [SYSTEM, primer]
    assert bodies[3]["messages"][2] == {"role": "assistant", "content": "Understood, teammate #3."}
    assert bodies[4]["messages"][:3] == first[:3] and len(bodies[4]["messages"]) == 4
    assert {b["temperature"] for b in bodies} == {0.95}


def test_the_first_decision_is_the_published_e2_prompt():
    text = _squash(GOLDEN.read_text())
    position = 0
    for passage in E2_PASSAGES:
        found = text.find(_squash(passage), position)
        assert found != -1, passage[:80]
        position = found + len(_squash(passage))


def test_the_default_requests_stay_without_a_primer():
    game = Hanabi("2p", max_turns=1)
    with FakeLLMServer(responder=_responder()) as server:
        asyncio.run(run_match(game, game.new_initial_state(0), {p: _ScaffoldAgent(server.api_base, p) for p in (0, 1)},
                              rng=random.Random(0), rules=MatchRules(illegal_tolerance=5, fallback="random")))
        (body,) = [r.body for r in server.requests]
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][0]["content"].startswith("You are a master of hanabi game. You are playing a game of "
                                                     "Hanabi with your teammates")
    assert hanabi_paper.PRIMER.strip() not in body["messages"][0]["content"]


def test_an_unreadable_answer_is_retried_five_times_with_the_released_message_then_ends_the_match():
    game, protocol = _paper_game("2p")
    outcome, bodies = _play(game, protocol, _responder(answer_legal=False))
    assert len(bodies) == 1 + 6  # seat 0's primer and its 6 attempts; the match ends there
    last = bodies[-1]["messages"]
    assert last[:3] == bodies[1]["messages"][:3]
    retries = last[4:]
    assert [m["role"] for m in retries] == ["assistant", "user"] * 5
    assert {m["content"] for m in retries if m["role"] == "user"} == {"Illegal move, try again"}
    assert {m["content"] for m in retries if m["role"] == "assistant"} == {"I play my first card."}
    assert outcome.forfeited_by == 0 and outcome.illegal == {0: 6, 1: 0} and outcome.scores == [0.0]


@pytest.mark.parametrize("reply, action", [
    ('{"reason": "Card 5 in your hand is known to be B2", "action": "9"}', "9"),
    ('I think {"reason": "a", "action": 7} then {"reason": "b", "action": 12}', "12"),  # the last JSON wins
    ('{"reason": "x", "action": 9.7}', "9"),  # int() truncates
    ('```json\n{"reason": "x", "action": " 6 "}\n```', "6"),
])
def test_the_released_reader_takes_the_last_json_and_an_int_action(reply, action):
    assert read_action_answer(reply, None) == Action(action)


@pytest.mark.parametrize("reply, problem", [
    ('{"reason": "x", "action": "(Play 4)"}', "integer"),
    ('{"action": 9}', "integer"),  # "reason" is required
    ("{not json} then {\"reason\": \"x\", \"action\": 9}", "Unreadable JSON"),  # one bad block spoils the reply
    ("Action: 9", "No JSON"),
    ('{"reason": "x", "action": "9.0"}', "integer"),
])
def test_the_released_reader_rejects_what_the_released_code_could_not_read(reply, problem):
    with pytest.raises(ActionParseError, match=problem):
        read_action_answer(reply, None)


def _playable_or_hint(state):
    """Plays a card the acting seat holds that fits a firework (seen through the other seat), else hints."""
    player = state.current_players()[0]
    other = 1 - player
    fireworks = state.view(other).fireworks
    legal = state.legal_actions(player)
    for index, card in enumerate(state.view(other).hands[1]):
        if int(card.card[1]) == fireworks[card.card[0]] + 1:
            return next(a for a in legal if state.describe(a) == f"(Play {index})")
    return next(a for a in legal if state.describe(a).startswith("(Reveal"))


def test_the_paper_score_is_the_fireworks_before_the_last_action():
    plays, state = [], Hanabi("2p").new_initial_state(3)
    while state.view(0).score == 0:  # up to the first successful play
        action = _playable_or_hint(state)
        state.apply({state.current_players()[0]: Action(action)})
        plays.append(action)
    assert state.view(0).score == 1 and not state.is_terminal()
    default, paper = Hanabi("2p", max_turns=len(plays)), Hanabi("2p", max_turns=len(plays), protocol="paper")
    ends = []
    for game in (default, paper):
        replay = game.new_initial_state(3)
        for action in plays:
            replay.apply({replay.current_players()[0]: Action(action)})
        ends.append(replay)
    assert [s.is_terminal() for s in ends] == [True, True]
    assert ends[0].scores() == [1.0] and ends[1].scores() == [0.0] and ends[1].released_score() == 0
    # Before the last action of a longer game, the fireworks it read are the ones the default counts one step earlier.
    longer = Hanabi("2p", max_turns=len(plays) + 1, protocol="paper").new_initial_state(3)
    for action in [*plays, _playable_or_hint(state)]:
        longer.apply({longer.current_players()[0]: Action(action)})
    assert longer.is_terminal() and longer.scores() == [1.0]
