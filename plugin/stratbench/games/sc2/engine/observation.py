"""Build a ``ResponseObservation`` from the engine's battle (raw units, layers, score)."""

from __future__ import annotations

import numpy as np

from stratbench.games.sc2.engine.abilities import ready
from stratbench.games.sc2.engine.ability_data import ABILITY_IDS
from stratbench.games.sc2.engine.warp_in import ready_warp_abilities

SCREEN_LAYERS = ("height_map", "visibility_map", "creep", "power", "player_id", "player_relative", "unit_type",
                 "selected", "unit_hit_points", "unit_hit_points_ratio", "unit_energy", "unit_energy_ratio",
                 "unit_shields", "unit_shields_ratio", "unit_density", "unit_density_aa", "effects", "hallucinations",
                 "cloaked", "blip", "buffs", "buff_duration", "active", "build_progress", "pathable", "buildable",
                 "placeholder")
MINIMAP_LAYERS = ("height_map", "visibility_map", "creep", "camera", "player_id", "player_relative", "selected",
                  "unit_type", "alerts", "pathable", "buildable")
SELECTED_ABILITIES = (3674, 3794, 3793, 3665)
"""Abilities every selected unit offers: Attack, Move, Hold position, Stop (each caster adds its ready abilities)."""
NO_POINT = frozenset({3793, 3665, 76, 42, 2704, 1528, 1530})
"""Ability ids cast without a target (Hold, Stop, Guardian Shield, Volatile Burst, Spawn Locusts, prism modes)."""


def _ready_abilities(battle, unit) -> tuple[int, ...]:
    """The pysc2 ability ids of ``unit``'s abilities it can cast now (energy, cooldown)."""
    return tuple(i for i, name in ABILITY_IDS.items() if ready(battle, unit, name) and i not in (1442,))


def _order_ability(order) -> int:
    """The game's ability id of an order (attack for attack-move and attack-unit; the ability's own for a cast)."""
    if order.kind == "cast":
        return next(i for i, name in ABILITY_IDS.items() if name == order.ability)
    return {"move": 16, "hold": 18}.get(order.kind, 23)


def _on_screen(server, unit) -> bool:
    """Whether the unit's centre lies in the camera's view (the screen layer's world width, square)."""
    layer = server.options.feature_layer if server.options is not None else None
    half = (layer.width if layer is not None and layer.width else 24.0) / 2
    return abs(unit.x - server.camera[0]) < half - 1e-6 and abs(unit.y - server.camera[1]) < half - 1e-6


def _plane(plane, image: np.ndarray) -> None:
    plane.bits_per_pixel = 32
    plane.size.x, plane.size.y = image.shape[1], image.shape[0]
    plane.data = image.astype("<i4").tobytes()


