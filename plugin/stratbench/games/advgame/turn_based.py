"""AdvGameBench Turn-based Attribute game (TAG): three elemental characters per side, three looping skills each.

Invaders are Fire, Water and Dark; Defenders are Wood, Earth and Light.
Each character starts with 100 HP and uses its three skills in a fixed,
looping order. Fights are duels, as in the released ``team_battle``: the
first Invader and the first Defender duel (the Invader acts first, then
they alternate); the survivor keeps its HP, statuses and place in its skill
loop and meets the next opponent; a side wins when the other has no
character left. Nothing is random: ``seed`` is accepted for a uniform
interface and unused.

Damage of a skill = base x element multiplier (Fire > Wood > Earth > Water >
Fire x1.2, reversed x0.8, Light <-> Dark x1.5) x the user's pending boosts
(Residual Warmth, Divine Sword) x the target's vulnerability (Ice Branded,
Night Ambush), then the target's percentage reductions, flat reduction,
Divine Link / Faith Emblem / Quicksand, shields; at least 1 (as released).
Reflected and counter damage, burning, poison and Void Assimilation are
true damage. Statuses tick (damage, healing) and count down at the start of
their holder's turn, so a status of n rounds lasts through n of the
opponent's turns or ticks n times.

Catalogue ``"released"`` (default, costs 1-5) is the released prompt's;
``"paper"`` is Appendix A.3's (costs 1-3, smaller numbers). Differences from
the released code (also in docs/ADVGAME.md): the released prompt says
skills may be chosen freely while its engine cycles them (cycled here, as
the paper says); the released duel loop never ticks statuses, so burning,
poison and healing over time did nothing there (they act here); the
released HP cap is 999999 (here heals stop at 100, so Forest
Reincarnation's excess-to-shield clause can act); each character must use
its own element's skills (the example JSON's reading); the element chart
is the stated one (the released ``type_effectiveness`` uses another cycle,
Fire > Wood > Water > Earth > Fire, contradicting its own prompt). A duel lasting 60
turns goes to the character with more HP (equal: the Defender); the
released loop has no such limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stratbench.games.advgame.common import Outcome, StrategyProblem, entries

SIDES = ("invader", "defender")
KEYS = {"invader": "invaders", "defender": "defenders"}
BUDGETS = {"invader": 20, "defender": 20}
"""The released budgets (the paper gives none)."""
INIT_TRIES = 3
"""Initial-strategy attempts while over budget, as released."""
ELEMENTS = {"invader": ("Fire", "Water", "Dark"), "defender": ("Wood", "Earth", "Light")}
START_HP = 100
DUEL_TURN_LIMIT = 60
_BEATS = {"Fire": "Wood", "Wood": "Earth", "Earth": "Water", "Water": "Fire"}
_DEBUFFS = ("burning", "poison", "seed", "vulnerable", "weakened")
_BUFFS = ("shield", "reduction", "flat", "quicksand", "faith", "link", "reflect", "regen", "totem", "boost")


@dataclass(frozen=True)
class Skill:
    """A skill: its element, cost and the numbers its effect uses."""

    element: str
    cost: int
    numbers: dict = field(default_factory=dict)


def _s(element, cost, **numbers):
    return Skill(element, cost, numbers)


_RELEASED = {
    "flame_splash": _s("Fire", 1, damage=12, layers=1, per_layer=5, rounds=2),
    "residual_warmth": _s("Fire", 1, boost=0.3),
    "burst_flame_bomb": _s("Fire", 2, damage=25, per_layer=4),
    "flame_whirlwind": _s("Fire", 3, layers=5, per_layer=5, rounds=3),
    "magma_eruption": _s("Fire", 4, damage=50, per_layer=8),
    "hell_curtain": _s("Fire", 5, damage=45, reflect=50, rounds=3),
    "stream_pierce": _s("Water", 1, damage=10, surge=1),
    "water_barrier": _s("Water", 1, shield=5, rounds=3, surge=1),
    "whirlpool_strangle": _s("Water", 2, damage=20, per_layer=6),
    "ice_branded": _s("Water", 3, damage=20, vulnerable=0.6),
    "tsunami_ending": _s("Water", 4, damage=40, per_layer=8),
    "abyss_resonance": _s("Water", 5, per_layer=5, shield_per_layer=10, rounds=4),
    "shadow_claw": _s("Dark", 1, damage=14, drain=0.3),
    "fear_whisper": _s("Dark", 1, reduction=0.1, rounds=3),
    "soul_siphon": _s("Dark", 2, damage=30, extra=25),
    "night_ambush": _s("Dark", 3, damage=25, vulnerable=0.25),
    "final_announcement": _s("Dark", 4, damage=55, per_tenth=8),
    "void_assimilation": _s("Dark", 5, sacrifice=0.25, factor=2.5),
    "bud_healing": _s("Wood", 1, heal=7, rounds=3),
    "parasitic_seed": _s("Wood", 1, damage=10, counter=5, rounds=3),
    "life_totem": _s("Wood", 2, heal=30, bonus=0.15, rounds=3),
    "natural_purification": _s("Wood", 3, damage=40),
    "forest_reincarnation": _s("Wood", 4, heal=80, excess=0.6, rounds=3, damage=30),
    "poison_vine": _s("Wood", 5, per_round=35, rounds=4),
    "rock_armor": _s("Earth", 1, shield=12, reflect=8, rounds=3),
    "earth_shock": _s("Earth", 1, damage=20),
    "granite_barrier": _s("Earth", 2, reduction=0.45, rounds=3),
    "quicksand_trap": _s("Earth", 3, hits=4, reduction=0.25, back=15, rounds=3),
    "earth_pulse": _s("Earth", 4, shield_per_tenth=10, damage_per_tenth=10),
    "core_rebound": _s("Earth", 5, factor=1.2),
    "holy_glimmer": _s("Light", 1, heal=9, damage=9),
    "faith_emblem": _s("Light", 1, reduction=0.2, back=10, rounds=1),
    "divine_link": _s("Light", 2, rounds=1),
    "luminous_dispel": _s("Light", 3, weaken=0.2, rounds=2),
    "angelic_sanctuary": _s("Light", 4, flat=40, rounds=3),
    "divine_sword": _s("Light", 5, damage=35, boost=0.3),
}
_PAPER = {
    "flame_splash": _s("Fire", 1, damage=12, layers=1, per_layer=5, rounds=2),
    "residual_warmth": _s("Fire", 1, boost=0.3),
    "burst_flame_bomb": _s("Fire", 2, damage=25, per_layer=3),
    "flame_whirlwind": _s("Fire", 2, layers=4, per_layer=5, rounds=2),
    "magma_eruption": _s("Fire", 3, damage=40, per_layer=5),
    "hell_curtain": _s("Fire", 3, damage=35, reflect=30, rounds=2),
    "stream_pierce": _s("Water", 1, damage=10, surge=1),
    "water_barrier": _s("Water", 1, shield=5, rounds=3, surge=1),
    "whirlpool_strangle": _s("Water", 2, damage=20, per_layer=4),
    "ice_branded": _s("Water", 2, damage=15, vulnerable=0.5),
    "tsunami_ending": _s("Water", 3, damage=30, per_layer=5),
    "abyss_resonance": _s("Water", 3, per_layer=3, shield_per_layer=6, rounds=3),
    "shadow_claw": _s("Dark", 1, damage=14, drain=0.3),
    "fear_whisper": _s("Dark", 1, reduction=0.1, rounds=3),
    "soul_siphon": _s("Dark", 2, damage=25, extra=15),
    "night_ambush": _s("Dark", 2, damage=20, vulnerable=0.2),
    "final_announcement": _s("Dark", 3, damage=45, per_tenth=5),
    "void_assimilation": _s("Dark", 3, sacrifice=0.2, factor=2.0),
    "bud_healing": _s("Wood", 1, heal=6, rounds=3),
    "parasitic_seed": _s("Wood", 1, damage=10, counter=5, rounds=3),
    "life_totem": _s("Wood", 2, heal=25, bonus=0.1, rounds=3),
    "natural_purification": _s("Wood", 2, damage=30),
    "forest_reincarnation": _s("Wood", 3, heal=60, excess=0.5, rounds=3, damage=20),
    "poison_vine": _s("Wood", 3, per_round=25, rounds=3),
    "rock_armor": _s("Earth", 1, shield=12, reflect=5, rounds=3),
    "earth_shock": _s("Earth", 1, damage=20),
    "granite_barrier": _s("Earth", 2, reduction=0.4, rounds=3),
    "quicksand_trap": _s("Earth", 2, hits=3, reduction=0.2, back=10, rounds=3),
    "earth_pulse": _s("Earth", 3, shield_per_tenth=8, damage_per_tenth=0),
    "core_rebound": _s("Earth", 3, factor=0.8),
    "holy_glimmer": _s("Light", 1, heal=8, damage=8),
    "faith_emblem": _s("Light", 1, reduction=0.2, back=10, rounds=1),
    "divine_link": _s("Light", 2, rounds=1),
    "luminous_dispel": _s("Light", 2, weaken=0.15, rounds=2),
    "angelic_sanctuary": _s("Light", 3, flat=30, rounds=3),
    "divine_sword": _s("Light", 3, damage=20, boost=0.2),
}
CATALOGUES = {"released": _RELEASED, "paper": _PAPER}
"""Catalogue name -> skill name -> Skill."""


def _skills(catalogue: str) -> dict[str, Skill]:
    if catalogue not in CATALOGUES:
        raise ValueError(f"unknown Turn-based catalogue {catalogue!r}; known: {', '.join(CATALOGUES)}")
    return CATALOGUES[catalogue]


def skill_key(name) -> str:
    """Normalises a skill name as the released calculator does (``"Flame Splash"`` -> ``flame_splash``)."""
    return "_".join("".join(c if c.isalnum() else " " for c in str(name)).split()).lower()


def multiplier(attacker: str, defender: str) -> float:
    """The element multiplier of an attack."""
    if _BEATS.get(attacker) == defender:
        return 1.2
    if _BEATS.get(defender) == attacker:
        return 0.8
    if {attacker, defender} == {"Light", "Dark"}:
        return 1.5
    return 1.0


def strategy_cost(strategy: dict, side: str, *, catalogue: str = "released") -> int:
    """Sums the costs of all listed skills; unknown skills cost 0 (as released)."""
    skills = _skills(catalogue)
    units = strategy.get(KEYS[side]) if isinstance(strategy, dict) else None
    if not isinstance(units, list):
        return 0
    total = 0
    for unit in units:
        listed = unit.get("skills", []) if isinstance(unit, dict) else []
        for name in listed if isinstance(listed, list) else []:
            skill = skills.get(skill_key(name))
            total += skill.cost if skill else 0
    return total


def _team(strategy: dict, side: str, catalogue: str, problems: list[StrategyProblem]) -> list[tuple[str, list[str]]]:
    skills = _skills(catalogue)
    key = KEYS[side]
    team, seen = [], set()
    for index, entry in entries(strategy, key, side, problems):
        where = f"{key}[{index}]"
        element = entry.get("element")
        if element not in ELEMENTS[side]:
            problems.append(StrategyProblem(side, f"{where}: element must be one of {', '.join(ELEMENTS[side])}"))
            continue
        if element in seen:
            problems.append(StrategyProblem(side, f"{where}: element {element} appears twice"))
            continue
        listed = entry.get("skills")
        if not isinstance(listed, list) or len(listed) != 3:
            problems.append(StrategyProblem(side, f"{where}: skills must be a list of 3 skill names"))
            continue
        names = [skill_key(name) for name in listed]
        wrong = [name for name in names if name not in skills or skills[name].element != element]
        if wrong:
            problems.append(StrategyProblem(side, f"{where}: not {element} skills: {', '.join(wrong)}"))
            continue
        seen.add(element)
        team.append((element, names))
    if len(team) != 3 and not any(p.message.startswith("missing key") for p in problems if p.side == side):
        problems.append(StrategyProblem(side, f"{key}: 3 valid characters needed, got {len(team)}"))
    return team


def validate(strategy: dict, side: str, *, catalogue: str = "released") -> list[StrategyProblem]:
    """Returns the strategy's rule problems (elements, skill counts, skills outside the element)."""
    if not isinstance(strategy, dict):
        return [StrategyProblem(side, "strategy must be a JSON object")]
    problems: list[StrategyProblem] = []
    _team(strategy, side, catalogue, problems)
    return problems


