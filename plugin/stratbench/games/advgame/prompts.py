"""Prompts for model-written AdvGameBench strategies, built from the simulators' own catalogues.

The structure follows the released code's init and revision prompts (side,
budget, rules, own catalogue, an example, the answer format; for a revision
also the last result, the own cost against the budget, the opponent's units
and both strategies). The wording is stratbench's and describes the rules
stratbench's simulators play; catalogue lines are generated from the tables
in each simulator module, so prompt and simulation cannot disagree.
"""

from __future__ import annotations

import json

from stratbench.games.advgame import battle_card, simulator, tower_defense, turn_based

_RULES = {
    "tower_defense": (
        "The battlefield has 5 rows (y 0-4) and 11 columns (x 0-10). The human side places soldiers on cells "
        "(one per cell); they do not move and attack on their own timers: shooters fire along their row to the "
        "right. Demons enter at x = 11 in their row at their spawn_time (ms) and walk left; a demon stops at the "
        "first soldier it touches and strikes it every 1000 ms. A speed-2 demon needs about 14.7 s to cross. "
        "The human wins when every demon is dead; the demon side wins as soon as one demon reaches x = 0."
    ),
    "battle_card": (
        "Buy at most 7 minions at once; a Gold minion (\"tier\": \"Gold\", default Bronze) costs 3x and has 2x "
        "attack, health and numeric effects. The side with more minions attacks first (a tie: the invader). The "
        "sides alternate single attacks, each walking its line left to right. A minion attacks the leftmost "
        "enemy with Taunt, else the first enemy named in its side's target priority list, else the leftmost "
        "enemy; attacker and target damage each other. Fire beats Nature beats Water beats Earth beats Fire "
        "(+1 damage). A side with no minions left loses; if both lines die at once, the invader wins."
    ),
    "turn_based": (
        "Each side has three characters, one per element of its side (invaders: Fire, Water, Dark; defenders: "
        "Wood, Earth, Light), each starting with 100 HP and three skills of its own element, used in the listed "
        "order, looping. The first invader and the first defender duel, the invader acting first, then turns "
        "alternate; the survivor keeps its HP and meets the next opponent. Fire beats Wood beats Earth beats "
        "Water beats Fire (x1.2, x0.8 the other way); Light and Dark deal x1.5 to each other. A side with no "
        "character left loses."
    ),
}

_TD_SPECIAL = {
    "shield": "defence only", "enhanced_shield": "defence only; bouncing demons cannot jump it",
    "magnetic": "pulse every 2000 ms strips the defences of ShieldDemon and MachineDemon in its row",
    "row_blast": "explodes 500 ms after placement for 30 damage to every demon in its row",
    "area_blast": "explodes 500 ms after placement for 30 damage to demons in the 3x3 cells around it",
    "light": "turns the bullets of its row into light damage",
    "shield_breaker": "x5 damage against shield soldiers", "fire_immune": "immune to fire",
    "ice_immune": "immune to ice and slowing", "flying": "flies over soldiers; only anti-air fire hits it",
    "bouncing": "jumps 2 cells over the first soldier it meets (not an EnhancedShieldSoldier)",
    "machine": "mechanical body halves damage; speed 3 once hit",
    "summoning": "summons a NormalDemon one cell ahead every 5000 ms",
    "shadow": "other demons in its row ignore non-light hits under 20",
}
_TD_SHOT = {"normal": "", "fire": ", fire", "ice": ", ice: halves speed for 2 s", "air": ", hits flying demons only",
            "rocket": ", also hits demons within one cell"}
