"""The engine behind pysc2's own ``RemoteController``: requests in, s2clientprotocol responses out.

:class:`EngineProtocol` replaces only the websocket of pysc2's
``StarcraftProtocol``: every request pysc2 builds is serialised to bytes,
parsed back as ``sc_pb.Request`` and answered with a serialised
``sc_pb.Response`` by :class:`EngineServer`. ``SC2Env`` therefore runs its
real code path (status checks, observation transforms, action building).

Implemented requests: ping, create_game (``local_map.map_data`` holds the
scenario JSON; ``random_seed``), join_game, restart_game, game_info, data,
observation (raw units, player common, available abilities, score by
category and vital, feature layers at the requested screen/minimap sizes,
player_result at the end), action (raw ``unit_command``; feature-layer
``unit_command`` on screen/minimap points, ``unit_selection_point``,
``unit_selection_rect``, ``camera_move``; raw ``camera_move``; ui ``select_army``, ``select_warp_gates``;
warp-in and the Warp Prism's modes (:mod:`.warp_in`); ``queue_command``
queues a command behind the units' orders, as shift does),
with the abilities of :mod:`.abilities` reached by their pysc2 ability ids, step, leave, quit.
Answered "unsupported" (an error in the response): every other request
(replays, save_map, debug, query, observer actions, chat is ignored).
"""

from __future__ import annotations

import json
import math

from stratbench.games.sc2.engine.abilities import ABILITIES, order_cast
from stratbench.games.sc2.engine.ability_data import ABILITY_IDS
from stratbench.games.sc2.engine.battle import ATTACK_MOVE, ATTACK_UNIT, HOLD, MOVE, STOP, Battle, Order
from stratbench.games.sc2.engine.conditions import result as game_result
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders
from stratbench.games.sc2.engine.scenarios import build_battle
from stratbench.games.sc2.engine.warp_in import PHASE, TRAIN_WARP, TRANSPORT, morph_prisms, warp_in
from stratbench.games.sc2.pysc2_compat import import_pysc2
from stratbench.games.sc2.engine.unit_data import unit_stats
from stratbench.games.sc2.engine.observation import fill_observation

ABILITY_ORDERS = {3674: ATTACK_MOVE, 23: ATTACK_MOVE, 3794: MOVE, 16: MOVE, 3793: HOLD, 18: HOLD, 3665: STOP, 4: STOP}
"""General ability ids (pysc2 ``actions``) -> engine order kinds: ATTACK, MOVE, HOLDPOSITION, STOP."""
RESULT_SUCCESS, RESULT_NOT_SUPPORTED, RESULT_ERROR, RESULT_COOLDOWN, RESULT_NO_ENERGY = 1, 2, 3, 6, 17
"""s2clientprotocol ``ActionResult`` values the engine answers."""
STATUS_LAUNCHED, STATUS_INIT, STATUS_IN_GAME, STATUS_ENDED, STATUS_QUIT = 1, 2, 3, 5, 6


def _protos():
    import_pysc2()
    from s2clientprotocol import (  # optional: the [sc2] extra, after import_pysc2()
        common_pb2,
        raw_pb2,
        sc2api_pb2,
        score_pb2,
        spatial_pb2,
    )

    return sc2api_pb2, common_pb2, raw_pb2, spatial_pb2, score_pb2


