"""The abilities' numbers: one row per ability, each with its source (casting them: :mod:`.abilities`)."""

from __future__ import annotations

from dataclasses import dataclass

from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND


@dataclass(frozen=True)
class AbilityData:
    """One ability's numbers (times in seconds on "faster")."""

    name: str
    caster: str
    target: str  # "point", "unit" or "none"
    energy: float
    cooldown: float
    range: float
    radius: float
    damage: float
    duration: float
    source: str

    @property
    def duration_loops(self) -> int:
        return round(self.duration * LOOPS_PER_SECOND)

    @property
    def cooldown_loops(self) -> int:
        return round(self.cooldown * LOOPS_PER_SECOND)


ABILITIES: dict[str, AbilityData] = {a.name: a for a in (
    AbilityData("blink", "Protoss.Stalker", "point", 0, 7.0, 8.0, 0, 0, 0, "Liquipedia Stalker (LotV 5.0): Blink range 8, cooldown 7"),
    AbilityData("guardian_shield", "Protoss.Sentry", "none", 75, 0, 0, 4.5, 2, 5.71,
                "Liquipedia Sentry (LotV 5.0): Guardian Shield 75 energy, radius 4.5, -2 ranged damage, 5.71 s"),
    AbilityData("force_field", "Protoss.Sentry", "point", 50, 0, 9.0, 1.7, 0, 11.0,
                "Liquipedia Sentry (LotV 5.0): Force Field 50 energy, range 9, radius 1.7, 11 s"),
    AbilityData("psionic_storm", "Protoss.HighTemplar", "point", 75, 0, 9.0, 1.5, 80, 2.86,
                "Liquipedia High Templar (LotV 5.0): Psionic Storm 75 energy, range 9, radius 1.5, 80 damage over 2.86 s"),
    AbilityData("purification_nova", "Protoss.Disruptor", "point", 0, 21.4, 13.0, 1.5, 145, 2.1,
                "Liquipedia Disruptor (LotV 5.0): Purification Nova 145 (+55 shields), radius 1.5, detonates after 2.1 s, cooldown 21.4"),
    AbilityData("corrosive_bile", "Zerg.Ravager", "point", 0, 7.0, 9.0, 0.5, 60, 2.5,
                "Liquipedia Ravager (LotV 5.0): Corrosive Bile 60 damage, range 9, radius 0.5, lands after 2.5 s, cooldown 7"),
    AbilityData("graviton_beam", "Protoss.Phoenix", "unit", 50, 0, 4.0, 0, 0, 7.14,
                "Liquipedia Phoenix (LotV 5.0): Graviton Beam 50 energy, range 4, 7.14 s"),
    AbilityData("volatile_burst", "Zerg.Baneling", "none", 0, 0, 0, 2.2, 16, 0,
                "Liquipedia Baneling (LotV 5.0): Volatile Burst 16 (+19 light), radius 2.2"),
    AbilityData("fungal_growth", "Zerg.Infestor", "point", 75, 0, 10.0, 2.25, 30, 2.85,
                "Liquipedia Infestor (LotV 5.0): Fungal Growth 75 energy, range 10, radius 2.25, 30 damage over 2.85 s, "
                "roots as long"),
    AbilityData("abduct", "Zerg.Viper", "unit", 75, 0, 9.0, 0, 0, 0,
                "Liquipedia Viper (LotV 5.0): Abduct 75 energy, range 9, pulls the target to the Viper"),
    AbilityData("blinding_cloud", "Zerg.Viper", "point", 100, 0, 11.0, 2.0, 0, 5.71,
                "Liquipedia Viper (LotV 5.0): Blinding Cloud 100 energy, range 11, radius 2, 5.71 s: ground units "
                "under it attack at melee range"),
    AbilityData("parasitic_bomb", "Zerg.Viper", "unit", 125, 0, 8.0, 3.0, 120, 7.0,
                "Liquipedia Viper (LotV 5.0): Parasitic Bomb 125 energy, range 8, 120 damage over 7 s to air units "
                "within 3 of the target"),
    AbilityData("spawn_locusts", "Zerg.SwarmHost", "none", 0, 43.0, 0, 0, 0, 0,
                "Liquipedia Swarm Host (LotV 5.0): Spawn Locusts, two Locusts, cooldown 43 s"),
)}
ABILITY_IDS: dict[int, str] = {3687: "blink", 1442: "blink", 76: "guardian_shield", 1526: "force_field",
                               1036: "psionic_storm", 2346: "purification_nova", 2338: "corrosive_bile",
                               173: "graviton_beam", 42: "volatile_burst", 74: "fungal_growth", 2067: "abduct",
                               2063: "blinding_cloud", 2542: "parasitic_bomb", 2704: "spawn_locusts"}
"""pysc2 ability ids (``Effect_*`` functions, feature and raw) -> ability name."""
