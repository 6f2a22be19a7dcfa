"""The units of one pysc2 observation, by tag, with their screen and minimap positions.

pysc2 gives tags only in ``raw_units`` (``feature_units.tag`` is always 0) and
screen positions only in ``feature_units``. Both lists come from the same
``raw_data.units`` in the same order, ``feature_units`` keeping the units on
screen, so the k-th on-screen raw unit is the k-th feature unit: that join
gives every unit its tag and, when on screen, its screen position. Raw
positions are in raw-resolution pixels; the interface format of
:func:`stratbench.games.sc2.config.interface_format` sets the raw resolution
to the minimap's, so a raw position is a minimap coordinate.

Entry point: :meth:`UnitTable.from_observation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SELF, ALLY, NEUTRAL, ENEMY = 1, 2, 3, 4
"""pysc2's ``PlayerRelative`` values (``alliance`` column)."""


@dataclass(frozen=True)
class UnitInfo:
    """One unit as the text interface uses it.

    Attributes:
        tag: The raw unit tag.
        type_id: The pysc2 unit type id.
        type_name: ``Stalker``; race: ``Protoss`` (empty for unknown ids).
        alliance: 1 self, 2 ally, 3 neutral, 4 enemy.
        health, shield, energy: Current values.
        health_ratio, shield_ratio: pysc2's 0-255 ratios.
        weapon_cooldown: Game loops until the weapon is ready.
        minimap: The minimap coordinate ``(x, y)``.
        screen: The screen coordinate, or None when off screen.
        is_selected: Whether the unit is in the current selection.
    """

    tag: int
    type_id: int
    type_name: str
    race: str
    alliance: int
    health: int
    shield: int
    energy: int
    health_ratio: int
    shield_ratio: int
    weapon_cooldown: int
    minimap: tuple[int, int]
    screen: tuple[int, int] | None
    is_selected: bool

    @property
    def vitality(self) -> int:
        """Health plus shields (the released text's ``Health``)."""
        return self.health + self.shield

    @property
    def vitality_percent(self) -> int:
        """Health plus shields as a percentage of their maxima (from pysc2's ratios)."""
        maximum = 0.0
        if self.health_ratio:
            maximum += self.health * 255 / self.health_ratio
        if self.shield_ratio:
            maximum += self.shield * 255 / self.shield_ratio
        return round(100 * self.vitality / maximum) if maximum else 0


@dataclass(frozen=True)
class UnitTable:
    """The units of one observation, sorted by tag."""

    units: tuple[UnitInfo, ...]

    @classmethod
    def from_observation(cls, observation: Any) -> UnitTable:
        """Builds the table from a pysc2 observation (needs ``raw_units``; ``feature_units`` for screen positions)."""
        from stratbench.games.sc2.pysc2_compat import import_pysc2

        pysc2 = import_pysc2()
        column = pysc2.features.FeatureUnit
        raw = observation["raw_units"]
        screen_rows = list(observation["feature_units"]) if "feature_units" in observation else []
        on_screen = iter(screen_rows)
        units = []
        for row in raw:
            screen = None
            if int(row[column.is_on_screen]):
                feature = next(on_screen, None)
                if feature is not None:
                    screen = (int(feature[column.x]), int(feature[column.y]))
            type_id = int(row[column.unit_type])
            race, name = _unit_name(pysc2.units, type_id)
            units.append(UnitInfo(
                tag=int(row[column.tag]),
                type_id=type_id,
                type_name=name,
                race=race,
                alliance=int(row[column.alliance]),
                health=int(row[column.health]),
                shield=int(row[column.shield]),
                energy=int(row[column.energy]),
                health_ratio=int(row[column.health_ratio]),
                shield_ratio=int(row[column.shield_ratio]),
                weapon_cooldown=int(row[column.weapon_cooldown]),
                minimap=(int(row[column.x]), int(row[column.y])),
                screen=screen,
                is_selected=bool(int(row[column.is_selected])),
            ))
        return cls(tuple(sorted(units, key=lambda u: u.tag)))

    def by_tag(self, tag: int) -> UnitInfo | None:
        """Returns the unit with ``tag``, or None."""
        return next((u for u in self.units if u.tag == tag), None)

    def of(self, alliance: int) -> tuple[UnitInfo, ...]:
        """Returns the units of one alliance, by tag."""
        return tuple(u for u in self.units if u.alliance == alliance)


def _unit_name(units_module: Any, type_id: int) -> tuple[str, str]:
    try:
        member = units_module.get_unit_type(type_id)
    except ValueError:
        return "", f"Unit{type_id}"
    return type(member).__name__, member.name