class EngineServer:
    """Holds one game on a :class:`Battle` and answers ``sc_pb.Request`` s."""

    def __init__(self) -> None:
        self.status = STATUS_LAUNCHED
        self.scenario: dict | None = None
        self.battle: Battle | None = None
        self.options = None
        self.selected: set[int] = set()
        self.camera = (0.0, 0.0)
        self.seed: int | None = None

    # --- dispatch ----------------------------------------------------------
    def answer(self, request_bytes: bytes) -> bytes:
        sc_pb = _protos()[0]
        request = sc_pb.Request.FromString(request_bytes)
        kind = request.WhichOneof("request")
        response = sc_pb.Response(id=request.id)
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            response.error.append(f"{kind} is unsupported by the stratbench SC2 engine")
        else:
            handler(getattr(request, kind), response)
        response.status = self.status
        return response.SerializeToString()

    def _on_ping(self, _req, res) -> None:
        res.ping.game_version = "stratbench-engine"
        res.ping.data_version = ""

    def _on_create_game(self, req, res) -> None:
        self.scenario = json.loads(req.local_map.map_data.decode("utf-8"))
        self.seed = req.random_seed if req.HasField("random_seed") else None
        self.status = STATUS_INIT
        res.create_game.SetInParent()

    def _on_join_game(self, req, res) -> None:
        self.options = req.options
        self._start()
        res.join_game.player_id = 1

    def _on_restart_game(self, _req, res) -> None:
        self._start()
        res.restart_game.SetInParent()

    def _on_leave_game(self, _req, res) -> None:
        self.status = STATUS_LAUNCHED
        res.leave_game.SetInParent()

    def _on_quit(self, _req, res) -> None:
        self.status = STATUS_QUIT
        res.quit.SetInParent()

    def _start(self) -> None:
        self.battle = build_battle(self.scenario or {}, seed=self.seed)
        self.selected = set()
        own = self.battle.alive(1) or self.battle.alive()
        # the camera starts on the player's army, as SMAC's and LLM-PySC2's maps place it
        self.camera = (sum(u.x for u in own) / len(own), sum(u.y for u in own) / len(own)) if own else \
            (self.battle.width / 2, self.battle.height / 2)
        self.status = STATUS_IN_GAME

    # --- static information --------------------------------------------------
    def _on_game_info(self, _req, res) -> None:
        sc_pb, common_pb, *_ = _protos()
        info = res.game_info
        info.map_name = (self.scenario or {}).get("name", "engine")
        info.options.CopyFrom(self.options)
        width, height = (self.scenario or {}).get("size", [32, 32])
        info.start_raw.map_size.x, info.start_raw.map_size.y = int(width), int(height)
        info.start_raw.playable_area.p0.x, info.start_raw.playable_area.p0.y = 0, 0
        info.start_raw.playable_area.p1.x, info.start_raw.playable_area.p1.y = int(width), int(height)
        info.player_info.add(player_id=1, type=sc_pb.Participant, race_requested=common_pb.Protoss, race_actual=common_pb.Protoss)
        info.player_info.add(player_id=2, type=sc_pb.Computer, race_requested=common_pb.Random)

    def _on_data(self, _req, res) -> None:
        units = import_pysc2().units

        for name, stats in unit_stats().items():
            race, unit = name.split(".")
            res.data.units.add(unit_id=int(getattr(getattr(units, race), unit)), name=unit, available=True,
                               armor=stats.armor, movement_speed=stats.speed)

    # --- playing -------------------------------------------------------------
    def _type_id(self, name: str) -> int:
        race, unit = name.split(".")
        return int(getattr(getattr(import_pysc2().units, race), unit))

    def _result(self) -> int | None:
        """1 win, 2 loss, 3 tie for player 1 (the scenario's conditions, :mod:`.conditions`); None while playing."""
        return game_result(self.battle, self.scenario or {})

    def _on_step(self, req, res) -> None:
        for _ in range(max(1, req.count)):
            if self._result() is not None:
                break
            scripted_opponent_orders(self.battle, 2)
            self.battle.step()
        if self._result() is not None:
            self.status = STATUS_ENDED
        res.step.simulation_loop = self.battle.loop

    def _world(self, screen_point, minimap: bool) -> tuple[float, float]:
        """Screen or minimap pixel -> world point (pysc2's camera transform inverted)."""
        width, height = (self.scenario or {}).get("size", [32, 32])
        layer = self.options.feature_layer
        if minimap:
            scale = max(width, height) / layer.minimap_resolution.x
            return screen_point.x * scale, height - screen_point.y * scale
        size = layer.resolution.x
        units_per_px = layer.width / size
        return (self.camera[0] + (screen_point.x - size / 2) * units_per_px,
                self.camera[1] - (screen_point.y - size / 2) * units_per_px)

    def _command(self, tags, ability: int, point=None, target: int | None = None, queued: bool = False) -> int:
        """Apply one unit command; the ``ActionResult`` (1 Success, 2 NotSupported, 17 NotEnoughEnergy, 6 Cooldown).

        Blink moves every selected Stalker; other abilities are smart-cast by
        the first selected caster (by tag) able to cast, one with no order to
        cast the same ability first (so repeated casts spread over the
        casters), as the game does (StarCraft Wiki "Smartcasting"). A
        ``queued`` command (``queue_command``) waits behind each unit's orders.
        """
        if ability in TRAIN_WARP:
            if point is None:
                return RESULT_ERROR
            return warp_in(self.battle, [self.battle.units[t] for t in tags], TRAIN_WARP[ability], point)
        if ability in (PHASE, TRANSPORT):
            return morph_prisms(self.battle, [self.battle.units[t] for t in tags], phasing=ability == PHASE)
        if ability in ABILITY_IDS:
            name = ABILITY_IDS[ability]
            data = ABILITIES[name]
            casters = [self.battle.units[t] for t in tags if self.battle.units[t].name == data.caster]
            # smart-cast: one caster obeys, one not yet ordered to cast this ability first
            casters.sort(key=lambda u: any(o.kind == "cast" and o.ability == name for o in [u.order, *u.queue]))
            if data.target == "unit" and target is None and point is not None:
                target = self._unit_at(point, ground=True)
            if not casters:
                return RESULT_ERROR
            done = False
            for caster in casters:
                if order_cast(self.battle, caster.tag, name, point, target, queued=queued):
                    done = True
                    if name != "blink":
                        break
            if done:
                return RESULT_SUCCESS
            return RESULT_NO_ENERGY if all(c.energy < data.energy for c in casters) else RESULT_COOLDOWN
        for tag in tags:
            if target is not None and ability in (3674, 23):
                self.battle.command(tag, Order(ATTACK_UNIT, target=target), queued=queued)
            elif ability in ABILITY_ORDERS:
                kind = ABILITY_ORDERS[ability]
                self.battle.command(tag, Order(kind, point=point), queued=queued and kind != STOP)
            else:
                return RESULT_NOT_SUPPORTED
        return RESULT_SUCCESS

    def _on_action(self, req, res) -> None:
        for action in req.actions:
            res.action.result.append(self._apply(action))

    def _apply(self, action) -> int:
        raw = action.action_raw
        if raw.HasField("unit_command"):
            cmd = raw.unit_command
            point = (cmd.target_world_space_pos.x, cmd.target_world_space_pos.y) if cmd.HasField("target_world_space_pos") else None
            target = cmd.target_unit_tag if cmd.HasField("target_unit_tag") else None
            own = [t for t in cmd.unit_tags if t in self.battle.units and self.battle.units[t].owner == 1]
            return self._command(own, cmd.ability_id, point, target, cmd.queue_command)
        if raw.HasField("camera_move"):
            self.camera = (raw.camera_move.center_world_space.x, raw.camera_move.center_world_space.y)
            return RESULT_SUCCESS
        feature = action.action_feature_layer
        if feature.HasField("camera_move"):
            self.camera = self._world(feature.camera_move.center_minimap, minimap=True)
            return RESULT_SUCCESS
        if feature.HasField("unit_command"):
            cmd = feature.unit_command
            point = None
            if cmd.HasField("target_screen_coord"):
                point = self._world(cmd.target_screen_coord, minimap=False)
            elif cmd.HasField("target_minimap_coord"):
                point = self._world(cmd.target_minimap_coord, minimap=True)
            target = self._unit_at(point) if point is not None and cmd.ability_id in (3674, 23) else None
            return self._command(sorted(self.selected), cmd.ability_id, point, target, cmd.queue_command)
        if feature.HasField("unit_selection_point"):
            unit = self._own_unit_at(self._world(feature.unit_selection_point.selection_screen_coord, minimap=False))
            if feature.unit_selection_point.type not in (2, 4):  # Select or AllType replace the selection
                self.selected = set()
            if unit is not None:
                self.selected.add(unit.tag)
            return 1
        if feature.HasField("unit_selection_rect"):
            rect = feature.unit_selection_rect
            if not rect.selection_add:
                self.selected = set()
            for box in rect.selection_screen_coord:
                (x0, y0), (x1, y1) = self._world(box.p0, False), self._world(box.p1, False)
                for unit in self.battle.alive(1):
                    if min(x0, x1) - unit.stats.radius <= unit.x <= max(x0, x1) + unit.stats.radius and \
                            min(y0, y1) - unit.stats.radius <= unit.y <= max(y0, y1) + unit.stats.radius:
                        self.selected.add(unit.tag)
            return 1
        if action.action_ui.HasField("select_army"):
            self.selected = {u.tag for u in self.battle.alive(1)}
            return 1
        if action.action_ui.HasField("select_warp_gates"):
            gates = {u.tag for u in self.battle.alive(1) if u.name == "Protoss.WarpGate"}
            self.selected = (self.selected | gates) if action.action_ui.select_warp_gates.selection_add else gates
            return 1
        return RESULT_SUCCESS if not action.ListFields() else RESULT_NOT_SUPPORTED

    def _own_unit_at(self, point):
        hits = [u for u in self.battle.alive(1) if math.hypot(u.x - point[0], u.y - point[1]) <= u.stats.radius + 0.5]
        return min(hits, key=lambda u: math.hypot(u.x - point[0], u.y - point[1])) if hits else None

    def _unit_at(self, point, ground: bool = False) -> int | None:
        hits = [u for u in self.battle.alive(2) if (not ground or not u.stats.flying) and math.hypot(u.x - point[0], u.y - point[1]) <= u.stats.radius + 0.5]
        return min(hits, key=lambda u: math.hypot(u.x - point[0], u.y - point[1])).tag if hits else None

    def _on_observation(self, _req, res) -> None:
        self.selected = {t for t in self.selected if t in self.battle.units and self.battle.units[t].alive}
        fill_observation(self, res.observation.observation)
        result = self._result()
        if result is not None:
            res.observation.player_result.add(player_id=1, result=result)
            res.observation.player_result.add(player_id=2, result={1: 2, 2: 1, 3: 3}[result])
