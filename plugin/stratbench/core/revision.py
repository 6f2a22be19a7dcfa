"""The strategy-and-revision match: whole strategies under a budget, simulated, revised in turn (AdvGameBench's loop).

Game-agnostic: the loop plays any :class:`StrategyRules` (``SIDES``, two
side names; ``BUDGETS``, side -> budget; ``INIT_TRIES``;
``strategy_cost(strategy, side)``, ``validate(strategy, side)`` and
``simulate({side: strategy})`` returning an outcome with ``winner`` and
``summary()``; the three ``games.advgame`` simulator modules are such rules).
A *writer* plays one side: ``initial(request)`` and ``revise(request)``
return a strategy dict or a model's text answer (read as the released code
reads it); either may be a coroutine. A registered game of this shape is a
:class:`RevisionGame`: it hands out its rules, its writers and the move
order; it has no states and no observations. What the loop records
(:class:`~stratbench.core.traces.RevisionMatch`) lives in ``core.traces``.

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
import random
import re
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from stratbench.core.game import GameBase
from stratbench.core.match_work import offload
from stratbench.core.traces import RevisionMatch, RoundRecord

__all__ = [
    "DEFAULT_ROUNDS", "InitialRequest", "RevisionGame", "RevisionMatch", "RevisionRequest", "RoundRecord",
    "StrategyRules", "Verdict", "decide_winner", "over_budget_message", "play_revision_match",
    "read_strategy_json",
]

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


# ----------------------------------------------------------------- what the loop plays, and the game that hands it out


class StrategyRules(Protocol):
    """The rules the loop plays: sides, budgets, tries, costing, checking and simulating whole strategies."""

    SIDES: tuple[str, ...]
    BUDGETS: dict[str, float]
    INIT_TRIES: int

    def strategy_cost(self, strategy: dict, side: str) -> float: ...

    def validate(self, strategy: dict, side: str) -> list: ...

    def simulate(self, strategies: dict) -> Any: ...


class RevisionGame(GameBase):
    """A registered game played by whole strategies revised in rounds (the ``revision`` match shape).

    Subclasses set :attr:`info`, :attr:`rules` and :attr:`rounds`, and give
    the loop its rules (:meth:`strategy_rules`), the move order
    (:meth:`first_reviser`) and one writer per side (:meth:`model_writer`,
    :meth:`baseline_writer`). No states, no observations: nothing here is
    played move by move.
    """

    shape: ClassVar[str] = "revision"
    rounds: int = DEFAULT_ROUNDS
    """Rounds per match when the run does not say."""
    rounds_option: ClassVar[str | None] = None
    """The run option (a family setting) that sets the rounds per match (AdvGameBench: ``advgame_rounds``)."""
    baseline_kinds: tuple[str, ...] = ()
    """The agent names that write strategies without a model (``greedy``...)."""

    @property
    @abstractmethod
    def sides(self) -> tuple[str, ...]:
        """Returns the side names in seat order."""

    def role(self, player: int) -> str:
        """Returns the side name a seat plays."""
        return self.sides[player]

    @abstractmethod
    def strategy_rules(self) -> StrategyRules:
        """Returns the rules :func:`play_revision_match` plays (the simulator with this game's settings)."""

    @abstractmethod
    def first_reviser(self, subject: int) -> str:
        """Returns the side that revises after round 1, given the subject's seat."""

    @abstractmethod
    def model_writer(self, session: Any, side: str) -> Any:
        """Returns the writer through which a model (its ``ModelSession``) writes ``side``'s strategies."""

    @abstractmethod
    def baseline_writer(self, kind: str, side: str, rng: random.Random) -> Any:
        """Returns the writer of baseline ``kind`` (one of :attr:`baseline_kinds`) for ``side``."""

    def reader(self) -> Callable[[str], dict]:
        """Returns how a model's text answer is read into a strategy (default :func:`read_strategy_json`)."""
        return read_strategy_json


# ----------------------------------------------------------------- the budget rule and the answer reader


@dataclass(frozen=True)
class Verdict:
    """The round's winner after the budget rule."""

    winner: str | None
    """Winning side, None for a draw."""
    reason: str
    """``"simulation"``, ``"over budget: <side>"``, ``"both over budget"`` or ``"draw"``."""


def decide_winner(
    simulated_winner: str | None, costs: dict[str, float], budgets: dict[str, float]
) -> Verdict:
    """Applies the budget rule to a simulated outcome.

    The rule follows the released ``decide_winner`` (one side over budget
    loses; both over, the smaller relative overage wins) except that an exact
    tie of relative overages is a draw instead of the released code's bare ``None``.

    Args:
        simulated_winner: the simulator's winner (None for a draw).
        costs: each side's strategy cost.
        budgets: each side's budget (positive).

    Returns:
        Only one side over budget: the other side wins. Both within: the
        simulator's winner. Both over: the smaller ``overage / budget`` wins;
        equal relative overages are a draw.
    """
    over = {side: (costs[side] - budgets[side]) / budgets[side] for side in budgets}
    offenders = sorted(side for side, ratio in over.items() if ratio > 0)
    if not offenders:
        return Verdict(simulated_winner, "simulation" if simulated_winner else "draw")
    if len(offenders) == 1:
        (winner,) = [side for side in budgets if side != offenders[0]]
        return Verdict(winner, f"over budget: {offenders[0]}")
    first, second = offenders
    if over[first] == over[second]:
        return Verdict(None, "both over budget, equal relative overage: draw")
    return Verdict(min(offenders, key=lambda side: over[side]), "both over budget")


_FENCED = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def read_strategy_json(text: str, *, released_only: bool = False) -> dict:
    """Reads a model's strategy answer the way the released code does.

    A fenced ```json block is taken if present; surrounding quotes are
    stripped; single quotes become double quotes when the text has no double
    quote. Beyond the released reader, prose around the object (before the
    first ``{``, after the last ``}``) is dropped, unless ``released_only``
    (the paper protocol). The result must be a JSON object.

    Raises:
        ValueError: the answer is not a JSON object (the round counts a violation).
    """
    match = _FENCED.search(text)
    body = (match.group(1) if match else text).strip().strip("'\"` \n")
    if not released_only and "{" in body and "}" in body:
        body = body[body.index("{"):body.rindex("}") + 1]
    if '"' not in body:
        body = body.replace("'", '"')
    try:
        value = json.loads(body)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise ValueError(f"strategy is not valid JSON: {error.msg} at {where}") from None
    if not isinstance(value, dict):
        raise ValueError(f"strategy must be a JSON object, got {type(value).__name__}")
    return value


# ----------------------------------------------------------------- the loop


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
    game: StrategyRules, writers: dict, *, first_reviser: str, rounds: int = DEFAULT_ROUNDS, transcript=None,
    reader=read_strategy_json,
) -> RevisionMatch:
    """Plays one strategy-and-revision match.

    Args:
        game: the strategy rules (a :class:`StrategyRules`; a :class:`RevisionGame` hands them out).
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
