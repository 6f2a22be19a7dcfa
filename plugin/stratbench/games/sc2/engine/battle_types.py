"""The values the battle and its abilities share: a unit's order (and its kinds) and a timed effect on the field."""

from __future__ import annotations

from dataclasses import dataclass

STOP, HOLD, MOVE, ATTACK_UNIT, ATTACK_MOVE, CAST = "stop", "hold", "move", "attack_unit", "attack_move", "cast"


@dataclass
class Order:
    """What a unit is doing: ``kind`` with a point or a target tag."""

    kind: str = STOP
    point: tuple[float, float] | None = None
    target: int | None = None
    ability: str | None = None


@dataclass
class Effect:
    """A timed area effect (storm, nova, bile, force field) or an aura (guardian shield, on ``source``)."""

    kind: str
    owner: int
    x: float
    y: float
    radius: float
    start: int
    end: int
    source: int | None = None