class _Status:
    __slots__ = ("kind", "rounds", "value", "layers", "extra")

    def __init__(self, kind: str, rounds: float, value: float = 0, layers: int = 1, extra: float = 0):
        self.kind, self.rounds, self.value, self.layers, self.extra = kind, rounds, value, layers, extra


class _Fighter:
    def __init__(self, side: str, element: str, skills: list[str], catalogue: dict[str, Skill]):
        self.side, self.element, self.skills, self.catalogue = side, element, skills, catalogue
        self.hp = float(START_HP)
        self.next_skill = 0
        self.statuses: list[_Status] = []
        self.surge = 0
        self.stored = 0.0

    @property
    def alive(self) -> bool:
        return self.hp > 0

    def layers(self, kind: str) -> int:
        return sum(s.layers for s in self.statuses if s.kind == kind)

    def first(self, kind: str) -> _Status | None:
        return next((s for s in self.statuses if s.kind == kind), None)

    def drop(self, kind: str) -> None:
        self.statuses = [s for s in self.statuses if s.kind != kind]

    def lose(self, amount: float) -> None:
        self.hp = max(0.0, self.hp - amount)

    def heal(self, amount: float) -> float:
        """Heals up to START_HP; returns the excess that did not fit."""
        amount *= 1 + sum(s.value for s in self.statuses if s.kind == "totem")
        room = max(0.0, START_HP - self.hp)
        self.hp += min(room, amount)
        return max(0.0, amount - room)


