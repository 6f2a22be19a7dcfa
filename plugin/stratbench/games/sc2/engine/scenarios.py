"""Scenario files (``scenarios/<name>.json``) -> a ready :class:`Battle`.

A scenario names its ``size``, ``time_limit_loops``, win conditions
(:mod:`.conditions`) and unit groups. A group is ``type``, ``owner``, ``x``,
``y``, ``count`` units spaced ``spacing`` apart along y, and optionally:
``stats`` (upgrades, e.g. ``{"cooldown": 1.11}``), ``energy``, ``ai`` for the
scripted side (``attack``, ``defend``, ``passive``; :mod:`.opponent`),
``at`` (seconds: the group arrives then), ``cargo`` (``{"type", "count"}``
carried by a transport) with ``drop`` ([x, y] where the transport unloads).
A scenario's ``attack_at`` (seconds) makes the scripted side defend until then;
its ``resources`` (``{"minerals": 1600, "vespene": 0}``) are the player's to warp in with.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from stratbench.games.sc2.engine.battle import MOVE, Battle, Order
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND
from stratbench.games.sc2.engine.conditions import validate

SCENARIO_DIR = Path(__file__).with_name("scenarios")


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def load_scenario(name: str) -> dict:
    """The scenario ``name`` as a dict, or a one-line error naming the missing file or bad condition."""
    path = SCENARIO_DIR / f"{name}.json"
    if not path.exists():
        raise ValueError(f"unknown SC2 engine scenario {name!r} (no {path.name}); known: {', '.join(scenario_names())}")
    scenario = json.loads(path.read_text(encoding="utf-8"))
    for condition in scenario.get("victory", []) + scenario.get("defeat", []):
        validate(condition)
    return scenario


def _unit_fields(scenario: dict, group: dict) -> dict:
    fields: dict = {}
    if group.get("stats"):
        fields["overrides"] = dict(group["stats"])
    if "energy" in group:
        fields["energy"] = float(group["energy"])
    if int(group["owner"]) == 2:
        fields["ai"] = group.get("ai", "attack")
        fields["attack_loop"] = round(float(group.get("attack_at", scenario.get("attack_at", 0))) * LOOPS_PER_SECOND)
    if group.get("passive"):
        fields["passive"] = True
    if group.get("cargo"):
        fields["cargo"] = [group["cargo"]["type"]] * int(group["cargo"].get("count", 1))
    return fields


def build_battle(scenario: dict, seed: int | None = None) -> Battle:
    """Place every unit group of ``scenario`` (later arrivals are scheduled).

    With ``seed``, every unit is shifted by up to 0.5 in x and y (a seeded,
    reproducible jitter, as the game's random seed varies spawn details).
    """
    rng = random.Random(seed) if seed is not None else None
    width, height = scenario.get("size", [32, 32])
    battle = Battle(width, height)
    resources = scenario.get("resources", {})
    battle.resources[1] = {"minerals": float(resources.get("minerals", 0)), "vespene": float(resources.get("vespene", 0))}
    for group in scenario.get("units", []):
        for index in range(int(group.get("count", 1))):
            x = float(group["x"])
            y = float(group["y"]) + index * float(group.get("spacing", 1.5))
            if rng is not None:
                x, y = x + rng.uniform(-0.5, 0.5), y + rng.uniform(-0.5, 0.5)
            fields = _unit_fields(scenario, group)
            fields["post"] = (x, y)
            if group.get("drop"):
                fields["order"] = Order(MOVE, point=(float(group["drop"][0]), float(group["drop"][1])))
            owner = int(group["owner"])
            at = round(float(group.get("at", 0)) * LOOPS_PER_SECOND)
            if at > 0:
                battle.schedule(at, {"name": group["type"], "owner": owner, "x": x, "y": y, **fields})
            else:
                battle.add(group["type"], owner, x, y, **fields)
    return battle
