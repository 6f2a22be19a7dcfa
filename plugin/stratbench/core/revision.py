"""The strategy-and-revision match: whole strategies under a budget, simulated, revised in turn (AdvGameBench's loop).

Game-agnostic: a *strategy game* is any object with ``SIDES`` (two side
names), ``BUDGETS`` (side -> budget), ``INIT_TRIES``, ``strategy_cost(strategy,
side)``, ``validate(strategy, side)`` and ``simulate({side: strategy})``
returning an ``Outcome`` (the three ``games.advgame`` modules are). A
*writer* plays one side: ``initial(request)`` and ``revise(request)`` return
a strategy dict or a model's text answer (read as the released code reads
it); either may be a coroutine.

The loop, as the released ``init.py``/``battle.py`` (digest B2.3):

1. Each side writes an initial strategy; an over-budget one is asked again
   with the released message, up to ``INIT_TRIES`` attempts in all (5 Tower
   Defense, 3 the others), then kept as it is.
2. Rounds 1..N: simulate; decide the winner (an unreadable answer forfeits
   the round; else the budget rule of ``decide_winner``, an exact tie a
   draw); record; then, except after the last round, exactly one side
   revises: the ``first_reviser`` after odd rounds, the other after even
   ones. The reviser sees the result, its own cost and budget, its previous
   strategy and the opponent's full strategy.

Rule problems (unknown units, bad cells) are counted as violations and the
offending entries skipped, as the released simulators skip them.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field

from stratbench.core.match_work import offload
from stratbench.games.advgame.common import decide_winner, read_strategy_json
from stratbench.metrics.advgame import MatchTrace, Round

DEFAULT_ROUNDS = 10
"""The paper's and the released code's rounds per match."""


def over_budget_message(attempt: int, cost: float, budget: float, previous: dict | None) -> str:
    """The released re-prompt for an over-budget initial strategy."""
    return (f"[Attempt {attempt}] cost {cost} exceeds budget {budget}. "
            f"Please adjust layout. Previous output: {json.dumps(previous)}")


@dataclass(frozen=True)
class InitialRequest:
    """What a writer gets for its initial strategy."""

    side: str
    budget: float
    attempt: int
    """1 for the first try; later tries carry ``feedback``."""
    feedback: str = ""
    """The over-budget message for a retry, else empty."""


@dataclass(frozen=True)
class RevisionRequest:
    """What the reviser sees after a round (the released revision prompt's contents)."""

    side: str
    round: int
    winner: str | None
    """The round's winner after the budget rule (None: draw)."""
    cost: float
    budget: float
    own_strategy: dict | None
    opponent_strategy: dict | None
    summary: dict
    """The simulator's summary of the round."""


@dataclass
class RoundRecord:
    """One round of a revision match, for the transcript and the match record (builtin types only)."""

    round: int
    strategies: dict
    costs: dict
    violations: dict
    """side -> list of messages (unreadable answer, over budget, rule problems)."""
    winner: str | None
    verdict: str
    summary: dict
    reviser: str | None
    """The side revising after this round (None after the last)."""

    def to_dict(self) -> dict:
        return {"round": self.round, "strategies": self.strategies, "costs": self.costs,
                "violations": self.violations, "winner": self.winner, "verdict": self.verdict,
                "summary": self.summary, "reviser": self.reviser}


@dataclass
class RevisionMatch:
    """A played revision match."""

    sides: tuple[str, str]
    budgets: dict
    first_reviser: str
    initial_attempts: dict = field(default_factory=dict)
    """side -> list of {"cost", "violations"} per initial attempt."""
    rounds: list[RoundRecord] = field(default_factory=list)

    def trace(self, side: str, **labels) -> MatchTrace:
        """Returns the match seen from ``side`` for the metrics (``labels``: opponent, game)."""
        rounds = []
        for record in self.rounds:
            won = None if record.winner is None else record.winner == side
            margin = record.summary.get("remaining_cost", 0) if record.winner == record.summary.get("winner") else 0
            value = 0.0 if won is None else (margin if won else -margin)
            rounds.append(Round(won=won, cost=record.costs[side], budget=self.budgets[side],
                                strategy=record.strategies[side], violation=bool(record.violations[side]),
                                revises_after=record.reviser == side, value=float(value)))
        order = "first" if side == self.first_reviser else "second"
        initial = tuple(bool(a["violations"]) for a in self.initial_attempts.get(side, ()))
        return MatchTrace(rounds=tuple(rounds), role=side, order=order, initial_violations=initial, **labels)

    @classmethod
    def from_dict(cls, data: dict) -> RevisionMatch:
        """Rebuilds a match from :meth:`to_dict`'s output (a match record's ``advgame`` entry)."""
        match = cls(sides=tuple(data["sides"]), budgets=dict(data["budgets"]), first_reviser=data["first_reviser"],
                    initial_attempts={side: list(a) for side, a in data["initial_attempts"].items()})
        match.rounds = [RoundRecord(r["round"], r["strategies"], r["costs"], r["violations"], r["winner"],
                                    r["verdict"], r["summary"], r["reviser"]) for r in data["rounds"]]
        return match

    def to_dict(self) -> dict:
        return {"sides": list(self.sides), "budgets": dict(self.budgets), "first_reviser": self.first_reviser,
                "initial_attempts": self.initial_attempts, "rounds": [r.to_dict() for r in self.rounds]}


async def _call(method, request):
    """Asks a writer: a coroutine (a model) on the loop, a plain method (a baseline's search) through offload."""
    if inspect.iscoroutinefunction(method):
        return await method(request)
    answer = await offload(method, request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer


def _read(answer, reader=read_strategy_json) -> tuple[dict | None, str | None]:
    if isinstance(answer, dict):
        return answer, None
    try:
        return reader(str(answer)), None
    except ValueError as error:
        return None, f"unreadable answer: {error}"


def _check(game, strategy: dict | None, side: str, problem: str | None) -> tuple[float, list[str]]:
    if strategy is None:
        return 0, [problem or "no strategy"]
    cost = game.strategy_cost(strategy, side)
    violations = [p.message for p in game.validate(strategy, side)]
    if cost > game.BUDGETS[side]:
        violations.insert(0, f"cost {cost} exceeds budget {game.BUDGETS[side]}")
    return cost, violations


async def play_revision_match(
    game, writers: dict, *, first_reviser: str, rounds: int = DEFAULT_ROUNDS, transcript=None,
    reader=read_strategy_json,
) -> RevisionMatch:
    """Plays one strategy-and-revision match.

    Args:
        game: a strategy game (see the module docstring).
        writers: side -> writer.
        first_reviser: the side that revises after round 1 (the "first" move order).
        rounds: simulated rounds (N - 1 revisions).
        transcript: a ``Transcript`` that gets an ``initial_strategy`` event per
            initial attempt and a ``revision_round`` event per round (the round's record).
        reader: reads a text answer into a strategy dict or raises ValueError
            (default :func:`read_strategy_json`).

    Raises:
        ValueError: ``first_reviser`` or ``writers`` do not name the game's sides, or ``rounds`` < 1.
    """
    sides = tuple(game.SIDES)
    if set(writers) != set(sides) or first_reviser not in sides:
        raise ValueError(f"writers and first_reviser must name the sides {', '.join(sides)}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    match = RevisionMatch(sides=sides, budgets=dict(game.BUDGETS), first_reviser=first_reviser)
    current: dict = {}
    problems: dict = {}
    for side in sides:
        attempts, feedback = [], ""
        for attempt in range(1, game.INIT_TRIES + 1):
            strategy, problem = _read(await _call(
                writers[side].initial, InitialRequest(side, game.BUDGETS[side], attempt, feedback)), reader)
            cost, violations = await offload(_check, game, strategy, side, problem)
            attempts.append({"cost": cost, "violations": violations})
            if transcript is not None:
                transcript.add("initial_strategy", side=side, attempt=attempt, strategy=strategy, cost=cost,
                               violations=violations)
            current[side], problems[side] = strategy, problem
            if strategy is None or cost <= game.BUDGETS[side]:
                break
            feedback = over_budget_message(attempt, cost, game.BUDGETS[side], strategy)
        match.initial_attempts[side] = attempts
    second_reviser = next(s for s in sides if s != first_reviser)
    for number in range(1, rounds + 1):
        costs, violations = {}, {}
        for side in sides:
            costs[side], violations[side] = await offload(_check, game, current[side], side, problems[side])
        outcome = await offload(game.simulate, {side: current[side] or {} for side in sides})  # the engine, stoppable
        unreadable = [side for side in sides if current[side] is None]
        if len(unreadable) == 1:
            winner = next(s for s in sides if s not in unreadable)
            verdict = f"unreadable answer: {unreadable[0]}"
        elif unreadable:
            winner, verdict = None, "both answers unreadable: draw"
        else:
            decided = decide_winner(outcome.winner, costs, game.BUDGETS)
            winner, verdict = decided.winner, decided.reason
        reviser = None if number == rounds else (first_reviser if number % 2 == 1 else second_reviser)
        match.rounds.append(RoundRecord(number, dict(current), costs, violations, winner, verdict,
                                        outcome.summary(), reviser))
        if transcript is not None:
            transcript.add("revision_round", **match.rounds[-1].to_dict())
        if reviser is None:
            break
        opponent = next(s for s in sides if s != reviser)
        request = RevisionRequest(reviser, number, winner, costs[reviser], game.BUDGETS[reviser],
                                  current[reviser], current[opponent], outcome.summary())
        current[reviser], problems[reviser] = _read(await _call(writers[reviser].revise, request), reader)
    return match
