"""The session plays each match through the shape its game declares: a tiny game of each shape, registered here."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from stratbench.families import standalone_registry
from stratbench.core.agent import AgentSpec
from stratbench.core.game import GameBase, GameInfo
from stratbench.core.revision import RevisionGame
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.shapes import UnknownShapeError
from stratbench.core.types import Rules
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.run.session import RunSettings, StratbenchSession

# -- a tiny revision game: each side plays one card within a budget of 10; the higher card wins


class _Result:
    def __init__(self, winner: str | None) -> None:
        self.winner = winner

    def summary(self) -> dict[str, Any]:
        return {"winner": self.winner}


class _HighCardRules:
    SIDES = ("north", "south")
    BUDGETS: ClassVar[dict[str, float]] = {"north": 10, "south": 10}
    INIT_TRIES = 2

    def strategy_cost(self, strategy: dict, side: str) -> float:
        return strategy["card"]

    def validate(self, strategy: dict, side: str) -> list:
        return []

    def simulate(self, strategies: dict) -> _Result:
        north, south = strategies["north"]["card"], strategies["south"]["card"]
        return _Result(None if north == south else "north" if north > south else "south")


class _CardWriter:
    """``steady`` plays 5 and keeps it; ``raiser`` opens with 3 and raises by 2 at each revision."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def initial(self, request) -> dict:
        return {"card": 5 if self.kind == "steady" else 3}

    def revise(self, request) -> dict:
        step = 0 if self.kind == "steady" else 2
        return {"card": request.own_strategy["card"] + step}


class HighCard(RevisionGame):
    baseline_kinds = ("steady", "raiser")
    rounds = 3

    def __init__(self) -> None:
        self.info = GameInfo(name="high_card", num_players=2, sides=((0,), (1,)), max_turns=10)
        self.rules = Rules("High card", "Each side plays one card within 10; the higher card wins the round.")

    @property
    def sides(self) -> tuple[str, str]:
        return _HighCardRules.SIDES

    def strategy_rules(self) -> _HighCardRules:
        return _HighCardRules()

    def first_reviser(self, subject: int) -> str:
        return self.sides[subject]

    def model_writer(self, session: Any, side: str) -> Any:
        raise AssertionError("no model plays here")

    def baseline_writer(self, kind: str, side: str, rng) -> _CardWriter:
        return _CardWriter(kind)


class Auction(GameBase):
    """A game of a shape no one plays."""

    shape = "auction"

    def __init__(self) -> None:
        self.info = GameInfo(name="auction", num_players=2, sides=((0,), (1,)), max_turns=1)
        self.rules = Rules("Auction", "Each side bids once.")


def _session(tmp_path) -> StratbenchSession:
    registry = standalone_registry(("agents",))
    registry.add_game("tictactoe", TicTacToe)
    registry.add_game("high_card", HighCard)
    registry.add_game("auction", Auction)
    settings = RunSettings(report_dir=tmp_path / "reports", cassette_dir=tmp_path / "cassettes", run_id="shapes")
    return StratbenchSession(settings, registry, is_controller=False)


def _play(tmp_path, game: str, sides: tuple[str, str]):
    session = _session(tmp_path)
    try:
        spec = MatchSpec(game, tuple(AgentSpec(kind) for kind in sides), 0, 1, f"{game}-match")
        return session, session.play(spec, SuiteSpec(game), f"test_{game}")
    finally:
        session.close()


def test_a_revision_game_is_played_by_strategy_rounds(tmp_path):
    _, played = _play(tmp_path, "high_card", ("steady", "raiser"))
    kinds = [event["kind"] for event in played.transcript]
    assert kinds.count("initial_strategy") == 2 and kinds.count("revision_round") == 3 and "action" not in kinds
    rounds = played.record["advgame"]["rounds"]
    # 5 v 3, north revises (keeps 5); 5 v 3, south raises to 5; 5 v 5 drawn
    assert [r["strategies"]["south"]["card"] for r in rounds] == [3, 3, 5]
    assert [(r["winner"], r["reviser"]) for r in rounds] == [("north", "north"), ("north", "south"), (None, None)]
    assert played.outcome.scores == pytest.approx([2.5 / 3, 0.5 / 3])
    assert played.outcome.terminal == "north won 2, south won 0, 1 drawn of 3 rounds"
    assert played.record["turns"] == 3 and played.record["status"] == "scored"


def test_a_move_game_is_played_by_the_runner(tmp_path):
    _, played = _play(tmp_path, "tictactoe", ("random", "minimax"))
    kinds = [event["kind"] for event in played.transcript]
    assert "revision_round" not in kinds and "advgame" not in played.record
    assert kinds.count("action") == played.outcome.turns >= 5 and kinds[-1] == "end"
    assert sum(played.outcome.scores) == 1.0 and len(played.outcome.history) == played.outcome.turns


def test_a_game_of_an_unknown_shape_errors_naming_the_game_and_the_shape(tmp_path):
    session = _session(tmp_path)
    try:
        with pytest.raises(UnknownShapeError) as error:
            session.play(MatchSpec("auction", (AgentSpec("random"), AgentSpec("random")), 0, 1, "a"),
                         SuiteSpec("auction"), "test_auction")
        failure = session.failures["test_auction"]
    finally:
        session.close()
    assert str(error.value) == ("game 'auction' declares the match shape 'auction', which no match shape plays; "
                                "known shapes: moves, revision")
    assert failure.fault == "harness"
    assert failure.transcript == [{"kind": "error", "t": failure.transcript[0]["t"], "fault": "harness",
                                   "error": f"UnknownShapeError: {error.value}"}]