def _take_hit(user: _Fighter, target: _Fighter, base: float) -> float:
    """Deals a skill's damage from ``user`` to ``target``; returns the HP the target lost."""
    amount = base * multiplier(user.element, target.element)
    for boost in [s for s in user.statuses if s.kind == "boost"]:
        amount *= 1 + boost.value
    user.drop("boost")
    amount *= 1 - sum(s.value for s in user.statuses if s.kind == "weakened")
    for mark in [s for s in target.statuses if s.kind == "vulnerable"]:
        amount *= 1 + mark.value
    target.drop("vulnerable")
    for guard in (s for s in target.statuses if s.kind == "reduction"):
        amount *= 1 - guard.value
    amount -= sum(s.value for s in target.statuses if s.kind == "flat")
    amount = max(1, int(amount))
    link = target.first("link")
    if link is not None:
        target.drop("link")
        user.lose(amount)
        return 0.0
    faith = target.first("faith")
    if faith is not None:
        target.drop("faith")
        saved = int(amount * faith.value)
        amount -= saved
        target.heal(saved)
        user.lose(faith.extra)
    sand = target.first("quicksand")
    if sand is not None:
        amount = int(amount * (1 - sand.value))
        user.lose(sand.extra)
        sand.layers -= 1
        if sand.layers <= 0:
            target.statuses.remove(sand)
    for shield in [s for s in target.statuses if s.kind == "shield"]:
        absorbed = min(shield.value, amount)
        shield.value -= absorbed
        amount -= absorbed
        if shield.extra and absorbed:
            user.lose(shield.extra)
        if shield.value <= 0:
            target.statuses.remove(shield)
    reflect = sum(s.value for s in target.statuses if s.kind == "reflect")
    if reflect and amount:
        user.lose(min(reflect, amount))
    lost = min(target.hp, amount)
    target.lose(amount)
    target.stored += lost
    user.lose(sum(s.value for s in user.statuses if s.kind == "seed"))
    return lost


