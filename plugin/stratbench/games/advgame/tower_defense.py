"""AdvGameBench Tower Defense (TDG): the defender "Human" places soldiers, the attacker "Demon" sends demons.

A fixed-time-step simulation (50 ms of game time per tick; the released
pygame version runs on the wall clock, digest B7.8). The board is 5 rows
(y 0-4) by 11 columns (x 0-10); demons enter at x = 11 and walk left; the
Human wins when every demon is dead and none is still to spawn (or when the
300 s limit passes), the Demon wins as soon as one reaches x = 0.
Nothing is random: ``seed`` is accepted for a uniform interface and unused.

Geometry and speeds follow the released code scaled to game time: a unit is
one cell wide; speed 2 walks 0.75 cells/s (11 cells in about 14.7 s, the
catalogue's "14 s from spawn to last grid"); bullets fly 3.75 cells/s from
the shooter's right edge along its row and hit the first demon they meet;
a demon stops at the first soldier it touches and strikes every
1000 ms; every unit's first shot or strike comes one interval after it
appears; explosives detonate 500 ms after placement.

Catalogue ``"released"`` (default) is the released prompt's; ``"paper"`` is
Appendix A.1's. Differences (also in docs/ADVGAME.md):

- Costs: AntiAirSoldier 100 (paper 175), GreatDemon 200 (175), ShieldDemon
  200 (175), MachineDemon 300 (250), SummoningDemon 400 (300); DemonKing HP
  80 (paper 100; the released class even sets 40).
- Paper only: Bomb (3x3 blast of 30 after 500 ms), LightMage (bullets in its
  row become light), RocketLauncherSoldier (2 damage to demons within one
  cell of the hit), ShadowDemon (other demons in its row ignore non-light
  hits under 20). Under the released catalogue they are unknown names: cost
  0 and skipped, with a problem. Other units behave alike under both
  catalogues (the flamethrower's 2-damage bolt stands for the paper's
  1 + 1 burn per second).
- Released behaviour kept: FlamethrowerSoldier shoots 2-damage fire bolts
  (no separate burn); an IceSoldier hit deals 1 and halves speed for 2 s
  (FrostDemon immune; a FireDemon takes 2 more); MachineDemon becomes speed 3
  when first hit.
- Released defects not kept: MagneticSoldier's pulse is never triggered there
  (here it fires every 2000 ms and strips the shields of ShieldDemon and
  MachineDemon in its row); SummoningDemon summons one row up there (here
  one cell to its left, same row); the released code spawns Bomb with cost 0.
- Unspecified, chosen here: MachineDemon's "reduced damage" halves incoming
  damage until a magnetic pulse; a bouncing jump is 2 cells, once.
"""

from __future__ import annotations

from dataclasses import dataclass

from stratbench.games.advgame.common import Outcome, StrategyProblem, entries

SIDES = ("human", "demon")
"""Defender first, attacker second."""
KEYS = {"human": "humans", "demon": "demons"}
"""The JSON key of each side's unit list."""
BUDGETS = {"human": 2000, "demon": 1500}
"""The released budgets (the paper gives none)."""
INIT_TRIES = 5
"""Initial-strategy attempts while over budget, as released."""
ROWS, COLUMNS = 5, 11
TICK_MS = 50
TIME_LIMIT_MS = 300_000
CELLS_PER_SECOND_PER_SPEED = 0.375
BULLET_CELLS_PER_SECOND = 3.75
DEMON_ATTACK_MS = 1000
SLOW_MS = 2000
FUSE_MS = 500
SUMMON_MS = 5000
PULSE_MS = 2000


@dataclass(frozen=True)
class HumanKind:
    """A soldier type: hit points, cost, and how it attacks."""

    hp: int
    cost: int
    interval_ms: int | None = None
    shot: str | None = None
    """Projectile kind: normal, fire, ice, air, rocket; None for no shooting."""
    damage: int = 1
    special: str | None = None
    """``shield``, ``enhanced_shield``, ``magnetic``, ``row_blast``, ``area_blast``, ``light``."""


@dataclass(frozen=True)
class DemonKind:
    """A demon type."""

    hp: int
    cost: int
    damage: int = 1
    speed: float = 2
    special: str | None = None