_BC_ABILITY = {
    "FireLizard": "on death deals {e} damage to its killer", "WaterElemental": "+{e} attack each time it attacks",
    "PoisonFrog": "destroys any minion it damages", "MoltenHound": "on death deals {e} damage to every enemy",
    "BattleFrenzy": "loses {e} attack after each attack", "BanditLeader": "excess damage carries to the next enemy",
    "LavaGolem": "Taunt; burns a minion that hits it for {e} per attack", "TideGuardian": "Divine Shield; attacks twice",
    "TideLord": "doubles its attack when damaged", "Phoenix": "also hits the target's neighbours; revives once",
    "ShadowOverlord": "on death summons a {e}/{e2} Skeleton", "Sapling": "+{e} health each time it attacks",
    "RockBeetle": "Taunt", "ForestSeer": "at the start gives Nature allies +{e}/+{e2}",
    "StoneWarrior": "Taunt; on death summons a RockBeetle",
    "EliteSoldier": "at the start gives its neighbours Divine Shield and +{e} attack",
    "Paladin": "Divine Shield; +{e} attack whenever an ally loses its Divine Shield",
    "BlackRock": "at the start +{e} health per ally", "VineProtector": "on death heals allies {e}",
    "King": "summons a {e}/{e2} Divine Shield Soldier when it attacks, if there is room",
    "MountainGiant": "Taunt; a minion that hits it loses {e} attack", "AncientTreant": "at the start gives allies +{e}/+{e2}",
}


def _td_line(name: str, kind) -> str:
    if isinstance(kind, tower_defense.HumanKind):
        attack = (f"fires every {kind.interval_ms} ms for {kind.damage}{_TD_SHOT[kind.shot]}"
                  if kind.interval_ms else _TD_SPECIAL.get(kind.special, ""))
        return f"{name}: HP {kind.hp}, cost {kind.cost}, {attack}"
    extra = f", {_TD_SPECIAL[kind.special]}" if kind.special in _TD_SPECIAL else ""
    return f"{name}: HP {kind.hp}, cost {kind.cost}, speed {kind.speed:g}, {kind.damage} damage per strike{extra}"


def catalogue_text(game: str, side: str, *, catalogue: str = "released", names=None) -> str:
    """Returns one line per unit (or skill) the side may buy; ``names`` restricts it to those."""
    lines = []
    if game == "tower_defense":
        humans, demons = tower_defense.CATALOGUES[catalogue]
        kinds = humans if side == "human" else demons
        lines = [_td_line(n, k) for n, k in kinds.items()]
        keep = [n for n in kinds]
    elif game == "battle_card":
        kinds = battle_card.CATALOGUES[catalogue][side]
        keep = list(kinds)
        for name, k in kinds.items():
            ability = _BC_ABILITY[name].format(e=k.effect, e2=k.effect2)
            lines.append(f"{name} ({k.element}): attack {k.attack}, health {k.health}, cost {k.cost}; {ability}")
    else:
        skills = turn_based.CATALOGUES[catalogue]
        keep = [n for n, s in skills.items() if s.element in turn_based.ELEMENTS[side]]
        for name in keep:
            skill = skills[name]
            numbers = ", ".join(f"{key} {value:g}" for key, value in skill.numbers.items())
            lines.append(f"{name} ({skill.element}, cost {skill.cost}): {numbers}")
    if names is not None:
        wanted = {str(n).lower() for n in names}
        lines = [line for line, name in zip(lines, keep) if name.lower() in wanted]
    return "\n".join(lines)


def _example(game: str, side: str) -> dict:
    if game == "tower_defense":
        return ({"humans": [{"name": "HandgunSoldier", "x": 1, "y": 0, "spawn_time": 0}]} if side == "human"
                else {"demons": [{"name": "NormalDemon", "y": 1, "spawn_time": 0}]})
    if game == "battle_card":
        enemy = "RockBeetle" if side == "invader" else "FireLizard"
        key = battle_card.KEYS[side]
        first = "FireLizard" if side == "invader" else "Sapling"
        return {key: [{"name": first, "tier": "Bronze"}], battle_card.PRIORITY_KEYS[side]: [enemy]}
    element = turn_based.ELEMENTS[side][0]
    own = [n for n, s in turn_based.CATALOGUES["released"].items() if s.element == element][:3]
    return {turn_based.KEYS[side]: [{"element": element, "skills": own}]}


def _key(game: str, side: str) -> str:
    return simulator(game).KEYS[side]


