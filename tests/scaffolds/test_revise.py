"""The ``revise`` scaffold: critiques after rejected answers and outcomes, revision rows, ORR/CSR/slope, replay."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

import pytest

from stratbench.families import standalone_registry
from stratbench.core.agent import AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.match.cost import decision_cost
from stratbench.metrics.revision import RevisionRow, revision_metrics, revision_record, revision_rows
from stratbench.scaffolds.revise import OUTCOME_CRITIQUE, REJECTED_CRITIQUE, revise, verdict
from stratbench.run.session import RunSettings, StratbenchSession
from stratbench.testing.fake_llm import FakeLLMServer


class OutcomeTicTacToe(TicTacToe):
    """Tic-Tac-Toe that reports the opponent's reply as outcome feedback; an even square is bad news."""

    def observe(self, state, player):
        observation = super().observe(state, player)
        if state.turn < 2:
            return observation
        square = state.history[-1][1 - player]
        return replace(observation, outcome=f"The opponent then took square {square}.",
                       outcome_negative=int(square) % 2 == 0)


class LowestSquare:
    """The opponent: always the lowest free square."""

    async def act(self, observation):
        return Action(min(observation.legal_actions, key=int))


class ScaffoldAgent:
    def __init__(self, scaffold, session):
        self.scaffold, self.session = scaffold, session

    async def act(self, observation):
        return await self.scaffold.decide(observation, self.session)


class Script:
    """Answers critiques and decisions from two queues, in request order."""

    def __init__(self, decisions, critiques):
        self.decisions, self.critiques = list(decisions), list(critiques)

    def __call__(self, body):
        last = body["messages"][-1]["content"]
        if OUTCOME_CRITIQUE in last or REJECTED_CRITIQUE in last:
            return self.critiques.pop(0)
        return self.decisions.pop(0)


def _play(game, script):
    transcript = Transcript()
    with FakeLLMServer(responder=script) as server:
        client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
        session = ModelSession(client, "openai/m", 0, transcript)
        agents = {0: ScaffoldAgent(revise(), session), 1: LowestSquare()}
        state = game.new_initial_state(0)
        outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(0), rules=MatchRules(3),
                                        transcript=transcript))
        requests = [r.body["messages"] for r in server.requests]
    return outcome, transcript.to_list(), requests, session.usage.to_dict()


def test_a_rejected_answer_is_critiqued_then_answered_again():
    # X: 8; O: 0; X answers 0 (taken), critique, then 7; O: 1; X: 6 wins the bottom row.
    script = Script(["Action: 8", "Action: 0", "Action: 7", "Action: 6"], ["Square 0 is taken; take 7."])
    outcome, events, requests, _ = _play(TicTacToe(), script)
    assert outcome.scores == [1.0, 0.0] and outcome.illegal[0] == 1
    assert len(requests) == 5  # 3 decisions + 1 critique + 1 revised answer
    critique = requests[2]
    assert "'0' is not a legal action" in critique[-1]["content"] and REJECTED_CRITIQUE in critique[-1]["content"]
    revised = requests[3]
    assert revised[-2] == {"role": "assistant", "content": "Square 0 is taken; take 7."}
    assert revised[-1]["content"].startswith("Now give your revised answer.")
    purposes = [e["purpose"] for e in events if e["kind"] == "llm_call"]
    assert purposes == ["act", "act", "critique", "act", "act"]
    assert revision_rows(events, 0) == [RevisionRow(1, 2, "illegal", True, True, True)]