def _use(name: str, user: _Fighter, target: _Fighter) -> None:
    n = user.catalogue[name].numbers
    rounds = n.get("rounds", 0)
    if name == "flame_splash":
        _take_hit(user, target, n["damage"])
        target.statuses.append(_Status("burning", rounds, n["per_layer"], n["layers"]))
    elif name in ("residual_warmth",):
        user.statuses.append(_Status("boost", 99, n["boost"]))
    elif name == "burst_flame_bomb":
        _take_hit(user, target, n["damage"] + n["per_layer"] * target.layers("burning"))
    elif name == "flame_whirlwind":
        target.statuses.append(_Status("burning", rounds, n["per_layer"], n["layers"]))
    elif name == "magma_eruption":
        _take_hit(user, target, n["damage"] + n["per_layer"] * target.layers("burning"))
        target.drop("burning")
    elif name == "hell_curtain":
        _take_hit(user, target, n["damage"])
        user.statuses.append(_Status("reflect", rounds, n["reflect"]))
    elif name == "stream_pierce":
        _take_hit(user, target, n["damage"])
        user.surge += n["surge"]
    elif name == "water_barrier":
        user.statuses.append(_Status("shield", rounds, n["shield"]))
        user.surge += n["surge"]
    elif name == "whirlpool_strangle":
        _take_hit(user, target, n["damage"] + n["per_layer"] * user.surge)
    elif name in ("ice_branded", "night_ambush"):
        _take_hit(user, target, n["damage"])
        target.statuses.append(_Status("vulnerable", 1, n["vulnerable"]))
    elif name == "tsunami_ending":
        _take_hit(user, target, n["damage"] + n["per_layer"] * user.surge)
        user.surge = 0
    elif name == "abyss_resonance":
        if user.surge:
            _take_hit(user, target, n["per_layer"] * user.surge)
            user.statuses.append(_Status("shield", rounds, n["shield_per_layer"] * user.surge))
    elif name == "shadow_claw":
        user.heal(int(_take_hit(user, target, n["damage"]) * n["drain"]))
    elif name in ("fear_whisper", "granite_barrier"):
        user.statuses.append(_Status("reduction", rounds, n["reduction"]))
    elif name == "soul_siphon":
        _take_hit(user, target, n["damage"] + (n["extra"] if target.hp < START_HP / 2 else 0))
    elif name == "final_announcement":
        tenths = max(0, int((START_HP - target.hp) // 10))
        _take_hit(user, target, n["damage"] + n["per_tenth"] * tenths)
    elif name == "void_assimilation":
        sacrificed = int(user.hp * n["sacrifice"])
        user.lose(sacrificed)
        target.lose(int(sacrificed * n["factor"]))
        target.stored += int(sacrificed * n["factor"])
    elif name == "bud_healing":
        user.statuses.append(_Status("regen", rounds, n["heal"]))
    elif name == "parasitic_seed":
        _take_hit(user, target, n["damage"])
        target.statuses.append(_Status("seed", rounds, n["counter"]))
    elif name == "life_totem":
        user.heal(n["heal"])
        user.statuses.append(_Status("totem", rounds, n["bonus"]))
    elif name == "natural_purification":
        user.statuses = [s for s in user.statuses if s.kind not in _DEBUFFS]
        _take_hit(user, target, n["damage"])
    elif name == "forest_reincarnation":
        excess = user.heal(n["heal"])
        if excess:
            user.statuses.append(_Status("shield", rounds, int(excess * n["excess"])))
        _take_hit(user, target, n["damage"])
    elif name == "poison_vine":
        target.statuses.append(_Status("poison", rounds, n["per_round"]))
    elif name == "rock_armor":
        user.statuses.append(_Status("shield", rounds, n["shield"], extra=n["reflect"]))
    elif name == "earth_shock":
        _take_hit(user, target, n["damage"])
    elif name == "quicksand_trap":
        user.statuses.append(_Status("quicksand", rounds, n["reduction"], n["hits"], n["back"]))
    elif name == "earth_pulse":
        tenths = max(0, int((START_HP - user.hp) // 10))
        if tenths:
            user.statuses.append(_Status("shield", float("inf"), n["shield_per_tenth"] * tenths))
            if n["damage_per_tenth"]:
                _take_hit(user, target, n["damage_per_tenth"] * tenths)
    elif name == "core_rebound":
        stored, user.stored = user.stored, 0.0
        if stored:
            _take_hit(user, target, int(stored * n["factor"]))
    elif name == "holy_glimmer":
        debuff = next((s for s in user.statuses if s.kind in _DEBUFFS), None)
        if debuff is not None:
            user.statuses.remove(debuff)
        user.heal(n["heal"])
        _take_hit(user, target, n["damage"])
    elif name == "faith_emblem":
        user.statuses.append(_Status("faith", rounds, n["reduction"], extra=n["back"]))
    elif name == "divine_link":
        user.statuses.append(_Status("link", rounds))
    elif name == "luminous_dispel":
        buff = next((s for s in target.statuses if s.kind in _BUFFS), None)
        if buff is not None:
            target.statuses.remove(buff)
        target.statuses.append(_Status("weakened", rounds, n["weaken"]))
    elif name == "angelic_sanctuary":
        user.statuses.append(_Status("flat", rounds, n["flat"]))
    elif name == "divine_sword":
        _take_hit(user, target, n["damage"])
        user.statuses.append(_Status("boost", 99, n["boost"]))


def _start_turn(fighter: _Fighter) -> None:
    for status in list(fighter.statuses):
        if status.kind in ("burning", "poison"):
            fighter.lose(status.value * status.layers)
        elif status.kind == "regen":
            fighter.heal(status.value)
    for status in list(fighter.statuses):
        status.rounds -= 1
        if status.rounds <= 0:
            fighter.statuses.remove(status)


def _duel(invader: _Fighter, defender: _Fighter) -> tuple[_Fighter, int]:
    order = (invader, defender)
    for turn in range(DUEL_TURN_LIMIT):
        actor, other = order[turn % 2], order[1 - turn % 2]
        _start_turn(actor)
        if actor.alive:
            name = actor.skills[actor.next_skill]
            actor.next_skill = (actor.next_skill + 1) % len(actor.skills)
            _use(name, actor, other)
        if not invader.alive or not defender.alive:
            if not defender.alive and invader.alive:
                return invader, turn + 1
            if not invader.alive and defender.alive:
                return defender, turn + 1
            return (invader if actor is invader else defender), turn + 1  # both fell: the actor's blow ended it
    return (invader if invader.hp > defender.hp else defender), DUEL_TURN_LIMIT


def simulate(strategies: dict[str, dict], *, seed: int = 0, catalogue: str = "released") -> Outcome:
    """Plays one team battle between ``strategies["invader"]`` and ``strategies["defender"]``."""
    del seed  # nothing is random
    skills = _skills(catalogue)
    problems: list[StrategyProblem] = []
    queues = {
        side: [_Fighter(side, element, names, skills)
               for element, names in _team(strategies.get(side) or {}, side, catalogue, problems)]
        for side in SIDES
    }
    turns = 0
    while queues["invader"] and queues["defender"]:
        invader, defender = queues["invader"][0], queues["defender"][0]
        winner, taken = _duel(invader, defender)
        turns += taken
        loser = defender if winner is invader else invader
        loser.hp = 0.0
        queues[loser.side].pop(0)
        if not invader.alive and invader in queues["invader"]:
            queues["invader"].remove(invader)
        if not defender.alive and defender in queues["defender"]:
            queues["defender"].remove(defender)
    counts = {side: len(queues[side]) for side in SIDES}
    if not queues["invader"] and not queues["defender"]:
        return Outcome(None, 0, 0, turns, "no character left on either side: draw", counts, tuple(problems))
    winner = "invader" if queues["invader"] else "defender"
    survivors = queues[winner]
    cost = sum(skills[name].cost for fighter in survivors for name in fighter.skills)
    reason = f"{'defender' if winner == 'invader' else 'invader'} characters all eliminated"
    return Outcome(winner, len(survivors), cost, turns, reason, counts, tuple(problems),
                   tuple((fighter.element, fighter.hp) for fighter in survivors))
