"""StarCraft II unit stats read from the committed table ``units.csv``."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

LOOPS_PER_SECOND = 22.4
"""Game loops per game second on the "faster" speed."""

UNITS_FILE = Path(__file__).with_name("units.csv")


@dataclass(frozen=True)
class UnitStats:
    """One unit type's published stats (times in game seconds on "faster"; cost includes what it morphs from)."""

    name: str
    health: float
    shield: float
    armor: float
    attributes: frozenset[str]
    radius: float
    speed: float
    sight: float
    damage: float
    attacks: int
    bonus_attribute: str
    bonus: float
    range: float
    cooldown: float
    targets: frozenset[str]
    splash: float
    minerals: int
    vespene: int
    source: str

    @property
    def cooldown_loops(self) -> int:
        """The weapon cooldown in whole game loops (rounded to nearest)."""
        return max(1, round(self.cooldown * LOOPS_PER_SECOND))

    @property
    def has_weapon(self) -> bool:
        return self.attacks > 0

    def hit_damage(self, target: "UnitStats") -> float:
        """Damage of one hit against ``target`` before armour."""
        bonus = self.bonus if self.bonus_attribute and self.bonus_attribute in target.attributes else 0.0
        return self.damage + bonus


def _row_to_stats(row: dict[str, str]) -> UnitStats:
    return UnitStats(
        name=row["name"], health=float(row["health"]), shield=float(row["shield"]),
        armor=float(row["armor"]), attributes=frozenset(row["attributes"].split()),
        radius=float(row["radius"]), speed=float(row["speed"]), sight=float(row["sight"]),
        damage=float(row["damage"]), attacks=int(row["attacks"]),
        bonus_attribute=row["bonus_attribute"], bonus=float(row["bonus"]),
        range=float(row["range"]), cooldown=float(row["cooldown"]),
        targets=frozenset(row["targets"].split()), splash=float(row["splash"]),
        minerals=int(row["minerals"]), vespene=int(row["vespene"]), source=row["source"],
    )


@lru_cache(maxsize=1)
def unit_stats() -> dict[str, UnitStats]:
    """Every unit type of the table, by pysc2 name (``"Protoss.Stalker"``)."""
    with UNITS_FILE.open(newline="", encoding="utf-8") as handle:
        return {row["name"]: _row_to_stats(row) for row in csv.DictReader(handle)}


def stats_for(name: str) -> UnitStats:
    """The stats of ``name``, or a one-line error naming the table."""
    table = unit_stats()
    if name not in table:
        raise KeyError(f"unit type {name!r} is not in {UNITS_FILE.name}; known: {', '.join(sorted(table))}")
    return table[name]
