"""AdvGameBench Battle Card game (BCG, the "auto-battler"): Invader vs Defender minion lines.

Each side buys at most 7 minions (Gold tier: 3x cost, 2x attack, health and
numeric effects); the battle then runs without input. Rules as the released
prompt states them, played here by a turn-free discrete loop (the released
pygame loop always targets and attacks with the first minion, ignores
``target_priority`` and elements; digest B3.2):

- Start-of-battle effects fire left to right, Invader line first.
- Initiative: the side with more minions attacks first; equal counts give
  the Invader the initiative.
- Sides alternate single attacks. Each side's attacker pointer walks its
  line left to right and wraps around.
- Target: the leftmost Taunt minion if any; else the first minion named in
  the side's ``target_priority_for_<side>s`` list (in list order); else the
  leftmost enemy.
- An attack deals the attacker's Attack to the target and the target's
  Attack back to the attacker (Hearthstone style, as the released
  ``attack_target``). An elementally advantaged attacker (Fire > Nature >
  Water > Earth > Fire) deals +1 damage (x2 for Gold); the paper leaves the
  size unspecified.
- Minions at 0 health die after the attack; deathrattles fire in line
  order, Invader line first. The battle ends when a line is empty; both
  empty at once: the Invader wins (rule 5). 400 attacks without an end is
  a draw (the released loop has no limit).

Catalogue ``"released"`` (default) is the released prompt's; ``"paper"``
uses Appendix A.2's stats and costs (TideLord 4/9 cost 5, Phoenix and
ShadowOverlord cost 5, ForestSeer 2/2 giving +1/+2, BlackRock 5/1,
VineProtector 5/4, King 3/10 cost 5 summoning a 2/2 Soldier, MountainGiant
and AncientTreant cost 5, AncientTreant 4/4 giving +3/+3).
Nothing is random: ``seed`` is accepted for a uniform interface and unused.
"""

from __future__ import annotations

from dataclasses import dataclass

from stratbench.games.advgame.common import Outcome, StrategyProblem, entries

SIDES = ("invader", "defender")
KEYS = {"invader": "invaders", "defender": "defenders"}
PRIORITY_KEYS = {"invader": "target_priority_for_invaders", "defender": "target_priority_for_defenders"}
BUDGETS = {"invader": 20, "defender": 20}
"""The released budgets (the paper gives none)."""
INIT_TRIES = 3
"""Initial-strategy attempts while over budget, as released."""
MAX_MINIONS = 7
MAX_ATTACKS = 400
BEATS = {"Fire": "Nature", "Nature": "Water", "Water": "Earth", "Earth": "Fire"}


@dataclass(frozen=True)
class MinionKind:
    """A minion card: base stats, cost, element and its ability's numbers."""

    attack: int
    health: int
    cost: int
    element: str
    taunt: bool = False
    divine_shield: bool = False
    effect: int = 0
    """The ability's number (damage, buff, ...) at Bronze; doubled at Gold."""
    effect2: int = 0


