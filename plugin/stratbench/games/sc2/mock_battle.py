"""A skirmish on pysc2's own mock environment, for playing the text interface without the game.

:class:`MockBattleEnv` is pysc2's ``SC2TestEnv`` (same constructor, specs and
``TimeStep`` contract) whose observations show chosen units: each step builds
a ``ResponseObservation`` with ``pysc2.tests.dummy_observation.Builder``, puts
the units, the camera, the available abilities and the score in it, and runs
pysc2's ``Features.transform_obs``. Each action goes through pysc2's
``Features.transform_action`` (so an unavailable function raises as
``SC2Env`` does), and a small fixed rule plays the resulting command:

* ``select_point`` selects (``select``) or toggles the unit under the point;
* ``Attack_screen`` on an enemy orders every selected own unit to attack it;
  ``Move_screen``/``Move_minimap``/``Stop``/``HoldPosition`` clear the order;
* each step, every own unit with an order deals its damage to its target
  (the order ends when the target dies), then every living enemy hits the own
  unit with the lowest tag.

It is no battle simulation (issue 19's engine is); it exists so that tests,
the latency bench and the mock suite drive the real pysc2 types end to end.
The episode ends when one side has no units (reward +1 or -1, discount 0) or
after ``max_steps`` (reward 0, a tie). Each step advances ``step_mul`` game loops
(as ``SC2Env``'s ``step_mul``), while the rule above plays once per step. ``score_by_category`` counts the killed
and lost units' costs (minerals, vespene) under ``army``.

Entry points: :class:`MockUnit`, :func:`make_env_factory`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from stratbench.games.sc2.config import interface_format
from stratbench.games.sc2.pysc2_compat import import_pysc2
from stratbench.games.sc2.unit_table import MAX_VITALS

UNIT_STATS: dict[str, tuple[int, int, int]] = {
    "Protoss.Zealot": (100, 0, 8),
    "Protoss.Stalker": (125, 50, 13),
    "Protoss.Colossus": (300, 200, 20),
    "Zerg.Zergling": (25, 0, 5),
    "Zerg.Roach": (75, 25, 16),
    "Zerg.SpineCrawler": (100, 0, 25),
}
"""The mock's costs (minerals, vespene) and damage per step, by ``Race.Type``; other types: :data:`OTHER_STATS`."""

OTHER_STATS = (100, 50, 10)

_ABILITIES = ("Attack_screen", "Move_screen", "HoldPosition_quick", "Stop_quick")
SELF, ENEMY = 1, 4


@dataclass(frozen=True)
class MockUnit:
    """A unit of the mock skirmish.

    Attributes:
        tag: Its raw tag (``0x100040001``-style numbers read well in prompts).
        kind: ``Race.Type`` as in :data:`UNIT_STATS` (``"Protoss.Stalker"``).
        alliance: 1 own, 4 enemy.
        x, y: World position.
        health, health_max, shield, shield_max: Vitals.
    """

    tag: int
    kind: str
    alliance: int
    x: float
    y: float
    health: int
    health_max: int
    shield: int = 0
    shield_max: int = 0


def make_env_factory(units: tuple[MockUnit, ...], *, max_steps: int = 60, step_mul: int = 8,
                     camera: tuple[float, float] = (32.0, 32.0), map_size: int = 64) -> Callable[[], Any]:
    """Returns a factory of fresh :class:`MockBattleEnv` s with these units (the Game's ``env_factory``)."""

    def factory() -> Any:
        return MockBattleEnv(units, max_steps=max_steps, step_mul=step_mul, camera=camera, map_size=map_size)

    return factory