_RELEASED_HUMANS = {
    "HandgunSoldier": HumanKind(3, 100, 1000, "normal"),
    "RifleSoldier": HumanKind(3, 200, 500, "normal"),
    "MachineGunSoldier": HumanKind(3, 400, 250, "normal"),
    "ShieldSoldier": HumanKind(15, 50, special="shield"),
    "EnhancedShieldSoldier": HumanKind(30, 100, special="enhanced_shield"),
    "FlamethrowerSoldier": HumanKind(2, 200, 1000, "fire", damage=2),
    "IceSoldier": HumanKind(2, 200, 1000, "ice"),
    "AntiAirSoldier": HumanKind(2, 100, 1000, "air"),
    "LinearExplosion": HumanKind(50, 200, special="row_blast", damage=30),
    "MagneticSoldier": HumanKind(2, 100, special="magnetic", damage=0),
}
_RELEASED_DEMONS = {
    "NormalDemon": DemonKind(10, 100),
    "GreatDemon": DemonKind(20, 200),
    "DemonKing": DemonKind(80, 800, damage=5),
    "SpeedyDemon": DemonKind(10, 150, speed=4),
    "ShieldDemon": DemonKind(10, 200, special="shield"),
    "MachineDemon": DemonKind(20, 300, damage=3, special="machine"),
    "BouncingDemon": DemonKind(10, 150, special="bouncing"),
    "ShieldBreakerDemon": DemonKind(10, 150, special="shield_breaker"),
    "FireDemon": DemonKind(10, 150, special="fire_immune"),
    "FrostDemon": DemonKind(10, 150, special="ice_immune"),
    "FlyingDemon": DemonKind(10, 200, special="flying"),
    "SummoningDemon": DemonKind(10, 400, speed=1, special="summoning"),
}
CATALOGUES = {
    "released": (_RELEASED_HUMANS, _RELEASED_DEMONS),
    "paper": (
        {
            **_RELEASED_HUMANS,
            "AntiAirSoldier": HumanKind(2, 175, 1000, "air"),
            "Bomb": HumanKind(50, 200, special="area_blast", damage=30),
            "LightMage": HumanKind(2, 150, special="light", damage=0),
            "RocketLauncherSoldier": HumanKind(2, 600, 1000, "rocket", damage=2),
        },
        {
            **_RELEASED_DEMONS,
            "GreatDemon": DemonKind(20, 175),
            "DemonKing": DemonKind(100, 800, damage=5),
            "ShieldDemon": DemonKind(10, 175, special="shield"),
            "MachineDemon": DemonKind(20, 250, damage=3, special="machine"),
            "SummoningDemon": DemonKind(10, 300, speed=1, special="summoning"),
            "ShadowDemon": DemonKind(10, 300, special="shadow"),
        },
    ),
}
"""Catalogue name -> (soldier kinds, demon kinds)."""


def _catalogue(name: str):
    if name not in CATALOGUES:
        raise ValueError(f"unknown Tower Defense catalogue {name!r}; known: {', '.join(CATALOGUES)}")
    return CATALOGUES[name]


def _kinds(side: str, catalogue: str) -> dict:
    humans, demons = _catalogue(catalogue)
    return humans if side == "human" else demons


def strategy_cost(strategy: dict, side: str, *, catalogue: str = "released") -> int:
    """Sums the catalogue cost of each entry; unknown names cost 0 (as the released calculator)."""
    kinds = _kinds(side, catalogue)
    units = strategy.get(KEYS[side]) if isinstance(strategy, dict) else None
    if not isinstance(units, list):
        return 0
    return sum(kinds[u["name"]].cost for u in units if isinstance(u, dict) and u.get("name") in kinds)