def test_outcome_feedback_and_rejections_give_rows_whose_orr_csr_and_slope_are_known():
    script = Script(
        ["Action: 8", "Action: 0", "Action: 8", "Action: 7", "Action: 6"],
        ["Taking 0 was fine. Revise: no", "0 is taken.", "8 is mine already.", "Good. Revise: yes"],
    )
    outcome, events, requests, usage = _play(OutcomeTicTacToe(), script)
    assert outcome.scores == [1.0, 0.0] and outcome.decisions[0] == 3 and outcome.illegal[0] == 2
    # turn 0: 1 call; turn 2: outcome critique + answer + 2 x (critique + answer); turn 4: critique + answer.
    assert len(requests) == 1 + 6 + 2
    opened = requests[1]
    assert "Your last decision was: 8\nThe opponent then took square 0." in opened[-1]["content"]
    assert requests[2][-3:-1] == [opened[-1], {"role": "assistant", "content": "Taking 0 was fine. Revise: no"}]
    rows = revision_rows(events, 0)
    assert rows == [
        RevisionRow(1, 2, "outcome", True, False, True),   # the next outcome (square 1) was good
        RevisionRow(2, 2, "illegal", True, True, False),   # 0 -> 8: rejected again
        RevisionRow(3, 2, "illegal", True, True, True),    # 8 -> 7: accepted
        RevisionRow(4, 4, "outcome", False, True, None),   # the last outcome: nothing came after
    ]
    metrics = revision_metrics(rows)
    # ORR: changed after negative feedback, 2 of rows 1-3; CSR: of the resolved changes (rows 2, 3) row 3
    # removed its violation; slope: OLS of (0, 0, 0, 1) on (0, 1, 2, 3) = 1.5 / 5.
    assert metrics["over_correction_rate"] == pytest.approx(2 / 3)
    assert metrics["correction_success_rate"] == pytest.approx(0.5)
    assert metrics["improvement_slope"] == pytest.approx(0.3)
    assert (metrics["revisions"], metrics["negative"], metrics["changed"]) == (4, 3, 3)
    record = revision_record(events, [0])
    assert record["0"]["revise"]["over_correction_rate"] == pytest.approx(2 / 3)
    assert len(record["0"]["revise"]["rows"]) == 4
    cost = decision_cost([usage, None], [outcome.decisions[0], outcome.decisions[1]])
    assert cost[1] is None
    assert cost[0]["calls"] == 9 and cost[0]["decisions"] == 3 and cost[0]["calls_per_decision"] == 3.0
    calls = [e for e in events if e["kind"] == "llm_call"]
    assert cost[0]["prompt_tokens"] == sum(e["prompt_tokens"] for e in calls) > 0


def test_verdicts_are_read_from_the_end_of_the_critique():
    assert verdict("Revise: yes") and verdict("**Revise:** yes") and verdict("revise:YES")
    assert verdict("I said Revise: no before, but Revise: yes")
    assert not verdict("Revise: no") and not verdict("no verdict at all")


def _registry(game_cls):
    registry = standalone_registry(("agents", "scaffolds", "metrics"))
    registry.add_game("tictactoe", game_cls)
    return registry


def _run(tmp_path, mode, api_base, spec, node, game_cls):
    settings = RunSettings(models=["openai/m"], api_base=api_base, report_dir=tmp_path / "reports",
                           cassette_dir=tmp_path / "cassettes", record_mode=mode, run_id="test")
    runner = StratbenchSession(settings, _registry(game_cls), is_controller=False)
    try:
        return runner.play(spec, SuiteSpec("tictactoe"), node)
    finally:
        runner.close()


def _stable(events):
    return [{k: v for k, v in e.items() if k not in ("t", "duration_s")} for e in events]


def _first_taken_then_legal(body):
    """Answers an occupied square once per decision, then a free one: every scaffold meets a rejection."""
    text = str(body["messages"])
    if "critique" in body["messages"][-1]["content"].lower():
        return "That square was taken. Revise: yes"
    if "rejected" in body["messages"][-1]["content"] or "Legal actions: 0, 1, 2, 3, 4, 5, 6, 7, 8" in text:
        legal = text.rsplit("Legal actions: ", 1)[1].split("\\n")[0].split(", ")
        return f"Action: {legal[-1]}"
    return "Action: 4"


