"""Baseline strategy writers for the AdvGameBench games: random-valid, greedy-by-stat, hill-climbing reviser.

Plain functions over the simulators' catalogues; each returns a strategy
JSON object (a dict) within the side's budget and free of rule problems.

- ``random_strategy``: random units (or skills) bought until the budget or a
  random stop; ``revise_randomly`` writes a fresh random one.
- ``greedy_strategy``: deterministic; buys the unit with the best stat per
  cost again and again (stats: HP + 30 x damage per second for soldiers,
  HP + 5 x damage x speed for demons, a skill's direct and over-time damage,
  heal and shield for skills); minions, with only 7 places, are bought by
  the largest Attack + Health whose cost still leaves the cheapest minion
  for each place left.
- ``hill_climb``: the revising baseline. It sees what the released revision
  prompt shows a model (its own strategy, the opponent's full JSON, the
  result) and climbs: ``tries`` times it mutates its best strategy so far
  (one to three changes, within budget), plays the mutant against the
  opponent's strategy in the simulator and keeps it if it does strictly
  better (a win first, then the remaining-value margin); with no
  improvement it re-submits the same strategy (no revision).
"""

from __future__ import annotations

import copy
import random

from stratbench.games.advgame import battle_card, simulator, tower_defense, turn_based
from stratbench.games.advgame.common import decide_winner


def _budget(game: str, side: str) -> int:
    return simulator(game).BUDGETS[side]


def _cost(game: str, strategy: dict, side: str, catalogue: str) -> int:
    return simulator(game).strategy_cost(strategy, side, catalogue=catalogue)


# ----------------------------------------------------------------- random


def random_strategy(game: str, side: str, rng: random.Random, *, catalogue: str = "released") -> dict:
    """Returns a random valid strategy within budget."""
    budget = _budget(game, side)
    if game == "tower_defense":
        humans, demons = tower_defense.CATALOGUES[catalogue]
        kinds = humans if side == "human" else demons
        names = sorted(kinds)
        units, spent = [], 0
        free = [(x, y) for x in range(tower_defense.COLUMNS) for y in range(tower_defense.ROWS)]
        rng.shuffle(free)
        while True:
            affordable = [n for n in names if spent + kinds[n].cost <= budget]
            if not affordable or (units and rng.random() < 0.15) or (side == "human" and not free):
                break
            name = rng.choice(affordable)
            spent += kinds[name].cost
            if side == "human":
                x, y = free.pop()
                units.append({"name": name, "x": x, "y": y, "spawn_time": 0})
            else:
                units.append({"name": name, "y": rng.randrange(tower_defense.ROWS),
                              "spawn_time": 1000 * rng.randrange(11)})
        return {tower_defense.KEYS[side]: units}
    if game == "battle_card":
        kinds = battle_card.CATALOGUES[catalogue][side]
        names = sorted(kinds)
        line, spent = [], 0
        while len(line) < battle_card.MAX_MINIONS:
            options = [(n, gold) for n in names for gold in (False, True)
                       if spent + kinds[n].cost * (3 if gold else 1) <= budget]
            if not options or (line and rng.random() < 0.15):
                break
            name, gold = rng.choice(options)
            spent += kinds[name].cost * (3 if gold else 1)
            line.append({"name": name, "tier": "Gold" if gold else "Bronze"})
        enemy = "defender" if side == "invader" else "invader"
        priority = rng.sample(sorted(battle_card.CATALOGUES[catalogue][enemy]), rng.randrange(3))
        return {battle_card.KEYS[side]: line, battle_card.PRIORITY_KEYS[side]: priority}
    if game == "turn_based":
        skills = turn_based.CATALOGUES[catalogue]
        elements = list(turn_based.ELEMENTS[side])
        rng.shuffle(elements)
        team = [{"element": e, "skills": [rng.choice(sorted(n for n, s in skills.items() if s.element == e))
                                         for _ in range(3)]} for e in elements]
        strategy = {turn_based.KEYS[side]: team}
        while _cost(game, strategy, side, catalogue) > budget:  # swap a dearest skill for a cheaper one
            slots = [(skills[n].cost, c, k) for c, member in enumerate(team) for k, n in enumerate(member["skills"])]
            _, c, k = max(slots)
            element = team[c]["element"]
            cheaper = sorted(n for n, s in skills.items()
                             if s.element == element and s.cost < skills[team[c]["skills"][k]].cost)
            team[c]["skills"][k] = rng.choice(cheaper)
        return strategy
    raise ValueError(f"unknown AdvGameBench game {game!r}")


def revise_randomly(game: str, side: str, rng: random.Random, *, catalogue: str = "released", **_feedback) -> dict:
    """The random baseline's revision: a fresh random strategy, ignoring the feedback."""
    return random_strategy(game, side, rng, catalogue=catalogue)


# ----------------------------------------------------------------- greedy


def _skill_value(skill: turn_based.Skill) -> float:
    n = skill.numbers
    value = n.get("damage", 0) + n.get("heal", 0) + n.get("shield", 0) + n.get("per_round", 0) * n.get("rounds", 0)
    value += n.get("layers", 0) * n.get("per_layer", 0) * n.get("rounds", 0)
    return value


