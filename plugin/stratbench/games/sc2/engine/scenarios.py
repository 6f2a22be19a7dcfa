"""Scenario files (``scenarios/<name>.json``) -> a ready :class:`Battle`."""

from __future__ import annotations

import json
import random
from pathlib import Path

from stratbench.games.sc2.engine.battle import Battle

SCENARIO_DIR = Path(__file__).with_name("scenarios")


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def load_scenario(name: str) -> dict:
    """The scenario ``name`` as a dict, or a one-line error naming the missing file."""
    path = SCENARIO_DIR / f"{name}.json"
    if not path.exists():
        raise ValueError(f"unknown SC2 engine scenario {name!r} (no {path.name}); known: {', '.join(scenario_names())}")
    return json.loads(path.read_text(encoding="utf-8"))


def build_battle(scenario: dict, seed: int | None = None) -> Battle:
    """Place every unit group of ``scenario`` (``count`` units spaced ``spacing`` apart along y).

    With ``seed``, every unit is shifted by up to 0.5 in x and y (a seeded,
    reproducible jitter, as the game's random seed varies spawn details).
    """
    rng = random.Random(seed) if seed is not None else None
    width, height = scenario.get("size", [32, 32])
    battle = Battle(width, height)
    for group in scenario.get("units", []):
        for index in range(int(group.get("count", 1))):
            x = float(group["x"])
            y = float(group["y"]) + index * float(group.get("spacing", 1.5))
            if rng is not None:
                x, y = x + rng.uniform(-0.5, 0.5), y + rng.uniform(-0.5, 0.5)
            battle.add(group["type"], int(group["owner"]), x, y)
    return battle
