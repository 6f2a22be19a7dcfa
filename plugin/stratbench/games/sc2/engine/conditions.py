"""Victory, defeat and tie, as data in the scenario files, evaluated on a :class:`Battle`.

A scenario may give ``victory`` and ``defeat``: lists of conditions, any one of
which decides (victory is checked first); without them the side whose units
are all dead loses (SMAC's rule). ``time_limit_loops`` ends the game in a tie.
Each condition is a one-key dict:

- ``{"eliminated": {"owner": 2, "units": "army" | "all" | [types]}}``: no living
  unit of ``owner`` matches (units still to arrive count as living);
- ``{"fewer_than": {"owner": 1, "units": [...], "count": 6}}``: fewer than
  ``count`` living matching units;
- ``{"time": {"seconds": 60}}``: the game clock reached ``seconds``;
- ``{"all": [condition, ...]}``: every condition holds.

"army" is StarCraft II's army: units that are not workers, Overlords or structures.
"""

from __future__ import annotations

from stratbench.games.sc2.engine.battle import NON_ARMY, Battle
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, stats_for

WIN, LOSS, TIE = 1, 2, 3
"""pysc2's ``Result`` values for player 1."""
DEFAULT_VICTORY = [{"eliminated": {"owner": 2, "units": "all"}}]
DEFAULT_DEFEAT = [{"eliminated": {"owner": 1, "units": "all"}}]
KINDS = ("eliminated", "fewer_than", "time", "all")


def _matches(name: str, units) -> bool:
    if units == "all":
        return True
    if units == "army":
        return name not in NON_ARMY and not stats_for(name).is_structure
    return name in units


def _count(battle: Battle, owner: int, units) -> int:
    living = sum(1 for u in battle.alive(owner) if _matches(u.name, units))
    waiting = 0
    for _, spec in battle.pending:
        if spec["owner"] == owner:
            waiting += _matches(spec["name"], units) + sum(_matches(c, units) for c in spec.get("cargo", ()))
    carried = sum(_matches(c, units) for u in battle.alive(owner) for c in u.cargo)
    return living + waiting + carried


def holds(battle: Battle, condition: dict) -> bool:
    """Whether one condition holds now."""
    (kind, spec), = condition.items()
    if kind == "eliminated":
        return _count(battle, int(spec["owner"]), spec.get("units", "all")) == 0
    if kind == "fewer_than":
        return _count(battle, int(spec["owner"]), spec.get("units", "all")) < int(spec["count"])
    if kind == "time":
        return battle.loop >= round(float(spec["seconds"]) * LOOPS_PER_SECOND)
    if kind == "all":
        return all(holds(battle, c) for c in spec)
    raise ValueError(f"unknown win condition {kind!r}; known: {', '.join(KINDS)}")


def validate(condition: dict) -> None:
    """Raise a one-line error when a condition is malformed (checked when a scenario loads)."""
    if not isinstance(condition, dict) or len(condition) != 1:
        raise ValueError(f"a win condition is a one-key dict, got {condition!r}")
    (kind, spec), = condition.items()
    if kind not in KINDS:
        raise ValueError(f"unknown win condition {kind!r}; known: {', '.join(KINDS)}")
    if kind == "all":
        for inner in spec:
            validate(inner)
    elif kind != "time" and isinstance(spec.get("units"), list):
        for name in spec["units"]:
            stats_for(name)


def result(battle: Battle, scenario: dict) -> int | None:
    """``WIN``, ``LOSS`` or ``TIE`` for player 1, or None while the game goes on."""
    if not battle.alive() and not battle.pending:
        return TIE
    if any(holds(battle, c) for c in scenario.get("victory", DEFAULT_VICTORY)):
        return WIN
    if any(holds(battle, c) for c in scenario.get("defeat", DEFAULT_DEFEAT)):
        return LOSS
    limit = scenario.get("time_limit_loops")
    if limit and battle.loop >= limit:
        return TIE
    return None