def greedy_strategy(game: str, side: str, *, catalogue: str = "released") -> dict:
    """Returns the deterministic greedy-by-stat strategy (best stat per cost, repeated while affordable)."""
    budget = _budget(game, side)
    if game == "tower_defense":
        humans, demons = tower_defense.CATALOGUES[catalogue]
        if side == "human":
            def value(k):
                return k.hp + (30 * k.damage * 1000 / k.interval_ms if k.interval_ms else 0)
            kinds = humans
        else:
            def value(k):
                return k.hp + 5 * k.damage * k.speed
            kinds = demons
        ranked = sorted(kinds, key=lambda n: (-value(kinds[n]) / kinds[n].cost, n))
        units, spent, slot = [], 0, 0
        while True:
            affordable = [n for n in ranked if spent + kinds[n].cost <= budget]
            if not affordable or slot >= tower_defense.ROWS * tower_defense.COLUMNS:
                break
            name = affordable[0]
            spent += kinds[name].cost
            row, column = slot % tower_defense.ROWS, slot // tower_defense.ROWS
            if side == "human":
                units.append({"name": name, "x": column, "y": row, "spawn_time": 0})
            else:
                units.append({"name": name, "y": row, "spawn_time": 0})
            slot += 1
        return {tower_defense.KEYS[side]: units}
    if game == "battle_card":
        kinds = battle_card.CATALOGUES[catalogue][side]
        cheapest = min(k.cost for k in kinds.values())
        line, spent = [], 0
        while len(line) < battle_card.MAX_MINIONS:
            room = budget - spent - (battle_card.MAX_MINIONS - len(line) - 1) * cheapest
            options = []
            for n in sorted(kinds):
                for gold in (False, True):
                    cost = kinds[n].cost * (3 if gold else 1)
                    if cost <= max(room, cheapest) and spent + cost <= budget:
                        options.append((-(kinds[n].attack + kinds[n].health) * (2 if gold else 1), cost, n, gold))
            if not options:
                break
            _, cost, name, gold = min(options)
            spent += cost
            line.append({"name": name, "tier": "Gold" if gold else "Bronze"})
        return {battle_card.KEYS[side]: line, battle_card.PRIORITY_KEYS[side]: []}
    if game == "turn_based":
        skills = turn_based.CATALOGUES[catalogue]
        team = []
        for element in turn_based.ELEMENTS[side]:
            own = sorted((n for n, s in skills.items() if s.element == element), key=lambda n: (skills[n].cost, n))
            team.append({"element": element, "skills": [own[0]] * 3})
        strategy = {turn_based.KEYS[side]: team}
        while True:  # upgrade the slot with the best value gained per cost added
            spent = _cost(game, strategy, side, catalogue)
            best = None
            for c, member in enumerate(team):
                for k, current in enumerate(member["skills"]):
                    for name, skill in sorted(skills.items()):
                        extra = skill.cost - skills[current].cost
                        gain = _skill_value(skill) - _skill_value(skills[current])
                        if skill.element == member["element"] and extra > 0 and gain > 0 and spent + extra <= budget:
                            if best is None or gain / extra > best[0]:
                                best = (gain / extra, c, k, name)
            if best is None:
                return strategy
            team[best[1]]["skills"][best[2]] = best[3]
    raise ValueError(f"unknown AdvGameBench game {game!r}")


# ----------------------------------------------------------------- hill climbing


def _mutate(game: str, side: str, strategy: dict, rng: random.Random, catalogue: str) -> dict:
    candidate = copy.deepcopy(strategy)
    if game == "tower_defense":
        humans, demons = tower_defense.CATALOGUES[catalogue]
        kinds = humans if side == "human" else demons
        units = candidate[tower_defense.KEYS[side]]
        move = rng.choice(["swap", "move", "add", "drop"] if units else ["add"])
        if move == "add":
            entry = {"name": rng.choice(sorted(kinds)), "y": rng.randrange(tower_defense.ROWS), "spawn_time": 0}
            if side == "human":
                entry["x"] = rng.randrange(tower_defense.COLUMNS)
            units.append(entry)
        else:
            unit = rng.choice(units)
            if move == "swap":
                unit["name"] = rng.choice(sorted(kinds))
            elif move == "move":
                unit["y"] = rng.randrange(tower_defense.ROWS)
                if side == "human":
                    unit["x"] = rng.randrange(tower_defense.COLUMNS)
                else:
                    unit["spawn_time"] = 1000 * rng.randrange(11)
            else:
                units.remove(unit)
    elif game == "battle_card":
        kinds = battle_card.CATALOGUES[catalogue][side]
        line = candidate[battle_card.KEYS[side]]
        move = rng.choice(["swap", "tier", "order", "add", "drop", "priority"] if line else ["add"])
        if move == "add" and len(line) < battle_card.MAX_MINIONS:
            line.insert(rng.randrange(len(line) + 1), {"name": rng.choice(sorted(kinds)), "tier": "Bronze"})
        elif move == "swap" and line:
            rng.choice(line)["name"] = rng.choice(sorted(kinds))
        elif move == "tier" and line:
            unit = rng.choice(line)
            unit["tier"] = "Bronze" if unit.get("tier") == "Gold" else "Gold"
        elif move == "order" and len(line) > 1:
            i, j = rng.sample(range(len(line)), 2)
            line[i], line[j] = line[j], line[i]
        elif move == "drop" and line:
            line.pop(rng.randrange(len(line)))
        elif move == "priority":
            enemy = "defender" if side == "invader" else "invader"
            candidate[battle_card.PRIORITY_KEYS[side]] = rng.sample(
                sorted(battle_card.CATALOGUES[catalogue][enemy]), rng.randrange(3))
    else:
        skills = turn_based.CATALOGUES[catalogue]
        team = candidate[turn_based.KEYS[side]]
        move = rng.choice(["skill", "skill", "order", "loop"])
        if move == "skill":
            member = rng.choice(team)
            own = sorted(n for n, s in skills.items() if s.element == member["element"])
            member["skills"][rng.randrange(3)] = rng.choice(own)
        elif move == "order":
            i, j = rng.sample(range(len(team)), 2)
            team[i], team[j] = team[j], team[i]
        else:
            rng.shuffle(rng.choice(team)["skills"])
    return candidate


