"""Fixed-step combat simulation: units, orders, damage, collision, timed effects, one game loop at a time."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from stratbench.games.sc2.engine.abilities import ABILITIES, INSTANT, apply_effects, cast, cast_in_range, ready
from stratbench.games.sc2.engine.battle_types import ATTACK_MOVE, ATTACK_UNIT, CAST, HOLD, MOVE, STOP, Effect, Order
from stratbench.games.sc2.engine.interceptors import CARRIER, HANGAR, launch, update_interceptors
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, UnitStats, stats_for, with_overrides

NORMAL_SECOND_LOOPS = 16
"""Game loops per second of "normal" game speed (22.4 on "faster" = 16 x 1.4)."""
SHIELD_REGEN_DELAY_LOOPS = 10 * NORMAL_SECOND_LOOPS
"""Loops without damage before shields regenerate (Liquipedia "Plasma Shield": 10 normal s = 7.14 s on Faster)."""
SHIELD_REGEN_PER_LOOP = 2.0 / NORMAL_SECOND_LOOPS
"""Shield points regained per loop once regenerating (2 per normal second = 2.8 per second on Faster)."""
ENERGY_REGEN_PER_LOOP = 0.7875 / LOOPS_PER_SECOND
"""Energy regained per loop (Liquipedia "Energy": 0.7875 per second on Faster)."""
START_ENERGY = 50.0
"""Energy of a caster when it appears (Liquipedia "Energy"), unless the scenario sets it."""
MIN_HIT_DAMAGE = 0.5
"""Armour never lowers a hit below 0.5 (Liquipedia "Armor")."""
MELEE_RANGE = 1.0
"""Weapons of at most this range are melee (Guardian Shield does not reduce them)."""
WORKERS = frozenset({"Protoss.Probe", "Zerg.Drone", "Terran.SCV"})
NON_ARMY = WORKERS | {"Zerg.Overlord", "Zerg.OverlordTransport", "Zerg.Overseer"}
"""Units that are not army (StarCraft II counts army as supply-using non-workers; Overlords use none)."""

IN_RANGE_SLACK = 1.0
"""Enemies this much beyond weapon range at a loop's start are still checked for range (they may have stepped in)."""
ARRIVAL_DISTANCE = 0.5
"""A move ends within this distance of its point (collision may keep a unit from the exact point)."""

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
    energy: float = -1.0
    weapon_ready_loop: int = 0
    ready: dict[str, int] = field(default_factory=dict)
    last_damaged_loop: int = -10**9
    order: Order = field(default_factory=Order)
    queue: list[Order] = field(default_factory=list)
    engaged_tag: int | None = None
    passive: bool = False
    busy_until: int = 0
    lifted_until: int = 0
    channel_target: int | None = None
    rooted_until: int = 0
    expires: int = 0
    hangar: int = 0
    carrier: int | None = None
    phasing: bool = False
    cargo: list[str] = field(default_factory=list)
    ai: str = "attack"
    post: tuple[float, float] | None = None
    attack_loop: int = 0
    moved_loop: int = -1

    def __post_init__(self) -> None:
        if self.health < 0:
            self.health = self.stats.health
        if self.shield < 0:
            self.shield = self.stats.shield
        if self.energy < 0:
            self.energy = min(START_ENERGY, self.stats.energy)
        self._air_view = replace(self.stats, layer="air")

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def name(self) -> str:
        return self.stats.name

    @property
    def is_army(self) -> bool:
        return self.name not in NON_ARMY and not self.stats.is_structure

    def lifted(self, loop: int) -> bool:
        return loop < self.lifted_until

    def view(self, loop: int) -> UnitStats:
        """The stats other units see: a unit lifted by Graviton Beam counts as flying."""
        return self._air_view if loop < self.lifted_until else self.stats

    def distance_to(self, other: "Unit") -> float:
        """Edge-to-edge distance (centre distance minus both radii, never negative)."""
        centre = math.hypot(self.x - other.x, self.y - other.y)
        return max(0.0, centre - self.stats.radius - other.stats.radius)


def unit_tag(index: int) -> int:
    """The tag of the ``index``-th unit, shaped as the game's (index above bit 18, recycle count 1).

    Tags as large as the game's also keep pysc2 from reading them as positions
    in ``raw_units`` (it does so for any raw-action tag below their count).
    """
    return ((TAG_INDEX_BASE + index) << 18) | 1


