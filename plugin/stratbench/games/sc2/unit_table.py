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

from stratbench.games.sc2.pysc2_compat import import_pysc2

SELF, ALLY, NEUTRAL, ENEMY = 1, 2, 3, 4
"""pysc2's ``PlayerRelative`` values (``alliance`` column)."""

MAX_VITALS: dict[str, tuple[int, int]] = {
    "Protoss.Probe": (20, 20), "Protoss.Zealot": (100, 50), "Protoss.Stalker": (80, 80), "Protoss.Sentry": (40, 40),
    "Protoss.Adept": (70, 70), "Protoss.HighTemplar": (40, 40), "Protoss.DarkTemplar": (40, 80),
    "Protoss.Archon": (10, 350), "Protoss.Immortal": (200, 100), "Protoss.Colossus": (200, 150),
    "Protoss.Disruptor": (100, 100), "Protoss.Observer": (40, 20), "Protoss.WarpPrism": (80, 100),
    "Protoss.Phoenix": (120, 60), "Protoss.VoidRay": (150, 100), "Protoss.Oracle": (100, 60),
    "Protoss.Carrier": (300, 150), "Protoss.Tempest": (200, 100), "Protoss.Mothership": (350, 350),
    "Protoss.PhotonCannon": (150, 150), "Protoss.Pylon": (200, 200),
    "Zerg.Drone": (40, 0), "Zerg.Zergling": (35, 0), "Zerg.Baneling": (30, 0), "Zerg.Roach": (145, 0),
    "Zerg.Ravager": (120, 0), "Zerg.Hydralisk": (90, 0), "Zerg.Queen": (175, 0), "Zerg.Ultralisk": (500, 0),
    "Zerg.Mutalisk": (120, 0), "Zerg.Corruptor": (200, 0), "Zerg.BroodLord": (225, 0), "Zerg.Viper": (150, 0),
    "Zerg.Infestor": (90, 0), "Zerg.SwarmHostMP": (160, 0), "Zerg.Overlord": (200, 0), "Zerg.Overseer": (200, 0),
    "Zerg.SpineCrawler": (300, 0), "Zerg.SporeCrawler": (400, 0), "Zerg.Hatchery": (1500, 0),
}
"""Maximum health and shields by ``Race.Type`` (StarCraft II 5.0 unit data, as the released knowledge base
lists them): the denominator of a unit's health percentage. Other types fall back to pysc2's 0-255 ratios,
which cannot tell a shield's maximum once it is empty."""


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
        """Health plus shields as a percentage of their maxima (:data:`MAX_VITALS`, else pysc2's ratios)."""
        known = MAX_VITALS.get(f"{self.race}.{self.type_name}")
        if known is not None:
            return round(100 * self.vitality / sum(known))
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