def _paint(server, size: int, to_px, radius_px) -> dict[str, np.ndarray]:
    layers: dict[str, np.ndarray] = {}
    blank = lambda: np.zeros((size, size), dtype=np.int64)  # noqa: E731
    for name in ("player_id", "player_relative", "unit_type", "selected", "unit_hit_points", "unit_shields",
                 "unit_density", "unit_hit_points_ratio", "unit_shields_ratio"):
        layers[name] = blank()
    for unit in server.battle.alive():
        cx, cy = to_px(unit.x, unit.y)
        r = max(0, int(radius_px(unit.stats.radius)))
        x0, x1, y0, y1 = max(0, cx - r), min(size, cx + r + 1), max(0, cy - r), min(size, cy + r + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        region = (slice(y0, y1), slice(x0, x1))
        layers["player_id"][region] = unit.owner
        layers["player_relative"][region] = 1 if unit.owner == 1 else 4
        layers["unit_type"][region] = server._type_id(unit.name)
        layers["selected"][region] = 1 if unit.tag in server.selected else 0
        layers["unit_hit_points"][region] = int(unit.health)
        layers["unit_shields"][region] = int(unit.shield)
        layers["unit_hit_points_ratio"][region] = int(255 * unit.health / unit.stats.health)
        layers["unit_shields_ratio"][region] = int(255 * unit.shield / unit.stats.shield) if unit.stats.shield else 0
        layers["unit_density"][region] += 1
    layers["visibility_map"] = np.full((size, size), 2)
    return layers


def fill_observation(server, obs) -> None:
    """Fill ``obs`` (an ``Observation`` proto) for player 1."""
    battle = server.battle
    width, height = (server.scenario or {}).get("size", [32, 32])
    obs.game_loop = battle.loop
    common = obs.player_common
    own = battle.alive(1)
    common.player_id = 1
    common.army_count = len(own)
    common.food_used = common.food_army = len(own)
    common.food_cap = 200
    common.minerals = int(battle.resources[1]["minerals"])
    common.vespene = int(battle.resources[1]["vespene"])
    common.warp_gate_count = sum(1 for u in own if u.name == "Protoss.WarpGate")
    obs.raw_data.player.camera.x, obs.raw_data.player.camera.y = server.camera
    for unit in battle.alive():
        raw = obs.raw_data.units.add()
        raw.tag = unit.tag
        raw.unit_type = server._type_id(unit.name)
        raw.alliance = 1 if unit.owner == 1 else 4
        raw.owner = unit.owner
        raw.display_type = 1
        raw.pos.x, raw.pos.y, raw.pos.z = unit.x, unit.y, 0.0
        raw.facing = 0.0
        raw.radius = unit.stats.radius
        raw.health, raw.health_max = unit.health, unit.stats.health
        raw.shield, raw.shield_max = unit.shield, unit.stats.shield
        raw.build_progress = 1.0
        raw.is_selected = unit.tag in server.selected
        raw.is_on_screen = _on_screen(server, unit)
        raw.weapon_cooldown = max(0, unit.weapon_ready_loop - battle.loop)
        raw.is_flying = unit.stats.flying or unit.lifted(battle.loop)
        if unit.stats.energy:
            raw.energy, raw.energy_max = unit.energy, unit.stats.energy
        raw.cargo_space_taken = len(unit.cargo)
        for order in ([unit.order] if unit.order.kind != "stop" else []) + unit.queue:  # the current, then the queued
            raw.orders.add(ability_id=_order_ability(order))
    for tag in sorted(server.selected):
        unit = battle.units[tag]
        for ability in SELECTED_ABILITIES + _ready_abilities(battle, unit) + ready_warp_abilities(battle, unit):
            if all(a.ability_id != ability for a in obs.abilities):
                obs.abilities.add(ability_id=ability, requires_point=ability not in NO_POINT)
    score = obs.score
    score.score_type = 2  # Melee
    details = score.score_details
    details.killed_value_units = float(battle.kills[1])
    details.total_damage_dealt.life = battle.damage_dealt[1]
    details.total_damage_taken.life = battle.damage_dealt[2]
    score.score = int(battle.damage_dealt[1])
    dead_foes = [u for u in battle.units.values() if u.owner == 2 and not u.alive]
    dead_own = [u for u in battle.units.values() if u.owner == 1 and not u.alive]
    details.killed_minerals.army = float(sum(u.stats.minerals for u in dead_foes))
    details.killed_vespene.army = float(sum(u.stats.vespene for u in dead_foes))
    details.lost_minerals.army = float(sum(u.stats.minerals for u in dead_own))
    details.lost_vespene.army = float(sum(u.stats.vespene for u in dead_own))
    layer = server.options.feature_layer if server.options is not None else None
    if layer is None or not layer.resolution.x:
        return
    size = layer.resolution.x
    scale = size / layer.width
    to_screen = lambda x, y: (int((x - server.camera[0]) * scale + size / 2), int((server.camera[1] - y) * scale + size / 2))  # noqa: E731
    screen = _paint(server, size, to_screen, lambda r: r * scale)
    mini = layer.minimap_resolution.x
    mscale = mini / max(width, height)
    minimap = _paint(server, mini, lambda x, y: (int(x * mscale), int((height - y) * mscale)), lambda r: r * mscale)
    for name in SCREEN_LAYERS:
        _plane(getattr(obs.feature_layer_data.renders, name), screen.get(name, np.zeros((size, size))))
    for name in MINIMAP_LAYERS:
        _plane(getattr(obs.feature_layer_data.minimap_renders, name), minimap.get(name, np.zeros((mini, mini))))