@pytest.mark.parametrize("scaffold", ["direct", "cot", "constrained", "revise", "guide"])
def test_each_scaffold_records_and_replays_an_identical_transcript(tmp_path, scaffold):
    spec = MatchSpec("tictactoe", (AgentSpec("llm", "openai/m", scaffold), AgentSpec("minimax")), 0, 3,
                     f"t-{scaffold}")
    node = f"suites/demo/test_ttt.py::test_ttt[openai/m+{scaffold}-vs-minimax-s3]"
    with FakeLLMServer(responder=_first_taken_then_legal) as server:
        played = _run(tmp_path, "once", server.api_base, spec, node, OutcomeTicTacToe)
        calls = len(server.requests)
    replayed = _run(tmp_path, "none", None, spec, node, OutcomeTicTacToe)
    assert _stable(replayed.transcript) == _stable(played.transcript)
    assert replayed.record["decision_cost"] == played.record["decision_cost"]
    cost = played.record["decision_cost"]
    assert cost[1] is None and cost[0]["calls"] == calls
    assert cost[0]["calls"] == sum(1 for e in played.transcript if e["kind"] == "llm_call")
    assert cost[0]["decisions"] == played.record["decisions"][0]
    assert played.record["illegal"][0] >= 1  # the responder answers a taken square once a decision
    if scaffold == "revise":
        revision = played.record["metrics"]["0"]["revise"]
        assert revision == replayed.record["metrics"]["0"]["revise"]
        assert revision["revisions"] == sum(1 for e in played.transcript if e["kind"] == "revision") > 0
        assert any(row["trigger"] == "outcome" for row in revision["rows"])
    else:
        assert "revise" not in played.record["metrics"].get("0", {})


def _hanabi_responder(body):
    last = body["messages"][-1]["content"]
    if OUTCOME_CRITIQUE in last:
        return "It helped. Revise: no"
    hints = re.findall(r"(\d+): '\((?:Play|Reveal)", last)
    return '{"reason": "r", "action": %s}' % hints[-1]


def test_hanabi_outcomes_open_a_critique_before_every_decision_but_each_seats_first():
    pytest.importorskip("pyspiel")
    from stratbench.games.spin.hanabi import Hanabi

    transcript = Transcript()
    with FakeLLMServer(responder=_hanabi_responder) as server:
        client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
        agents = {p: ScaffoldAgent(revise(), ModelSession(client, "openai/m", p, transcript)) for p in (0, 1)}
        game = Hanabi("2p", max_turns=6)
        outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0),
                                        transcript=transcript))
        critiques = [r.body["messages"][-1]["content"] for r in server.requests
                     if OUTCOME_CRITIQUE in r.body["messages"][-1]["content"]]
        assert len(server.requests) == 6 + 4  # 6 decisions, a critique before all but each seat's first
    assert outcome.decisions == {0: 3, 1: 3}
    assert all("Since your last decision:\n- player" in text for text in critiques)
    events = transcript.to_list()
    assert [len(revision_rows(events, p)) for p in (0, 1)] == [2, 2]
    assert revision_rows(events, 0)[0] == RevisionRow(1, 2, "outcome", False, False, True)


def test_diplomacy_reports_each_powers_phase_results_as_its_outcome():
    pytest.importorskip("diplomacy")
    from stratbench.games.spin.diplomacy import POWERS, DiplomacyNoPress

    game = DiplomacyNoPress()
    state = game.new_initial_state(0)
    first = game.observe(state, 0)
    assert (first.outcome, first.outcome_negative) == ("", False)
    power = POWERS[0]
    bounce = {0: Action("orders", '{"orders": {"%s": ["A VIE - GAL"]}}' % power)}
    others = POWERS.index("RUSSIA")
    bounce[others] = Action("orders", '{"orders": {"RUSSIA": ["A WAR - GAL"]}}')
    state.apply({p: bounce.get(p, Action("orders", '{"orders": {}}')) for p in state.current_players()})
    after = game.observe(state, 0)
    assert after.outcome.startswith(f"Since your last orders:\n- S1901M {power}: orders A VIE - GAL")
    assert "A VIE: bounce" in after.outcome and after.outcome_negative