def _int_field(entry: dict, field: str, low: int, high: int | None, default: int | None):
    value = entry.get(field, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return None
    value = int(value)
    if value < low or (high is not None and value > high):
        return None
    return value


def _placements(strategy: dict, side: str, catalogue: str, problems: list[StrategyProblem]) -> list[dict]:
    kinds = _kinds(side, catalogue)
    key = KEYS[side]
    kept, occupied = [], set()
    for index, entry in entries(strategy, key, side, problems):
        where = f"{key}[{index}]"
        name = entry.get("name")
        if name not in kinds:
            problems.append(StrategyProblem(side, f"{where}: unknown unit {name!r}"))
            continue
        y = _int_field(entry, "y", 0, ROWS - 1, None)
        spawn = _int_field(entry, "spawn_time", 0, None, 0)
        if y is None:
            problems.append(StrategyProblem(side, f"{where}: y must be an integer 0-{ROWS - 1}"))
            continue
        if spawn is None:
            problems.append(StrategyProblem(side, f"{where}: spawn_time must be a non-negative integer (ms)"))
            continue
        unit = {"name": name, "kind": kinds[name], "y": y, "spawn": spawn, "order": index}
        if side == "human":
            x = _int_field(entry, "x", 0, COLUMNS - 1, None)
            if x is None:
                problems.append(StrategyProblem(side, f"{where}: x must be an integer 0-{COLUMNS - 1}"))
                continue
            if (x, y) in occupied:
                problems.append(StrategyProblem(side, f"{where}: cell ({x}, {y}) is already occupied"))
                continue
            occupied.add((x, y))
            unit["x"] = x
        kept.append(unit)
    kept.sort(key=lambda unit: (unit["spawn"], unit["order"]))
    return kept


def validate(strategy: dict, side: str, *, catalogue: str = "released") -> list[StrategyProblem]:
    """Returns the strategy's rule problems (unknown names, bad coordinates, occupied cells, bad spawn times)."""
    problems: list[StrategyProblem] = []
    if not isinstance(strategy, dict):
        return [StrategyProblem(side, "strategy must be a JSON object")]
    _placements(strategy, side, catalogue, problems)
    return problems


class _Soldier:
    def __init__(self, name: str, kind: HumanKind, x: int, y: int, now: int):
        self.name, self.kind, self.x, self.y = name, kind, x, y
        self.hp = float(kind.hp)
        self.last_action = now
        self.fuse_at = now + FUSE_MS


class _Demon:
    def __init__(self, name: str, kind: DemonKind, y: int, now: int, position: float = COLUMNS, bought: bool = True):
        self.name, self.kind, self.y = name, kind, y
        self.hp = float(kind.hp)
        self.position = float(position)
        self.speed = kind.speed
        self.damage = kind.damage
        self.last_attack = now
        self.last_summon = now
        self.slowed_until = -1
        self.shielded = kind.special in ("shield", "machine")
        self.activated = False
        self.jumped = False
        self.bought = bought

    def take(self, damage: float, shot: str, light_rows: set[int], shadow_rows: set[int]) -> None:
        special = self.kind.special
        if shot == "fire" and special == "fire_immune":
            return
        if shot == "ice" and special == "ice_immune":
            return
        if self.y in light_rows and shot in ("normal", "fire", "ice", "rocket"):
            shot = "light"
        if self.y in shadow_rows and special != "shadow" and shot != "light" and damage < 20:
            return
        if self.shielded and special == "shield" and shot == "normal":
            damage *= 0.3
        if self.shielded and special == "machine":
            damage *= 0.5
        if special == "machine" and not self.activated:
            self.activated, self.speed = True, 3
        self.hp -= damage


def simulate(strategies: dict[str, dict], *, seed: int = 0, catalogue: str = "released") -> Outcome:
    """Plays one battle between ``strategies["human"]`` and ``strategies["demon"]``.

    Entries with problems are skipped and listed in the outcome's ``problems``.
    """
    del seed  # nothing is random
    humans_kinds, _ = _catalogue(catalogue)
    problems: list[StrategyProblem] = []
    pending_humans = _placements(strategies.get("human") or {}, "human", catalogue, problems)
    pending_demons = _placements(strategies.get("demon") or {}, "demon", catalogue, problems)
    soldiers: list[_Soldier] = []
    demons: list[_Demon] = []
    bullets: dict[int, list[list]] = {row: [] for row in range(ROWS)}  # row -> [[origin, tick fired, shot, damage]]
    step_cells = BULLET_CELLS_PER_SECOND * TICK_MS / 1000
    now, steps = 0, 0
    while True:
        while pending_humans and pending_humans[0]["spawn"] <= now:
            unit = pending_humans.pop(0)
            soldiers.append(_Soldier(unit["name"], unit["kind"], unit["x"], unit["y"], now))
        while pending_demons and pending_demons[0]["spawn"] <= now:
            unit = pending_demons.pop(0)
            demons.append(_Demon(unit["name"], unit["kind"], unit["y"], now))
        light_rows = {s.y for s in soldiers if s.kind.special == "light"}
        shadow_rows = {d.y for d in demons if d.kind.special == "shadow"}
        _soldiers_act(soldiers, demons, bullets, now, steps, light_rows, shadow_rows)
        _move_bullets(bullets, demons, step_cells, now, steps, light_rows, shadow_rows)
        for demon in list(demons):
            if demon.kind.special == "summoning" and now - demon.last_summon >= SUMMON_MS:
                demon.last_summon = now
                demons.append(
                    _Demon("NormalDemon", _RELEASED_DEMONS["NormalDemon"], demon.y, now,
                           max(demon.position - 1, 0.0), bought=False)
                )
        demons = [d for d in demons if d.hp > 0]
        _demons_act(demons, soldiers, now)
        soldiers = [s for s in soldiers if s.hp > 0]
        demons = [d for d in demons if d.hp > 0]
        steps += 1
        breach = [d for d in demons if d.position <= 0]
        if breach:
            return _finish("demon", demons, humans_kinds, steps, f"Demon reached the left edge in row {breach[0].y}",
                           soldiers, problems, catalogue)
        if not demons and not pending_demons:
            return _finish("human", soldiers, humans_kinds, steps, "all demons eliminated", demons, problems, catalogue)
        if now >= TIME_LIMIT_MS:
            return _finish("human", soldiers, humans_kinds, steps, "time limit: the line held", demons, problems,
                           catalogue)
        now += TICK_MS


def _soldiers_act(soldiers, demons, bullets, now, tick, light_rows, shadow_rows) -> None:
    for soldier in soldiers:
        kind = soldier.kind
        if kind.special in ("row_blast", "area_blast"):
            if now >= soldier.fuse_at:
                for demon in demons:
                    in_row = demon.y == soldier.y
                    if kind.special == "area_blast":
                        hit = abs(demon.y - soldier.y) <= 1 and soldier.x - 2 < demon.position < soldier.x + 2
                    else:
                        hit = in_row
                    if hit:
                        demon.take(kind.damage, "explode", light_rows, shadow_rows)
                soldier.hp = 0
            continue
        if kind.special == "magnetic":
            if now - soldier.last_action >= PULSE_MS:
                soldier.last_action = now
                for demon in demons:
                    if demon.y == soldier.y and demon.kind.special in ("shield", "machine"):
                        demon.shielded = False
            continue
        if kind.interval_ms and now - soldier.last_action >= kind.interval_ms:
            soldier.last_action = now
            bullets[soldier.y].append([float(soldier.x + 1), tick, kind.shot, kind.damage])


def _move_bullets(bullets, demons, step_cells, now, tick, light_rows, shadow_rows) -> None:
    """Moves every bullet one step; a bullet at ``origin + step * (ticks since fired)`` covers one step's
    segment and hits the first demon of its kind it overlaps. Rows without demons are only pruned."""
    by_row: dict[int, list[_Demon]] = {}
    for demon in demons:
        by_row.setdefault(demon.y, []).append(demon)
    for row, flying in bullets.items():
        targets_in_row = by_row.get(row)
        if not targets_in_row:
            if tick % 40 == 0:
                flying[:] = [b for b in flying if b[0] + step_cells * (tick - b[1] + 1) <= COLUMNS + 1]
            continue
        kept = []
        for bullet in flying:
            origin, fired, shot, damage = bullet
            start = origin + step_cells * (tick - fired)
            end = start + step_cells
            targets = [
                d for d in targets_in_row
                if d.hp > 0 and d.position < end and d.position + 1 > start
                and (d.kind.special == "flying") == (shot == "air")
            ]
            if targets:
                target = min(targets, key=lambda d: d.position)
                _hit(target, shot, damage, demons, now, light_rows, shadow_rows)
            elif end <= COLUMNS + 1:
                kept.append(bullet)
        flying[:] = kept


def _hit(target: _Demon, shot: str, damage: int, demons, now: int, light_rows, shadow_rows) -> None:
    if shot == "ice":
        if target.kind.special == "ice_immune":
            return
        extra = 2 if target.kind.special == "fire_immune" else 0
        target.hp -= extra
        target.take(damage, "ice", light_rows, shadow_rows)
        target.slowed_until = now + SLOW_MS
        return
    if shot == "rocket":
        for demon in demons:
            if demon.y == target.y and abs(demon.position - target.position) <= 1 and demon.kind.special != "flying":
                demon.take(damage, "rocket", light_rows, shadow_rows)
        return
    target.take(damage, shot, light_rows, shadow_rows)


def _demons_act(demons, soldiers, now) -> None:
    by_row: dict[int, list[_Soldier]] = {}
    for soldier in soldiers:
        by_row.setdefault(soldier.y, []).append(soldier)
    for demon in demons:
        special = demon.kind.special
        if special != "flying":
            touching = [s for s in by_row.get(demon.y, ()) if s.hp > 0 and demon.position < s.x + 1
                        and demon.position + 1 > s.x]
            if touching and special == "bouncing" and not demon.jumped and all(
                s.kind.special != "enhanced_shield" for s in touching
            ):
                demon.jumped = True
                demon.position -= 2
                continue
            if touching:
                if now - demon.last_attack >= DEMON_ATTACK_MS:
                    demon.last_attack = now
                    for soldier in touching:
                        blow = demon.damage
                        if special == "shield_breaker" and soldier.kind.special in ("shield", "enhanced_shield"):
                            blow *= 5
                        soldier.hp -= blow
                continue
        speed = demon.speed * (0.5 if now < demon.slowed_until and special != "ice_immune" else 1)
        demon.position -= speed * CELLS_PER_SECOND_PER_SPEED * TICK_MS / 1000


def _finish(winner, survivors, humans_kinds, steps, reason, losers, problems, catalogue) -> Outcome:
    if winner == "human":
        cost = sum(humans_kinds[s.name].cost for s in survivors)
        by_side = {"human": len(survivors), "demon": len(losers)}
    else:
        _, demon_kinds = _catalogue(catalogue)
        cost = sum(demon_kinds[d.name].cost for d in survivors if d.bought)
        by_side = {"human": len(losers), "demon": len(survivors)}
    alive = tuple((unit.name, unit.hp) for unit in survivors)
    return Outcome(winner, len(survivors), cost, steps, reason, by_side, tuple(problems), alive)
