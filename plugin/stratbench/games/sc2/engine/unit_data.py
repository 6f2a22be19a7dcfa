"""StarCraft II unit stats read from the committed table ``units.csv``."""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

LOOPS_PER_SECOND = 22.4
"""Game loops per game second on the "faster" speed."""

UNITS_FILE = Path(__file__).with_name("units.csv")


@dataclass(frozen=True)
class UnitStats:
    """One unit type's published stats (times in game seconds on "faster"; cost includes what it morphs from;
    ``life``: a summoned unit's timed life, 0 for none)."""

    name: str
    health: float
    shield: float
    armor: float
    attributes: frozenset[str]
    layer: str
    energy: float
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
    air_damage: float | None
    air_attacks: int | None
    air_bonus_attribute: str | None
    air_bonus: float | None
    air_range: float | None
    splash: float
    minerals: int
    vespene: int
    life: float
    source: str

    @property
    def cooldown_loops(self) -> int:
        """The weapon cooldown in whole game loops (rounded to nearest)."""
        return max(1, round(self.cooldown * LOOPS_PER_SECOND))

    @property
    def life_loops(self) -> int:
        """A summoned unit's timed life in game loops (0: it lives until killed)."""
        return round(self.life * LOOPS_PER_SECOND)

    @property
    def has_weapon(self) -> bool:
        return self.attacks > 0

    @property
    def flying(self) -> bool:
        """Whether the unit flies (moves over everything, hit only by weapons that target air)."""
        return self.layer == "air"

    @property
    def is_structure(self) -> bool:
        return "Structure" in self.attributes

    def can_hit(self, target: "UnitStats") -> bool:
        """Whether a weapon of this unit targets ``target``'s layer (a Colossus is hit by both)."""
        if not self.has_weapon:
            return False
        if target.layer == "both":
            return bool(self.targets)
        return ("air" if target.flying else "ground") in self.targets

    def weapon_range(self, target: "UnitStats") -> float:
        """Range of the weapon used against ``target`` (the air weapon against flying units)."""
        if target.flying and self.air_range is not None:
            return self.air_range
        return self.range

    def hit_damage(self, target: "UnitStats") -> float:
        """Damage of one hit against ``target`` before armour (the air weapon against flying units)."""
        if target.flying and self.air_damage is not None:
            attribute, bonus = self.air_bonus_attribute or "", self.air_bonus or 0.0
            return self.air_damage + (bonus if attribute and attribute in target.attributes else 0.0)
        bonus = self.bonus if self.bonus_attribute and self.bonus_attribute in target.attributes else 0.0
        return self.damage + bonus

    def hits_per_attack(self, target: "UnitStats") -> int:
        if target.flying and self.air_attacks is not None:
            return self.air_attacks
        return self.attacks


def _optional(value: str, kind=float):
    return kind(value) if value.strip() else None


def _row_to_stats(row: dict[str, str]) -> UnitStats:
    return UnitStats(
        name=row["name"], health=float(row["health"]), shield=float(row["shield"]),
        armor=float(row["armor"]), attributes=frozenset(row["attributes"].split()),
        layer=row["layer"], energy=float(row["energy"]),
        radius=float(row["radius"]), speed=float(row["speed"]), sight=float(row["sight"]),
        damage=float(row["damage"]), attacks=int(row["attacks"]),
        bonus_attribute=row["bonus_attribute"], bonus=float(row["bonus"]),
        range=float(row["range"]), cooldown=float(row["cooldown"]),
        targets=frozenset(row["targets"].split()),
        air_damage=_optional(row["air_damage"]), air_attacks=_optional(row["air_attacks"], int),
        air_bonus_attribute=_optional(row["air_bonus_attribute"], str), air_bonus=_optional(row["air_bonus"]),
        air_range=_optional(row["air_range"]), splash=float(row["splash"]),
        minerals=int(row["minerals"]), vespene=int(row["vespene"]), life=float(row["life"] or 0), source=row["source"],
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


def with_overrides(stats: UnitStats, overrides: dict | None) -> UnitStats:
    """``stats`` with a scenario's upgrades applied (``{"cooldown": 1.11}``), or a one-line error for a bad field."""
    if not overrides:
        return stats
    known = {f for f in UnitStats.__dataclass_fields__ if f not in ("name", "source")}
    bad = sorted(set(overrides) - known)
    if bad:
        raise KeyError(f"unknown stat(s) {bad} for {stats.name}; known: {', '.join(sorted(known))}")
    return replace(stats, **overrides)