_RELEASED = {
    "invader": {
        "FireLizard": MinionKind(2, 2, 1, "Fire", effect=2),
        "WaterElemental": MinionKind(2, 2, 1, "Water", effect=1),
        "PoisonFrog": MinionKind(1, 1, 2, "Water"),
        "MoltenHound": MinionKind(3, 1, 2, "Fire", effect=1),
        "BattleFrenzy": MinionKind(7, 4, 2, "Guardian", effect=4),
        "BanditLeader": MinionKind(8, 3, 3, "Rogue"),
        "LavaGolem": MinionKind(1, 8, 3, "Fire", taunt=True, effect=3),
        "TideGuardian": MinionKind(4, 2, 3, "Water", divine_shield=True),
        "TideLord": MinionKind(4, 10, 4, "Water"),
        "Phoenix": MinionKind(5, 5, 4, "Fire"),
        "ShadowOverlord": MinionKind(4, 4, 4, "Rogue", effect=3, effect2=1),
    },
    "defender": {
        "Sapling": MinionKind(2, 2, 1, "Nature", effect=1),
        "RockBeetle": MinionKind(1, 5, 1, "Earth", taunt=True),
        "ForestSeer": MinionKind(1, 2, 2, "Nature", effect=1, effect2=1),
        "StoneWarrior": MinionKind(2, 5, 2, "Earth", taunt=True),
        "EliteSoldier": MinionKind(1, 1, 2, "Guardian", effect=1),
        "Paladin": MinionKind(3, 6, 3, "Guardian", divine_shield=True, effect=2),
        "BlackRock": MinionKind(2, 1, 3, "Earth", effect=3),
        "VineProtector": MinionKind(3, 4, 3, "Nature", effect=2),
        "King": MinionKind(3, 12, 4, "Guardian", effect=1, effect2=1),
        "MountainGiant": MinionKind(4, 9, 4, "Earth", taunt=True, effect=2),
        "AncientTreant": MinionKind(2, 3, 4, "Nature", effect=2, effect2=2),
    },
}
_PAPER = {
    "invader": {
        **_RELEASED["invader"],
        "TideLord": MinionKind(4, 9, 5, "Water"),
        "Phoenix": MinionKind(5, 5, 5, "Fire"),
        "ShadowOverlord": MinionKind(4, 4, 5, "Rogue", effect=3, effect2=1),
    },
    "defender": {
        **_RELEASED["defender"],
        "ForestSeer": MinionKind(2, 2, 2, "Nature", effect=1, effect2=2),
        "BlackRock": MinionKind(5, 1, 3, "Earth", effect=3),
        "VineProtector": MinionKind(5, 4, 3, "Nature", effect=2),
        "King": MinionKind(3, 10, 5, "Guardian", effect=2, effect2=2),
        "MountainGiant": MinionKind(4, 9, 5, "Earth", taunt=True, effect=2),
        "AncientTreant": MinionKind(4, 4, 5, "Nature", effect=3, effect2=3),
    },
}
CATALOGUES = {"released": _RELEASED, "paper": _PAPER}
"""Catalogue name -> side -> minion name -> kind."""
_TOKENS = {"Skeleton": "Rogue", "Soldier": "Guardian", "RockBeetle": "Earth"}


def _kinds(side: str, catalogue: str) -> dict[str, MinionKind]:
    if catalogue not in CATALOGUES:
        raise ValueError(f"unknown Battle Card catalogue {catalogue!r}; known: {', '.join(CATALOGUES)}")
    return CATALOGUES[catalogue][side]


def _lookup(kinds: dict[str, MinionKind], name) -> str | None:
    if not isinstance(name, str):
        return None
    lowered = {known.lower(): known for known in kinds}
    return lowered.get(name.lower())


def _is_gold(entry: dict) -> bool:
    return str(entry.get("tier", "")).lower() == "gold"


def strategy_cost(strategy: dict, side: str, *, catalogue: str = "released") -> int:
    """Sums base cost x3 for Gold; names match case-insensitively; unknown names cost 0 (as released)."""
    kinds = _kinds(side, catalogue)
    units = strategy.get(KEYS[side]) if isinstance(strategy, dict) else None
    if not isinstance(units, list):
        return 0
    total = 0
    for entry in units:
        if isinstance(entry, dict) and (name := _lookup(kinds, entry.get("name"))):
            total += kinds[name].cost * (3 if _is_gold(entry) else 1)
    return total


def _line(strategy: dict, side: str, catalogue: str, problems: list[StrategyProblem]) -> list[tuple[str, bool]]:
    kinds = _kinds(side, catalogue)
    key = KEYS[side]
    line = []
    for index, entry in entries(strategy, key, side, problems):
        name = _lookup(kinds, entry.get("name"))
        if name is None:
            problems.append(StrategyProblem(side, f"{key}[{index}]: unknown minion {entry.get('name')!r}"))
            continue
        tier = str(entry.get("tier", "Bronze"))
        if tier.lower() not in ("gold", "bronze"):
            problems.append(StrategyProblem(side, f"{key}[{index}]: tier must be Bronze or Gold, got {tier!r}"))
            continue
        if len(line) == MAX_MINIONS:
            problems.append(StrategyProblem(side, f"{key}[{index}]: more than {MAX_MINIONS} minions"))
            continue
        line.append((name, tier.lower() == "gold"))
    priority = strategy.get(PRIORITY_KEYS[side], [])
    if not isinstance(priority, list) or not all(isinstance(p, str) for p in priority):
        problems.append(StrategyProblem(side, f'"{PRIORITY_KEYS[side]}" must be a list of minion names'))
    return line


def validate(strategy: dict, side: str, *, catalogue: str = "released") -> list[StrategyProblem]:
    """Returns the strategy's rule problems (unknown minions, bad tiers, more than 7, bad priority list)."""
    if not isinstance(strategy, dict):
        return [StrategyProblem(side, "strategy must be a JSON object")]
    problems: list[StrategyProblem] = []
    _line(strategy, side, catalogue, problems)
    return problems