def initial_prompt(game: str, side: str, *, catalogue: str = "released") -> str:
    """The first request for a side's strategy."""
    budget = simulator(game).BUDGETS[side]
    return (
        f"You play the {side} side. Your budget is {budget}; a strategy that costs more loses.\n"
        f"Rules: {_RULES[game]}\n"
        f"Your catalogue:\n{catalogue_text(game, side, catalogue=catalogue)}\n"
        f"Example of the format: {json.dumps(_example(game, side))}\n"
        f'Answer with one JSON object with the key "{_key(game, side)}" and nothing else.'
    )


def _units(game: str, strategy) -> list[str]:
    if not isinstance(strategy, dict):
        return []
    names = []
    for value in strategy.values():
        if isinstance(value, list):
            for entry in value:
                if isinstance(entry, dict):
                    names.append(str(entry.get("name", "")))
                    names.extend(str(s) for s in entry.get("skills", []) if isinstance(entry.get("skills"), list))
    return names


def revision_prompt(game: str, request, *, catalogue: str = "released") -> str:
    """The request to revise after a round (``request``: a ``core.revision.RevisionRequest``)."""
    module = simulator(game)
    opponent = next(s for s in module.SIDES if s != request.side)
    result = f"{request.winner} won the game" if request.winner else "the game was a draw"
    used = catalogue_text(game, opponent, catalogue=catalogue, names=_units(game, request.opponent_strategy))
    return (
        f"You play the {request.side} side.\n"
        f"Last round: {result}.\n"
        f"Your strategy cost {request.cost}; your budget is {request.budget}. Exceeding the budget loses.\n"
        f"Rules: {_RULES[game]}\n"
        f"Your catalogue:\n{catalogue_text(game, request.side, catalogue=catalogue)}\n"
        f"The opponent's units:\n{used or '(none)'}\n"
        f"Your previous strategy: {json.dumps(request.own_strategy)}\n"
        f"The opponent's strategy: {json.dumps(request.opponent_strategy)}\n"
        f'Write a new strategy that maximises your chance of winning: one JSON object with the key '
        f'"{_key(game, request.side)}" and nothing else.'
    )


# ----------------------------------------------------------------- the paper protocol: the released wording