TAG_INDEX_BASE = 0x4000


def hit(target: Unit, amount: float, loop: int, *, armor: bool = True) -> float:
    """Apply one hit of ``amount`` to ``target``; return the health+shield removed.

    Shields take the hit first with no armour; what passes through the shield
    is reduced by armour (never below 0.5), as StarCraft II does. Spell damage
    (``armor=False``) ignores armour.
    """
    if amount <= 0 or not target.alive:
        return 0.0
    before = target.health + target.shield
    absorbed = min(target.shield, amount)
    target.shield -= absorbed
    rest = amount - absorbed
    if rest > 0:
        if not armor:
            target.health -= rest
        elif absorbed == 0:
            target.health -= max(MIN_HIT_DAMAGE, rest - target.stats.armor)
        else:
            target.health -= max(0.0, rest - target.stats.armor)
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
        self._next_index = 0
        self.damage_dealt: dict[int, float] = {1: 0.0, 2: 0.0}
        self.kills: dict[int, int] = {1: 0, 2: 0}
        self.effects: list[Effect] = []
        self.pending: list[tuple[int, dict]] = []
        self._living_by_owner: dict[int, list[Unit]] = {}
        self._index: dict[int, int] = {}
        self._dist: np.ndarray = np.zeros((0, 0))
        self._living: list[Unit] = []
        self._static_key: tuple = ()
        self._hit_cache: dict[tuple[int, int], tuple[bool, float]] = {}
        self._static = None
        self._blinded: set[int] = set()
        self.resources: dict[int, dict[str, float]] = {1: {"minerals": 0.0, "vespene": 0.0},
                                                       2: {"minerals": 0.0, "vespene": 0.0}}

    def add(self, name: str, owner: int, x: float, y: float, *, overrides: dict | None = None, **fields) -> Unit:
        """Place a unit of type ``name`` at (x, y) with full health and shields (``overrides``: upgraded stats)."""
        stats = with_overrides(stats_for(name), overrides)
        unit = Unit(tag=unit_tag(self._next_index), owner=owner, stats=stats, x=x, y=y, **fields)
        if name in WORKERS:
            unit.passive = True
        if stats.life_loops and not unit.expires:
            unit.expires = self.loop + stats.life_loops
        if name == CARRIER:
            unit.hangar = HANGAR
        self.units[unit.tag] = unit
        self._next_index += 1
        return unit

    def schedule(self, loop: int, spec: dict) -> None:
        """Add a unit (``add``'s keyword arguments in ``spec``) when the battle reaches ``loop``."""
        self.pending.append((loop, spec))
        self.pending.sort(key=lambda item: item[0])

    def alive(self, owner: int | None = None) -> list[Unit]:
        """Living units (of ``owner`` if given), in tag order."""
        return [u for u in self.units.values() if u.alive and (owner is None or u.owner == owner)]

    def command(self, tag: int, order: Order, *, queued: bool = False) -> bool:
        """Give a living unit an order; False when the tag is dead or unknown.

        A ``queued`` order (the game's shift-queue) waits behind the unit's
        current and already queued orders; on an idle unit it starts at once.
        An order that is not queued replaces them all.
        """
        unit = self.units.get(tag)
        if unit is None or not unit.alive:
            return False
        if queued and (unit.order.kind != STOP or unit.queue):
            unit.queue.append(order)
            return True
        unit.order = order
        unit.queue = []
        unit.engaged_tag = None
        return True

    def finish_order(self, unit: Unit) -> None:
        """``unit``'s order is done: its next queued order starts, or it stops (idle)."""
        unit.order = unit.queue.pop(0) if unit.queue else Order()
        unit.engaged_tag = None

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
    def _static_arrays(self, living: list[Unit]):
        """Per-unit arrays that change only when the set of living units does."""
        radii = np.array([u.stats.radius for u in living], dtype=float)
        owner = np.array([u.owner for u in living], dtype=int)
        air = np.array([u.stats.flying for u in living], dtype=bool)
        both = np.array([u.stats.layer == "both" for u in living], dtype=bool)
        hits_air = np.array(["air" in u.stats.targets for u in living], dtype=bool)
        hits_ground = np.array(["ground" in u.stats.targets for u in living], dtype=bool)
        hits_any = hits_air | hits_ground
        enemies = owner[:, None] != owner[None, :]
        hittable = enemies & ((hits_air[:, None] & air[None, :]) | (hits_ground[:, None] & ~air[None, :])
                              | (hits_any[:, None] & both[None, :]))
        self._static_air = air
        self._fixed = np.array([u.stats.speed <= 0 for u in living], dtype=bool)
        return radii, (enemies, hittable), both, hits_any, hits_air, hits_ground

    def _step_once(self) -> None:
        update_interceptors(self)
        while self.pending and self.pending[0][0] <= self.loop:
            _, spec = self.pending.pop(0)
            spec = dict(spec)
            self.add(spec.pop("name"), spec.pop("owner"), spec.pop("x"), spec.pop("y"), **spec)
        for unit in self.alive():
            if unit.expires and self.loop >= unit.expires:  # a summoned unit's timed life ends (no one's kill)
                unit.health = unit.shield = 0.0
        living = self.alive()
        for unit in living:
            if unit.channel_target is not None and self.loop < unit.busy_until:
                other = self.units.get(unit.channel_target)
                if other is None or not other.alive:  # a channel ends with its target
                    unit.busy_until, unit.channel_target = self.loop, None
        self._living = living
        self._living_by_owner = {owner: [u for u in living if u.owner == owner] for owner in (1, 2)}
        self._index = {u.tag: i for i, u in enumerate(living)}
        xy = np.array([(u.x, u.y) for u in living], dtype=float).reshape(-1, 2)
        key = tuple(self._index)
        if key != self._static_key:
            self._static_key = key
            self._static = self._static_arrays(living)
        radii, hittable_static, both, hits_any, hits_air, hits_ground = self._static
        self._dx = xy[:, None, 0] - xy[None, :, 0]
        self._dy = xy[:, None, 1] - xy[None, :, 1]
        self._centre = np.hypot(self._dx, self._dy)
        self._radii = radii
        self._dist = np.maximum(0.0, self._centre - radii[:, None] - radii[None, :])
        if any(u.lifted_until > self.loop for u in living):
            air = np.array([u.view(self.loop).flying for u in living], dtype=bool)
            hittable = hittable_static[0] & ((hits_air[:, None] & air[None, :]) | (hits_ground[:, None] & ~air[None, :])
                                             | (hits_any[:, None] & both[None, :]))
        else:
            air, hittable = self._static_air, hittable_static[1]
        self._air = air
        self._blinded = blinded_units(self, living)
        self._masked = np.where(hittable, self._dist, np.inf)
        if len(living):
            self._nearest = np.argmin(self._masked, axis=1)
            self._nearest_d = self._masked[np.arange(len(living)), self._nearest]
        for unit in living:
            if self.loop >= unit.busy_until and not unit.lifted(self.loop):  # alive at the loop's start
                self._act(unit)
        apply_effects(self)
        self._separate()
        for unit in living:
            if not unit.alive:
                continue
            if unit.shield < unit.stats.shield and self.loop - unit.last_damaged_loop >= SHIELD_REGEN_DELAY_LOOPS:
                unit.shield = min(unit.stats.shield, unit.shield + SHIELD_REGEN_PER_LOOP)
            if unit.energy < unit.stats.energy:
                unit.energy = min(unit.stats.energy, unit.energy + ENERGY_REGEN_PER_LOOP)
        self.loop += 1

    def _can_target(self, unit: Unit, other: Unit) -> bool:
        if not other.alive or other.owner == unit.owner:
            return False
        view = other.view(self.loop)
        key = (id(unit.stats), id(view))
        known = self._hit_cache.get(key)
        if known is None:
            known = self._hit_cache[key] = (unit.stats.can_hit(view), unit.stats.weapon_range(view) + 1e-9)
        return known[0]

    def _in_range(self, unit: Unit, other: Unit) -> bool:
        view = other.view(self.loop)
        key = (id(unit.stats), id(view))
        known = self._hit_cache.get(key)
        if known is None:
            known = self._hit_cache[key] = (unit.stats.can_hit(view), unit.stats.weapon_range(view) + 1e-9)
        weapon = known[1]
        if unit.tag in self._blinded and weapon > MELEE_RANGE:
            weapon = BLINDED_RANGE
        reach = weapon + unit.stats.radius + other.stats.radius
        i, j = self._index.get(unit.tag), self._index.get(other.tag)
        if i is not None and j is not None:  # positions at the loop's start: units that moved this loop do not count
            dx, dy = self._dx[i, j], self._dy[i, j]
        else:
            dx, dy = unit.x - other.x, unit.y - other.y
        return dx * dx + dy * dy <= reach * reach

    def _nearest_enemy(self, unit: Unit, within: float) -> Unit | None:
        """The nearest enemy ``unit`` can hit within ``within`` (edge to edge, start-of-loop positions; ties by tag)."""
        i = self._index.get(unit.tag)
        if i is None or self._nearest_d[i] > within + 1e-9:
            return None
        other = self._living[int(self._nearest[i])]
        if other.alive:
            return other
        row = np.where(self._masked[i] <= within + 1e-9, self._masked[i], np.inf)
        while True:
            j = int(np.argmin(row))
            if not np.isfinite(row[j]):
                return None
            if self._living[j].alive:
                return self._living[j]
            row[j] = np.inf

    def _nearest_in_range(self, unit: Unit) -> Unit | None:
        """The nearest living enemy in ``unit``'s weapon range now (candidates from the loop's start, ties by tag)."""
        i = self._index.get(unit.tag)
        if i is None:
            return None
        reach = max(unit.stats.range, unit.stats.air_range or 0) + IN_RANGE_SLACK
        row = self._masked[i]
        for j in np.argsort(row, kind="stable"):
            if row[j] > reach:
                return None
            other = self._living[int(j)]
            if other.alive and self._in_range(unit, other):
                return other
        return None

    def _act(self, unit: Unit) -> None:
        order = unit.order
        if order.kind == CAST:
            self._cast_order(unit, order)
            return
        if order.kind == MOVE and order.point is not None:
            if self._move_toward(unit, order.point, ARRIVAL_DISTANCE):
                self.finish_order(unit)
                if unit.cargo:
                    self.unload(unit)
            return
        target: Unit | None = None
        if order.kind == ATTACK_UNIT and order.target is not None:
            target = self.units.get(order.target)
            if target is None or not target.alive:
                self.finish_order(unit)
                return
        elif unit.stats.has_weapon and not (unit.passive and order.kind in (STOP, HOLD)):
            target = self._auto_target(unit, rooted=order.kind == HOLD or unit.stats.speed <= 0)
        if target is not None and unit.stats.has_weapon and not self._can_target(unit, target):
            self.finish_order(unit)  # the game refuses an attack on a unit its weapons cannot hit
            return
        if target is None or not unit.stats.has_weapon:
            if order.kind in (ATTACK_MOVE, ATTACK_UNIT) and target is not None and not unit.stats.has_weapon:
                self._move_toward(unit, (target.x, target.y), unit.stats.radius + target.stats.radius)
            elif order.kind == ATTACK_MOVE and order.point is not None and self._move_toward(unit, order.point, ARRIVAL_DISTANCE):
                self.finish_order(unit)
            return
        if self._in_range(unit, target):
            if self.loop >= unit.weapon_ready_loop:
                self._fire(unit, target)
        elif order.kind != HOLD and unit.stats.speed > 0:
            reach = unit.stats.weapon_range(target.view(self.loop))
            self._move_toward(unit, (target.x, target.y), unit.stats.radius + target.stats.radius + reach)

    def _auto_target(self, unit: Unit, *, rooted: bool) -> Unit | None:
        """The target a unit picks for itself (idle, attack-move, hold), as the game's automatic targeting.

        The engaged target is kept while it is in weapon range; once it leaves
        weapon range, an enemy in weapon range is taken instead, and with none
        the unit chases it (a rooted or holding unit does not); with no target
        the nearest enemy within acquisition range (weapon range when rooted,
        else sight) is engaged (Liquipedia "Automatic Targeting": a target is
        kept until it dies or leaves weapon range).
        """
        engaged = self.units.get(unit.engaged_tag) if unit.engaged_tag else None
        valid = engaged is not None and self._can_target(unit, engaged)
        if valid and self._in_range(unit, engaged):
            return engaged
        near = self._nearest_in_range(unit)
        if near is not None:
            target = near
        elif valid and not rooted:
            target = engaged
        else:
            target = None if rooted else self._nearest_enemy(unit, max(unit.stats.sight, unit.stats.range))
        unit.engaged_tag = target.tag if target else None
        return target

    def _cast_order(self, unit: Unit, order: Order) -> None:
        data = ABILITIES[order.ability]
        other = self.units.get(order.target) if order.target is not None else None
        if not ready(self, unit, data.name) or (data.target == "unit" and (other is None or not other.alive)):
            self.finish_order(unit)
            return
        if data.name in INSTANT or cast_in_range(self, unit, data, order.point, order.target):
            cast(self, unit, data.name, order.point, order.target)
            if unit.alive:
                self.finish_order(unit)
        elif other is not None:
            self._move_toward(unit, (other.x, other.y), data.range + unit.stats.radius + other.stats.radius)
        else:
            self._move_toward(unit, order.point, data.range)

    def unload(self, transport: Unit) -> list[Unit]:
        """Put a transport's cargo on the ground around it; the cargo attack-moves from there."""
        dropped = []
        for index, name in enumerate(transport.cargo):
            angle = 2 * math.pi * index / max(1, len(transport.cargo))
            x, y = self._clamp(transport.x + 0.8 * math.cos(angle), transport.y + 0.8 * math.sin(angle))
            dropped.append(self.add(name, transport.owner, x, y, ai="attack"))
        transport.cargo = []
        transport.order = Order(HOLD)
        return dropped

    def _fire(self, unit: Unit, target: Unit) -> None:
        stats = unit.stats
        unit.weapon_ready_loop = self.loop + stats.cooldown_loops
        if stats.name == CARRIER:  # the launch bay: Interceptors do the damage
            launch(self, unit, target)
            return
        victims = [target]
        if stats.splash > 0:
            victims += [o for o in self._living_by_owner.get(target.owner, ()) if o.alive and o is not target
                        and o.view(self.loop).layer == target.view(self.loop).layer
                        and math.hypot(o.x - target.x, o.y - target.y) <= stats.splash + o.stats.radius]
        ranged = stats.weapon_range(target.view(self.loop)) > MELEE_RANGE
        for victim in victims:
            view = victim.view(self.loop)
            amount = stats.hit_damage(view)
            if ranged and self._shielded(victim):
                amount = max(MIN_HIT_DAMAGE, amount - GUARDIAN_SHIELD_REDUCTION)
            self.deal(unit.owner, victim, amount, hits=stats.hits_per_attack(view))
        if stats.name == "Zerg.Baneling":
            unit.health = 0.0
        if stats.name == "Zerg.BroodLord" and not target.view(self.loop).flying:
            x, y = self._clamp(target.x - 0.5 * math.copysign(1.0, target.x - unit.x), target.y)
            self.add("Zerg.Broodling", unit.owner, x, y, ai="attack")  # each attack hatches a Broodling at the target

    def deal(self, owner: int, victim: Unit, amount: float, *, hits: int = 1, armor: bool = True) -> None:
        """``hits`` hits of ``amount`` from player ``owner`` to ``victim``, counting damage and the kill."""
        was_alive = victim.alive
        for _ in range(hits):
            removed = hit(victim, amount, self.loop, armor=armor)
            if owner != victim.owner:
                self.damage_dealt[owner] += removed
        if was_alive and not victim.alive and owner != victim.owner:
            self.kills[owner] += 1

    def _shielded(self, unit: Unit) -> bool:
        for effect in self.effects:
            if effect.kind == "guardian_shield" and effect.owner == unit.owner:
                source = self.units.get(effect.source)
                if source is not None and source.alive and math.hypot(unit.x - source.x, unit.y - source.y) <= effect.radius:
                    return True
        return False

    def _move_toward(self, unit: Unit, point: tuple[float, float], stop_at: float) -> bool:
        """Step toward ``point`` until within ``stop_at``; True once there (a Force Field blocks ground units)."""
        dx, dy = point[0] - unit.x, point[1] - unit.y
        distance = math.hypot(dx, dy)
        if distance <= stop_at + 1e-9:
            return True
        if unit.stats.speed <= 0 or self.loop < unit.rooted_until or unit.phasing:
            return False
        step = min(unit.stats.speed / LOOPS_PER_SECOND, distance - stop_at)
        x, y = self._clamp(unit.x + dx / distance * step, unit.y + dy / distance * step)
        if not unit.stats.flying and self._blocked(unit, x, y):
            return False
        unit.x, unit.y = x, y
        unit.moved_loop = self.loop
        return distance - step <= stop_at + 1e-9

    def _blocked(self, unit: Unit, x: float, y: float) -> bool:
        """Whether a Force Field stops ``unit`` stepping to (x, y); a massive unit breaks the field instead."""
        for effect in self.effects:
            if effect.kind != "force_field":
                continue
            reach = effect.radius + unit.stats.radius
            if math.hypot(x - effect.x, y - effect.y) < reach and \
                    math.hypot(x - effect.x, y - effect.y) < math.hypot(unit.x - effect.x, unit.y - effect.y):
                if "Massive" in unit.stats.attributes:
                    effect.end = self.loop
                    continue
                return True
        return False

    def _separate(self) -> None:
        """Push overlapping ground units apart (flying and lifted units never collide; structures never move).

        Overlaps are found on the loop's starting positions and resolved half
        per loop: a unit that walked this loop takes the whole push from one
        that stood (attacking or holding, as the game keeps attackers in place),
        two walking or two standing units share it, a structure never moves and
        a Colossus (walked under) collides with nothing.
        """
        living = self._living
        if len(living) < 2:
            return
        ground = ~self._air & ~self._static[2]  # a Colossus is walked under: it collides with nothing
        overlap = self._radii[:, None] + self._radii[None, :] - self._centre
        overlap[~ground, :] = 0.0
        overlap[:, ~ground] = 0.0
        np.fill_diagonal(overlap, 0.0)
        rows, cols = np.nonzero(overlap > 1e-6)
        if not len(rows):
            return
        fixed = self._fixed
        centre = self._centre[rows, cols]
        close = centre > 1e-9
        safe = np.where(close, centre, 1.0)
        ux = np.where(close, self._dx[rows, cols] / safe, np.sign(rows - cols).astype(float))
        uy = np.where(close, self._dy[rows, cols] / safe, 0.0)
        moved = np.array([u.moved_loop == self.loop for u in living], dtype=bool)
        # a unit standing (attacking, holding) is not pushed by one walking into it; two standing or two walking share
        still = ~moved[rows] & moved[cols]
        share = np.where(fixed[cols] | (moved[rows] & ~moved[cols]), 1.0, 0.5) * np.where(fixed[rows] | still, 0.0, 1.0)
        push = overlap[rows, cols] * share * 0.5
        mx = np.zeros(len(living))
        my = np.zeros(len(living))
        np.add.at(mx, rows, push * ux)
        np.add.at(my, rows, push * uy)
        for i in np.nonzero((mx != 0) | (my != 0))[0]:
            unit = living[int(i)]
            unit.x, unit.y = self._clamp(unit.x + mx[i], unit.y + my[i])

    def _clamp(self, x: float, y: float) -> tuple[float, float]:
        return min(max(x, 0.0), self.width), min(max(y, 0.0), self.height)


def blinded_units(battle: Battle, living: list[Unit]) -> set[int]:
    """Tags of the ground units (not structures) standing in a Blinding Cloud this loop."""
    clouds = [e for e in battle.effects if e.kind == "blinding_cloud" and e.start <= battle.loop < e.end]
    if not clouds:
        return set()
    return {u.tag for u in living if not u.stats.flying and not u.stats.is_structure
            and any(math.hypot(u.x - c.x, u.y - c.y) <= c.radius + u.stats.radius for c in clouds)}


BLINDED_RANGE = 0.1
"""A ranged ground weapon's range inside a Blinding Cloud: melee (Liquipedia "Viper", LotV 5.0)."""
GUARDIAN_SHIELD_REDUCTION = 2.0
"""Guardian Shield lowers each ranged hit by 2 (Liquipedia "Sentry", LotV 5.0); the table is in :mod:`.abilities`."""