class _Minion:
    def __init__(self, name: str, kind: MinionKind, gold: bool, bought: bool = True):
        scale = 2 if gold else 1
        self.name, self.kind, self.gold, self.scale, self.bought = name, kind, gold, scale, bought
        self.attack = kind.attack * scale
        self.health = kind.health * scale
        self.max_health = self.health
        self.shield = kind.divine_shield
        self.burn = 0
        self.revived = False
        self.dead = False


class _Battle:
    def __init__(self, lines: dict[str, list[_Minion]], priorities: dict[str, list[str]], catalogue: str):
        self.lines, self.priorities, self.catalogue = lines, priorities, catalogue
        self.pointer = {side: 0 for side in SIDES}
        self.killers: dict[int, _Minion] = {}

    def other(self, side: str) -> str:
        return "defender" if side == "invader" else "invader"

    def start(self) -> None:
        for side in SIDES:
            line = self.lines[side]
            for index, minion in enumerate(list(line)):
                e1, e2 = minion.kind.effect * minion.scale, minion.kind.effect2 * minion.scale
                allies = [m for m in line if m is not minion]
                if minion.name == "ForestSeer":
                    for ally in allies:
                        if ally.kind.element == "Nature":
                            ally.attack += e1
                            ally.health += e2
                            ally.max_health += e2
                elif minion.name == "AncientTreant":
                    for ally in allies:
                        ally.attack += e1
                        ally.health += e2
                        ally.max_health += e2
                elif minion.name == "EliteSoldier":
                    for ally in (line[i] for i in (index - 1, index + 1) if 0 <= i < len(line)):
                        ally.shield = True
                        ally.attack += e1
                elif minion.name == "BlackRock":
                    minion.health += e1 * len(allies)
                    minion.max_health = minion.health

    def target(self, side: str) -> _Minion:
        enemies = self.lines[self.other(side)]
        taunts = [m for m in enemies if m.kind.taunt]
        if taunts:
            return taunts[0]
        for wanted in self.priorities[side]:
            for minion in enemies:
                if isinstance(wanted, str) and minion.name.lower() == wanted.lower():
                    return minion
        return enemies[0]

    def damage(self, victim: _Minion, amount: int, source: _Minion | None, victim_side: str) -> int:
        """Deals damage; returns the excess beyond the victim's health."""
        if amount <= 0 or victim.dead:
            return 0
        if victim.shield:
            victim.shield = False
            for ally in self.lines[victim_side]:
                if ally.name == "Paladin" and ally is not victim:
                    ally.attack += ally.kind.effect * ally.scale
            return 0
        if source is not None and source.name == "PoisonFrog":
            amount = max(amount, victim.health)
        excess = max(0, amount - victim.health)
        victim.health -= amount
        if victim.health > 0:
            if victim.name == "TideLord":
                victim.attack *= 2
            if victim.name == "MountainGiant" and source is not None:
                source.attack = max(0, source.attack - victim.kind.effect * victim.scale)
            if victim.name == "LavaGolem" and source is not None:
                source.burn = max(source.burn, victim.kind.effect * victim.scale)
        return excess

    def bonus(self, attacker: _Minion, target: _Minion) -> int:
        return attacker.scale if BEATS.get(attacker.kind.element) == target.kind.element else 0

    def attack(self, side: str, attacker: _Minion) -> None:
        enemy_side = self.other(side)
        if attacker.burn:
            self.killers = {}
            self.damage(attacker, attacker.burn, None, side)
            if attacker.health <= 0:
                self.resolve_deaths()
                return
        if attacker.name == "WaterElemental":
            attacker.attack += attacker.kind.effect * attacker.scale
        if attacker.name == "Sapling":
            attacker.health += attacker.kind.effect * attacker.scale
        if attacker.name == "King" and len(self.lines[side]) < MAX_MINIONS:
            size = attacker.kind.effect * attacker.scale
            soldier = _Minion("Soldier", MinionKind(size, size, 0, "Guardian", divine_shield=True), False, bought=False)
            self.lines[side].insert(self.lines[side].index(attacker) + 1, soldier)
        strikes = 2 if attacker.name == "TideGuardian" else 1
        for _ in range(strikes):
            if attacker.health <= 0 or not self.lines[enemy_side]:
                break
            target = self.target(side)
            power = attacker.attack + self.bonus(attacker, target)
            if attacker.name == "Phoenix":
                enemies = self.lines[enemy_side]
                where = enemies.index(target)
                for neighbour in enemies[max(0, where - 1): where + 2]:
                    if neighbour is not target:
                        self.damage(neighbour, power, attacker, enemy_side)
            excess = self.damage(target, power, attacker, enemy_side)
            self.damage(attacker, target.attack, target, side)
            if attacker.name == "BanditLeader" and excess > 0:
                rest = [m for m in self.lines[enemy_side] if m.health > 0 and m is not target]
                if rest:
                    self.damage(rest[0], excess, attacker, enemy_side)
            if attacker.name == "BattleFrenzy":
                attacker.attack = max(0, attacker.attack - attacker.kind.effect * attacker.scale)
            self.killers = {id(target): attacker, id(attacker): target}
            self.resolve_deaths()

    def resolve_deaths(self) -> None:
        for _ in range(20):  # deathrattles can kill; bounded cascade
            dying = [(side, m) for side in SIDES for m in self.lines[side] if m.health <= 0 and not m.dead]
            if not dying:
                return
            for side, minion in dying:
                if minion.name == "Phoenix" and not minion.revived:
                    minion.revived = True
                    minion.health = minion.max_health
                    continue
                minion.dead = True
                where = self.lines[side].index(minion)
                self.lines[side].remove(minion)
                self.pointer[side] -= 1 if where < self.pointer[side] else 0
                self.deathrattle(side, minion, where)

    def deathrattle(self, side: str, minion: _Minion, where: int) -> None:
        enemy_side = self.other(side)
        power = minion.kind.effect * minion.scale
        if minion.name == "FireLizard":
            killer = self.killers.get(id(minion))
            if killer is not None and not killer.dead:
                self.damage(killer, power, minion, enemy_side)
        elif minion.name == "MoltenHound":
            for enemy in list(self.lines[enemy_side]):
                self.damage(enemy, power, minion, enemy_side)
        elif minion.name == "VineProtector":
            for ally in self.lines[side]:
                ally.health = min(ally.max_health, ally.health + power) if ally.health > 0 else ally.health
        elif minion.name in ("ShadowOverlord", "StoneWarrior") and len(self.lines[side]) < MAX_MINIONS:
            if minion.name == "ShadowOverlord":
                skeleton = MinionKind(minion.kind.effect, minion.kind.effect2, 0, "Rogue")
                token = _Minion("Skeleton", skeleton, minion.gold, bought=False)
            else:
                beetle = _kinds("defender", self.catalogue)["RockBeetle"]
                token = _Minion("RockBeetle", beetle, minion.gold, bought=False)
            self.lines[side].insert(where, token)
            self.pointer[side] += 1 if where < self.pointer[side] else 0

    def next_attacker(self, side: str) -> _Minion:
        line = self.lines[side]
        if self.pointer[side] >= len(line):
            self.pointer[side] = 0
        attacker = line[self.pointer[side]]
        self.pointer[side] += 1
        return attacker


