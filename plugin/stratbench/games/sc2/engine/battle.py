"""Fixed-step combat simulation: units, orders, damage, one game loop at a time."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, UnitStats, stats_for

SHIELD_REGEN_DELAY_LOOPS = round(10 * LOOPS_PER_SECOND)
"""Loops without damage before shields regenerate (Liquipedia "Shields": 10 s)."""
SHIELD_REGEN_PER_LOOP = 2.0 / LOOPS_PER_SECOND
"""Shield points regained per loop once regenerating (2 per game second)."""
MIN_HIT_DAMAGE = 0.5
"""Armour never lowers a hit below 0.5 (Liquipedia "Armor")."""
BLINK_RANGE = 8.0
BLINK_COOLDOWN_LOOPS = round(7 * LOOPS_PER_SECOND)
"""Blink: teleport up to 8 distance, 7 s cooldown (Liquipedia "Stalker", LotV)."""

STOP, HOLD, MOVE, ATTACK_UNIT, ATTACK_MOVE = "stop", "hold", "move", "attack_unit", "attack_move"


@dataclass
class Order:
    """What a unit is doing: ``kind`` with a point or a target tag."""

    kind: str = STOP
    point: tuple[float, float] | None = None
    target: int | None = None


@dataclass
class Unit:
    """One unit on the field; ``owner`` is the player id (1 or 2)."""

    tag: int
    owner: int
    stats: UnitStats
    x: float
    y: float
    health: float = -1.0
    shield: float = -1.0
    weapon_ready_loop: int = 0
    blink_ready_loop: int = 0
    last_damaged_loop: int = -10**9
    order: Order = field(default_factory=Order)
    engaged_tag: int | None = None

    def __post_init__(self) -> None:
        if self.health < 0:
            self.health = self.stats.health
        if self.shield < 0:
            self.shield = self.stats.shield

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def name(self) -> str:
        return self.stats.name

    def distance_to(self, other: "Unit") -> float:
        """Edge-to-edge distance (centre distance minus both radii, never negative)."""
        centre = math.hypot(self.x - other.x, self.y - other.y)
        return max(0.0, centre - self.stats.radius - other.stats.radius)


def hit(target: Unit, amount: float, loop: int) -> float:
    """Apply one hit of ``amount`` to ``target``; return the health+shield removed.

    Shields take the hit first with no armour; what passes through the shield
    is reduced by armour (never below 0.5), as StarCraft II does.
    """
    if amount <= 0 or not target.alive:
        return 0.0
    before = target.health + target.shield
    absorbed = min(target.shield, amount)
    target.shield -= absorbed
    rest = amount - absorbed
    if rest > 0:
        target.health -= max(MIN_HIT_DAMAGE, rest - target.stats.armor) if absorbed == 0 else max(0.0, rest - target.stats.armor)
    target.health = max(0.0, target.health)
    target.last_damaged_loop = loop
    return before - (target.health + target.shield)


class Battle:
    """A battlefield of ``width`` x ``height`` stepped one game loop at a time."""

    def __init__(self, width: float = 32.0, height: float = 32.0) -> None:
        self.width = width
        self.height = height
        self.loop = 0
        self.units: dict[int, Unit] = {}
        self._next_tag = 1
        self.damage_dealt: dict[int, float] = {1: 0.0, 2: 0.0}
        self.kills: dict[int, int] = {1: 0, 2: 0}
        self._living_by_owner: dict[int, list[Unit]] = {}

    def add(self, name: str, owner: int, x: float, y: float) -> Unit:
        """Place a unit of type ``name`` at (x, y) with full health and shields."""
        unit = Unit(tag=self._next_tag, owner=owner, stats=stats_for(name), x=x, y=y)
        self.units[unit.tag] = unit
        self._next_tag += 1
        return unit

    def alive(self, owner: int | None = None) -> list[Unit]:
        """Living units (of ``owner`` if given), in tag order."""
        return [u for u in self.units.values() if u.alive and (owner is None or u.owner == owner)]

    def command(self, tag: int, order: Order) -> bool:
        """Give a living unit an order; False when the tag is dead or unknown."""
        unit = self.units.get(tag)
        if unit is None or not unit.alive:
            return False
        unit.order = order
        unit.engaged_tag = None
        return True

    def blink(self, tag: int, point: tuple[float, float]) -> bool:
        """Stalker Blink toward ``point`` (at most 8 away); False if not ready or not a Stalker."""
        unit = self.units.get(tag)
        if unit is None or not unit.alive or unit.name != "Protoss.Stalker" or self.loop < unit.blink_ready_loop:
            return False
        dx, dy = point[0] - unit.x, point[1] - unit.y
        length = math.hypot(dx, dy)
        scale = 1.0 if length <= BLINK_RANGE else BLINK_RANGE / length
        unit.x, unit.y = self._clamp(unit.x + dx * scale, unit.y + dy * scale)
        unit.blink_ready_loop = self.loop + BLINK_COOLDOWN_LOOPS
        return True

    def step(self, loops: int = 1) -> None:
        """Advance ``loops`` game loops."""
        for _ in range(loops):
            self._step_once()

    def winner(self) -> int | None:
        """1 or 2 when only that side has living units, 0 when neither, None while both fight."""
        sides = {u.owner for u in self.alive()}
        if len(sides) == 2:
            return None
        return sides.pop() if sides else 0

    # --- one loop ---------------------------------------------------------
    def _step_once(self) -> None:
        living = self.alive()
        self._living_by_owner = {owner: [u for u in living if u.owner == owner] for owner in (1, 2)}
        for unit in living:
            self._act(unit)
        for unit in self.units.values():
            if unit.alive and unit.shield < unit.stats.shield and self.loop - unit.last_damaged_loop >= SHIELD_REGEN_DELAY_LOOPS:
                unit.shield = min(unit.stats.shield, unit.shield + SHIELD_REGEN_PER_LOOP)
        self.loop += 1

    def _can_target(self, unit: Unit, other: Unit) -> bool:
        return other.alive and other.owner != unit.owner and "ground" in unit.stats.targets

    def _in_range(self, unit: Unit, other: Unit) -> bool:
        return unit.distance_to(other) <= unit.stats.range + 1e-9

    def _nearest_enemy(self, unit: Unit, within: float) -> Unit | None:
        best: Unit | None = None
        best_distance = within
        for other in self._living_by_owner.get(3 - unit.owner, ()):
            if self._can_target(unit, other):
                d = unit.distance_to(other)
                if d <= best_distance + 1e-9 and (best is None or d < best_distance):
                    best, best_distance = other, d
        return best

    def _act(self, unit: Unit) -> None:
        order = unit.order
        if order.kind == MOVE and order.point is not None:
            if self._move_toward(unit, order.point, 0.0):
                unit.order = Order()
            return
        target: Unit | None = None
        if order.kind == ATTACK_UNIT and order.target is not None:
            target = self.units.get(order.target)
            if target is None or not target.alive:
                unit.order = Order()
                return
        elif unit.stats.has_weapon:
            engaged = self.units.get(unit.engaged_tag) if unit.engaged_tag else None
            if engaged is not None and self._can_target(unit, engaged) and (order.kind != HOLD or self._in_range(unit, engaged)):
                target = engaged
            else:
                acquire = unit.stats.range if order.kind == HOLD else max(unit.stats.sight, unit.stats.range)
                target = self._nearest_enemy(unit, acquire)
                unit.engaged_tag = target.tag if target else None
        if target is None or not unit.stats.has_weapon:
            if order.kind == ATTACK_MOVE and order.point is not None and self._move_toward(unit, order.point, 0.0):
                unit.order = Order()
            return
        if self._in_range(unit, target):
            if self.loop >= unit.weapon_ready_loop:
                self._fire(unit, target)
        elif order.kind != HOLD and unit.stats.speed > 0:
            self._move_toward(unit, (target.x, target.y), unit.stats.radius + target.stats.radius + unit.stats.range)

    def _fire(self, unit: Unit, target: Unit) -> None:
        stats = unit.stats
        unit.weapon_ready_loop = self.loop + stats.cooldown_loops
        victims = [target]
        if stats.splash > 0:
            victims += [o for o in self._living_by_owner.get(target.owner, ()) if o.alive and o is not target
                        and math.hypot(o.x - target.x, o.y - target.y) <= stats.splash + o.stats.radius]
        for victim in victims:
            was_alive = victim.alive
            for _ in range(stats.attacks):
                self.damage_dealt[unit.owner] += hit(victim, stats.hit_damage(victim.stats), self.loop)
            if was_alive and not victim.alive:
                self.kills[unit.owner] += 1
        if stats.name == "Zerg.Baneling":
            unit.health = 0.0

    def _move_toward(self, unit: Unit, point: tuple[float, float], stop_at: float) -> bool:
        """Step toward ``point`` until within ``stop_at``; True once there."""
        dx, dy = point[0] - unit.x, point[1] - unit.y
        distance = math.hypot(dx, dy)
        if distance <= stop_at + 1e-9:
            return True
        step = min(unit.stats.speed / LOOPS_PER_SECOND, distance - stop_at)
        unit.x, unit.y = self._clamp(unit.x + dx / distance * step, unit.y + dy / distance * step)
        return distance - step <= stop_at + 1e-9

    def _clamp(self, x: float, y: float) -> tuple[float, float]:
        return min(max(x, 0.0), self.width), min(max(y, 0.0), self.height)