def score_against(game: str, side: str, strategy: dict, opponent: dict, *, catalogue: str = "released") -> tuple:
    """Scores ``strategy`` against ``opponent``: (won after the budget rule, remaining-value margin).

    The margin is the winner's remaining cost, positive when ``side`` wins,
    negative when it loses, 0 for a draw (the simulator's remaining value,
    the same Phi the CnstrR metric uses).
    """
    module = simulator(game)
    other = next(s for s in module.SIDES if s != side)
    outcome = module.simulate({side: strategy, other: opponent}, catalogue=catalogue)
    costs = {side: module.strategy_cost(strategy, side, catalogue=catalogue),
             other: module.strategy_cost(opponent, other, catalogue=catalogue)}
    verdict = decide_winner(outcome.winner, costs, module.BUDGETS)
    if verdict.winner is None:
        return (0.5, 0)
    sign = 1 if verdict.winner == side else -1
    margin = outcome.remaining_cost if verdict.winner == outcome.winner else 0
    return (1.0 if sign > 0 else 0.0, sign * margin)


def hill_climb(
    game: str,
    side: str,
    strategy: dict,
    opponent: dict,
    rng: random.Random,
    *,
    tries: int = 32,
    steps: int = 3,
    catalogue: str = "released",
    **_feedback,
) -> dict:
    """Climbs from ``strategy`` for ``tries`` in-budget, problem-free mutations (1 to ``steps`` changes each,
    each made to the best so far, kept when strictly better); returns ``strategy`` if none was better."""
    module = simulator(game)
    budget = module.BUDGETS[side]
    best, best_score = strategy, score_against(game, side, strategy, opponent, catalogue=catalogue)
    for _ in range(tries):
        candidate = best
        for _ in range(rng.randint(1, steps)):
            candidate = _mutate(game, side, candidate, rng, catalogue)
        if module.strategy_cost(candidate, side, catalogue=catalogue) > budget:
            continue
        if module.validate(candidate, side, catalogue=catalogue):
            continue
        score = score_against(game, side, candidate, opponent, catalogue=catalogue)
        if score > best_score:
            best, best_score = candidate, score
    return best


# ----------------------------------------------------------------- writers for the revision match

BASELINE_KINDS = ("random", "greedy", "climber")
"""``random``: random-valid start, a fresh random strategy at each revision; ``greedy``: the greedy
strategy, never revised; ``climber``: random-valid start, :func:`hill_climb` at each revision."""


class BaselineWriter:
    """Writes one side's strategies for ``core.revision.play_revision_match``."""

    def __init__(self, kind: str, game: str, side: str, rng: random.Random, *, catalogue: str = "released",
                 tries: int = 32):
        if kind not in BASELINE_KINDS:
            raise ValueError(f"unknown AdvGameBench baseline {kind!r}; known: {', '.join(BASELINE_KINDS)}")
        self.kind, self.game, self.side, self.rng = kind, game, side, rng
        self.catalogue, self.tries = catalogue, tries

    def initial(self, request) -> dict:
        if self.kind == "greedy":
            return greedy_strategy(self.game, self.side, catalogue=self.catalogue)
        return random_strategy(self.game, self.side, self.rng, catalogue=self.catalogue)

    def revise(self, request) -> dict:
        if self.kind == "random":
            return revise_randomly(self.game, self.side, self.rng, catalogue=self.catalogue)
        if self.kind == "greedy":
            return request.own_strategy
        return hill_climb(self.game, self.side, request.own_strategy, request.opponent_strategy, self.rng,
                          tries=self.tries, catalogue=self.catalogue)