class MockBattleEnv:
    """pysc2's ``SC2TestEnv`` showing a skirmish (see the module docstring)."""

    def __init__(self, units: tuple[MockUnit, ...], *, max_steps: int = 60, step_mul: int = 8,
                 camera: tuple[float, float] = (32.0, 32.0), map_size: int = 64) -> None:
        pysc2 = import_pysc2()
        self._pysc2 = pysc2
        aif = interface_format()
        self._inner = pysc2.mock_sc2_env.SC2TestEnv(agent_interface_format=[aif])
        size = pysc2.common_pb.Size2DI(x=map_size, y=map_size)
        self._features = pysc2.features.Features(aif, map_size=size)
        self._start = tuple(units)
        self._max_steps = max_steps
        self._step_mul = step_mul
        self._camera = camera
        self._units: list[MockUnit] = []
        self._selected: set[int] = set()
        self._orders: dict[int, int] = {}
        self._steps = 0
        self._loop = 0
        self._proto: Any = None
        self._killed = [0, 0]
        self._lost = [0, 0]

    # -- pysc2's environment interface --------------------------------------------------------------

    def reset(self) -> list[Any]:
        """Starts the skirmish; returns the first ``TimeStep`` (one agent)."""
        self._units = list(self._start)
        self._selected = set()
        self._orders = {}
        self._steps = 0
        self._loop = 0
        self._killed = [0, 0]
        self._lost = [0, 0]
        return [self._timestep(self._pysc2.environment.StepType.FIRST, 0.0, 0.0)]

    def step(self, actions: list[Any]) -> list[Any]:
        """Plays one action (pysc2 ``FunctionCall``) and the enemies' reply; returns the next ``TimeStep``."""
        if len(actions) != 1:
            raise ValueError(f"Expected 1 actions, received {len(actions)}.")
        action = self._features.transform_action(self._proto.observation, actions[0])
        self._play(action)
        self._own_attack()
        self._enemies_attack()
        self._steps += 1
        self._loop += self._step_mul
        environment = self._pysc2.environment
        own = [u for u in self._units if u.alliance == SELF]
        enemy = [u for u in self._units if u.alliance == ENEMY]
        if not enemy or not own or self._steps >= self._max_steps:
            reward = 1.0 if not enemy and own else -1.0 if not own and enemy else 0.0
            return [self._timestep(environment.StepType.LAST, reward, 0.0)]
        return [self._timestep(environment.StepType.MID, 0.0, 1.0)]

    def action_spec(self) -> Any:
        """pysc2's action spec (the mock environment's)."""
        return self._inner.action_spec()

    def observation_spec(self) -> Any:
        """pysc2's observation spec (the mock environment's)."""
        return self._inner.observation_spec()

    def close(self) -> None:
        """Nothing to release."""

    # -- the skirmish ------------------------------------------------------------------------------

    def _timestep(self, step_type: Any, reward: float, discount: float) -> Any:
        self._proto = self._build()
        observation = self._features.transform_obs(self._proto)
        return self._pysc2.environment.TimeStep(step_type=step_type, reward=reward, discount=discount,
                                                observation=observation)

    def _build(self) -> Any:
        pysc2 = self._pysc2
        dummy = pysc2.dummy_observation
        builder = dummy.Builder(self._inner.observation_spec()[0]).game_loop(self._loop)
        feature_units = []
        for unit in self._units:
            race, name = unit.kind.split(".")
            unit_type = getattr(getattr(pysc2.units, race), name)
            feature_units.append(dummy.FeatureUnit(
                unit_type, unit.alliance, owner=1 if unit.alliance == SELF else 2,
                pos=pysc2.common_pb.Point(x=unit.x, y=unit.y, z=0), radius=0.5, health=unit.health,
                health_max=unit.health_max, shield=unit.shield, shield_max=unit.shield_max,
                is_on_screen=self._on_screen(unit), is_selected=unit.tag in self._selected))
        builder.feature_units(feature_units)
        builder.score_by_category("killed_minerals", 0, self._killed[0], 0, 0, 0)
        builder.score_by_category("killed_vespene", 0, self._killed[1], 0, 0, 0)
        builder.score_by_category("lost_minerals", 0, self._lost[0], 0, 0, 0)
        builder.score_by_category("lost_vespene", 0, self._lost[1], 0, 0, 0)
        proto = builder.build()
        observation = proto.observation
        for raw_unit, unit in zip(observation.raw_data.units, self._units):
            raw_unit.tag = unit.tag
        observation.raw_data.player.camera.x = self._camera[0]
        observation.raw_data.player.camera.y = self._camera[1]
        if self._selected:
            functions = pysc2.actions.FUNCTIONS
            for name in _ABILITIES:
                function = functions[name]
                observation.abilities.add(ability_id=function.ability_id,
                                          requires_point=function.function_type.__name__ != "cmd_quick")
        return proto

    def _on_screen(self, unit: MockUnit) -> bool:
        half = 12.0
        return abs(unit.x - self._camera[0]) < half and abs(unit.y - self._camera[1]) < half

    def _screen_units(self) -> list[tuple[MockUnit, tuple[int, int]]]:
        observation = self._features.transform_obs(self._proto)
        rows = list(observation["feature_units"])
        shown = [u for u in self._units if self._on_screen(u)]
        column = self._pysc2.features.FeatureUnit
        return [(u, (int(r[column.x]), int(r[column.y]))) for u, r in zip(shown, rows)]

    def _under(self, x: float, y: float) -> MockUnit | None:
        near = [(abs(px - x) + abs(py - y), u.tag, u) for u, (px, py) in self._screen_units()]
        near = [entry for entry in near if entry[0] <= 3]
        return min(near)[2] if near else None

    def _play(self, action: Any) -> None:
        layer = action.action_feature_layer
        if layer.HasField("unit_selection_point"):
            point = layer.unit_selection_point
            unit = self._under(point.selection_screen_coord.x, point.selection_screen_coord.y)
            if point.type == 1:  # Select
                self._selected = set()
            if unit is not None and unit.alliance == SELF:
                self._selected ^= {unit.tag}
            return
        if layer.HasField("unit_command"):
            command = layer.unit_command
            for tag in self._selected:
                self._orders.pop(tag, None)
            if command.ability_id != self._pysc2.actions.FUNCTIONS.Attack_screen.ability_id:
                return
            target = self._under(command.target_screen_coord.x, command.target_screen_coord.y)
            if target is not None and target.alliance == ENEMY:
                self._orders.update({tag: target.tag for tag in self._selected})

    def _own_attack(self) -> None:
        for attacker in sorted((u for u in self._units if u.tag in self._orders), key=lambda u: u.tag):
            target = next((u for u in self._units if u.tag == self._orders[attacker.tag]), None)
            if target is None:
                del self._orders[attacker.tag]
                continue
            self._damage(target, UNIT_STATS.get(attacker.kind, OTHER_STATS)[2], killer=SELF)

    def _enemies_attack(self) -> None:
        for enemy in [u for u in self._units if u.alliance == ENEMY]:
            own = sorted((u for u in self._units if u.alliance == SELF), key=lambda u: u.tag)
            if own:
                self._damage(own[0], UNIT_STATS.get(enemy.kind, OTHER_STATS)[2], killer=ENEMY)

    def _damage(self, unit: MockUnit, amount: int, *, killer: int) -> None:
        shield = max(unit.shield - amount, 0)
        health = unit.health - max(amount - unit.shield, 0)
        index = self._units.index(unit)
        if health > 0:
            self._units[index] = replace(unit, shield=shield, health=health)
            return
        del self._units[index]
        self._selected.discard(unit.tag)
        self._orders.pop(unit.tag, None)
        minerals, vespene, _ = UNIT_STATS.get(unit.kind, OTHER_STATS)
        if killer == SELF:
            self._killed = [self._killed[0] + minerals, self._killed[1] + vespene]
        else:
            self._lost = [self._lost[0] + minerals, self._lost[1] + vespene]


def skirmish(own: tuple[tuple[str, int], ...], enemy: tuple[tuple[str, int], ...]) -> tuple[MockUnit, ...]:
    """Lines up a skirmish: own units left of the camera centre, enemies right, in columns of 8; tags ``0x1000N0001``.

    Args:
        own: ``(kind, count)`` per own unit type (``("Protoss.Stalker", 3)``).
        enemy: The same for the enemy.
    """
    units: list[MockUnit] = []
    number = 1
    for alliance, groups, x in ((SELF, own, 26.0), (ENEMY, enemy, 38.0)):
        row = 0
        for kind, count in groups:
            health = MAX_VITALS.get(kind, (100, 0))
            for _ in range(count):
                tag = 0x100000001 + (number << 16)
                column = -(row // 8) if alliance == SELF else row // 8
                units.append(MockUnit(tag, kind, alliance, x + 2 * column, 26.0 + 2 * (row % 8), health[0], health[0],
                                      health[1], health[1]))
                number += 1
                row += 1
    return tuple(units)