def simulate(strategies: dict[str, dict], *, seed: int = 0, catalogue: str = "released") -> Outcome:
    """Plays one battle between ``strategies["invader"]`` and ``strategies["defender"]``."""
    del seed  # nothing is random
    problems: list[StrategyProblem] = []
    lines, priorities = {}, {}
    for side in SIDES:
        strategy = strategies.get(side) or {}
        kinds = _kinds(side, catalogue)
        lines[side] = [_Minion(name, kinds[name], gold) for name, gold in _line(strategy, side, catalogue, problems)]
        wanted = strategy.get(PRIORITY_KEYS[side], []) if isinstance(strategy, dict) else []
        priorities[side] = [w for w in wanted if isinstance(w, str)] if isinstance(wanted, list) else []
    battle = _Battle(lines, priorities, catalogue)
    battle.start()
    side = "invader" if len(lines["invader"]) >= len(lines["defender"]) else "defender"
    attacks = 0
    while lines["invader"] and lines["defender"] and attacks < MAX_ATTACKS:
        battle.attack(side, battle.next_attacker(side))
        attacks += 1
        side = battle.other(side)
    counts = {s: len(lines[s]) for s in SIDES}
    if not lines["defender"]:
        winner = "invader"
        reason = "both lines wiped out: the Invader wins" if not lines["invader"] else "defender line wiped out"
    elif not lines["invader"]:
        winner, reason = "defender", "invader line wiped out"
    else:
        return Outcome(None, 0, 0, attacks, f"no result after {MAX_ATTACKS} attacks: draw", counts, tuple(problems))
    kinds = _kinds(winner, catalogue)
    cost = sum(kinds[m.name].cost * (3 if m.gold else 1) for m in lines[winner] if m.bought)
    survivors = tuple((m.name, float(m.health)) for m in lines[winner])
    return Outcome(winner, len(lines[winner]), cost, attacks, reason, counts, tuple(problems), survivors)