PAPER_RULES = {
    "tower_defense": (
        "1. Players can purchase characters and place them on the battlefield. The battlefield consists of 5 rows "
        "(corresponding to y-coordinates 0-4). The human side can place units in a designated area spanning 11 "
        "columns (corresponding to x-coordinates 0-10).\n"
        "2. Demons spawn from the right side of the battlefield (x-coordinates 11) and move left. Human units are "
        "placed on the left side of the battlefield, remain stationary, and attack approaching enemies.\n"
        "3. All units attack according to their attack interval, automatically attacking when their cooldown ends. "
        "Defending units fire bullets or activate skills to attack enemies. Invading units engage in melee attacks "
        "when they come into contact with defending units.\n"
        "4. Each grid cell can only contain one human unit at a time. Placing a new unit in an occupied cell is not "
        "allowed.\n"
        "5. When an attack hits, the target takes damage based on the attacker's power. If a unit's health drops to "
        "0, it is eliminated and removed from the battlefield.\n"
        "6. If all enemies are eliminated, the player wins. If any enemy successfully reaches the left side of the "
        "battlefield, the player loses.\n"
        'Reminder: every unit entry must include a "name" field.'
    ),
    "battle_card": (
        "1. At the start of the game, players can purchase all desired characters at once, up to a maximum of 7 "
        "characters. Gold characters cost three times as much as bronze characters, but their stats (attack, "
        "health, numerical skill effects, etc.) are twice as high. Non-numerical skills are not affected by this "
        "multiplier. In JSON use property tier with value Gold. If a character's 'tier' property is absent, "
        'default its tier to "Bronze".\n'
        "2. Initiative Determination: The side with more characters attacks first. If both sides have the same "
        "number of characters, the invader attacks first.\n"
        "3. Elemental Advantage: Certain elements have an advantage over others, granting a bonus in combat "
        "(Fire > Nature, Nature > Water, Water > Earth, Earth > Fire).\n"
        "4. Battle Process: Both sides will attack based on their respective target_priority (target priority). "
        "However, if there are Taunt minions on the opponent's side, attackers must prioritize attacking them. The "
        "attack order follows a left-to-right sequence. The first minion in the invaders or defenders list (as "
        "defined in the JSON file) will attack first, depending on which side has the initiative. After that, the "
        "first minion from the opposing side attacks. Then, the second minion from the attacking side follows, "
        "then the second minion from the opposing side, and so on in an alternating pattern. If a minion's health "
        "reaches zero, it is eliminated. The battle continues with both sides attacking in turns until one side is "
        "completely wiped out, resulting in victory for the other side.\n"
        "5. If all characters on one side are eliminated, the other side wins.\n"
        "6. If both sides are eliminated simultaneously in the same attack resolution, the Invader wins."
    ),
    "turn_based": (
        "1. This game is a turn-based character battle game divided into two factions: Invader and Defender. Each "
        "faction consists of three characters. The Invader faction includes Fire, Water, and Dark elements, while "
        "the Defender faction includes Wood, Earth, and Light elements. Characters appear and act in the order they "
        "are listed in the data.\n"
        "2. Combat proceeds in rounds. In each round, the three Invader characters act first in order, followed by "
        "the three Defender characters. The sequence then repeats in the next round.\n"
        "3. Each character has three skills that are used in a preset, looping sequence. On each turn, a character "
        "uses the next skill in their list and continues cycling through them in order.\n"
        "4. The game features an elemental effectiveness system: Fire beats Wood, Wood beats Earth, Earth beats "
        "Water, and Water beats Fire (1.2x damage when effective, 0.8x when resisted). Light and Dark counter each "
        "other with 1.5x damage. All other combinations deal the standard 1.0x damage.\n"
        "5. If all characters on one side are eliminated, the other side wins."
    ),
}
"""The paper's Appendix A rules, as the released prompts give them (with the released prompts' reminders)."""


def paper_initial_prompt(game: str, side: str, *, catalogue: str = "released") -> str:
    """The released code's first request for a side's strategy (the paper protocol)."""
    budget = simulator(game).BUDGETS[side]
    return (
        f"You are playing as the {side} in this game. Your budget is {budget}.\n"
        f"Game Rules: {PAPER_RULES[game]}\n"
        f"Your unit catalogue: {catalogue_text(game, side, catalogue=catalogue)}\n"
        f"Example JSON: {json.dumps(_example(game, side))}\n"
        f'Important: your output must be a single JSON object with the key "{_key(game, side)}" '
        f"and must not include any other text or explanation."
    )


def paper_revision_prompt(game: str, request, *, catalogue: str = "released") -> str:
    """The released code's revision request (digest B2.3, the paper protocol); a draw reads ``None won the game``."""
    module = simulator(game)
    opponent = next(s for s in module.SIDES if s != request.side)
    used = catalogue_text(game, opponent, catalogue=catalogue, names=_units(game, request.opponent_strategy))
    return (
        f"You are playing as the {request.side} in this game.\n"
        f"Last round result: {request.winner} won the game.\n"
        f"Your previous json cost was {request.cost}, budget is {request.budget}.\n"
        f"if you exceed your budget, you will lose the match\n"
        f"Game Rules: {PAPER_RULES[game]}\n"
        f"Your unit catalogue: {catalogue_text(game, request.side, catalogue=catalogue)}\n"
        f"Opponent unit catalogue: {used}\n"
        f"Your previous {request.side} JSON: {json.dumps(request.own_strategy)}\n"
        f"Opponent JSON: {json.dumps(request.opponent_strategy)}\n"
        f"Goal:\n"
        f'Regenerate and return a single JSON object with the key "{_key(game, request.side)}"\n'
        f"so that you maximize the chance of winning. Do not include any other text."
    )
