"""What the three AdvGameBench simulators share: outcome record, problems, the budget rule, JSON reading.

The budget rule follows the released ``decide_winner`` (one side over budget
loses; both over, the smaller relative overage wins) except that an exact tie
of relative overages is a draw (``None`` winner with ``draw=True``) instead of
the released code's bare ``None``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StrategyProblem:
    """One way a strategy breaks the game's rules (the unit entry is skipped by the simulator)."""

    side: str
    """The side whose strategy it is."""
    message: str
    """What is wrong, naming the entry (``humans[2]: unknown unit 'Peashooter'``)."""


@dataclass(frozen=True)
class Outcome:
    """The result of one simulated battle (before the budget rule).

    ``remaining`` and ``remaining_cost`` describe the winner's units still on
    the board at the end, as the released simulators print them
    ("remain characters: n, cost: c"); both are 0 with no winner.
    """

    winner: str | None
    """The winning side's name, or None for a draw."""
    remaining: int
    """Number of the winner's units left."""
    remaining_cost: int
    """Catalogue cost of the winner's units left (summoned units cost 0)."""
    steps: int
    """Simulation steps taken (ticks, attacks or turns, per game)."""
    reason: str
    """How it ended, one line (``"Demon reached the left edge in row 2"``)."""
    remaining_by_side: dict[str, int] = field(default_factory=dict)
    """Units left per side."""
    problems: tuple[StrategyProblem, ...] = ()
    """Rule problems found in either strategy; offending entries were skipped."""
    survivors: tuple[tuple[str, float], ...] = ()
    """The winner's units left, as (name, health), in board or line order."""

    def summary(self) -> dict:
        """Returns builtin types only, for transcripts and match records."""
        return {
            "winner": self.winner,
            "remaining": self.remaining,
            "remaining_cost": self.remaining_cost,
            "remaining_by_side": dict(self.remaining_by_side),
            "steps": self.steps,
            "reason": self.reason,
            "problems": [f"{p.side}: {p.message}" for p in self.problems],
            "survivors": [[name, health] for name, health in self.survivors],
        }


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


def entries(strategy: dict, key: str, side: str, problems: list[StrategyProblem]) -> list[tuple[int, dict]]:
    """Returns ``strategy[key]``'s object entries with their index; records a problem for anything else."""
    value = strategy.get(key)
    if value is None:
        problems.append(StrategyProblem(side, f'missing key "{key}"'))
        return []
    if not isinstance(value, list):
        problems.append(StrategyProblem(side, f'"{key}" must be a list'))
        return []
    found = []
    for index, entry in enumerate(value):
        if isinstance(entry, dict):
            found.append((index, entry))
        else:
            problems.append(StrategyProblem(side, f"{key}[{index}]: entry must be an object"))
    return found
