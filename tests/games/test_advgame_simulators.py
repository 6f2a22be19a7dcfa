"""AdvGameBench simulators: golden rounds worked out by hand, costs, validation, and properties over random strategies."""

import random

import pytest

from stratbench.games.advgame import GAME_IDS, battle_card, simulator, tower_defense, turn_based
from stratbench.games.advgame.baselines import greedy_strategy, random_strategy

# ------------------------------------------------------------ Tower Defense golden rounds
# Game time runs in 50 ms ticks; speed 2 = 0.0375 cells per tick; bullets 0.1875 cells per tick.


def test_tower_defense_handgun_kills_a_lone_demon_in_its_row():
    # The handgun at (0, 0) fires at t = 1000, 2000, ... 10000 ms from x = 1. The tenth bullet leaves at
    # tick 200 while the demon's left edge is at 11 - 0.0375 * 200 = 3.5; after n bullet steps it has
    # reached 1 + 0.1875 n, the demon 11 - 0.0375 (199 + n): they meet when 0.225 n > 2.5375, n = 12,
    # at tick 211. Ten hits of 1 kill the 10-HP demon: 212 ticks, the handgun untouched.
    outcome = tower_defense.simulate({
        "human": {"humans": [{"name": "HandgunSoldier", "x": 0, "y": 0, "spawn_time": 0}]},
        "demon": {"demons": [{"name": "NormalDemon", "y": 0, "spawn_time": 0}]},
    })
    assert (outcome.winner, outcome.steps, outcome.remaining, outcome.remaining_cost) == ("human", 212, 1, 100)
    assert outcome.survivors == (("HandgunSoldier", 3.0),)
    assert outcome.reason == "all demons eliminated"


def test_tower_defense_demon_in_an_empty_row_walks_through():
    # 11 cells at 0.0375 per tick: 11 / 0.0375 = 293.3, so the 294th move reaches x <= 0.
    outcome = tower_defense.simulate({
        "human": {"humans": [{"name": "HandgunSoldier", "x": 0, "y": 0, "spawn_time": 0}]},
        "demon": {"demons": [{"name": "NormalDemon", "y": 1, "spawn_time": 0}]},
    })
    assert (outcome.winner, outcome.steps, outcome.remaining_cost) == ("demon", 294, 100)
    assert outcome.reason == "Demon reached the left edge in row 1"
    assert outcome.remaining_by_side == {"human": 1, "demon": 1}


@pytest.mark.parametrize(("demon", "strikes", "steps"), [("NormalDemon", 15, 575), ("ShieldBreakerDemon", 3, 335)])
def test_tower_defense_shield_holds_a_demon_for_its_strikes(demon, strikes, steps):
    # The demon touches the shield at x = 5 when 11 - 0.0375 j < 6, tick j = 134 (t = 6700 ms), and strikes
    # every 1000 ms: 15 HP take 15 strikes of 1 (3 of 5 for the shield breaker), the last at tick
    # 134 + 20 (strikes - 1). From 5.975 it then needs 160 moves: steps = 134 + 20 (strikes - 1) + 161.
    assert steps == 134 + 20 * (strikes - 1) + 161
    outcome = tower_defense.simulate({
        "human": {"humans": [{"name": "ShieldSoldier", "x": 5, "y": 2}]},
        "demon": {"demons": [{"name": demon, "y": 2, "spawn_time": 0}]},
    })
    assert (outcome.winner, outcome.steps) == ("demon", steps)
    assert outcome.remaining_by_side == {"human": 0, "demon": 1}


def test_tower_defense_costs_follow_the_released_catalogue_and_the_paper_on_request():
    humans = {"humans": [{"name": "AntiAirSoldier", "x": 0, "y": 0}, {"name": "Bomb", "x": 1, "y": 0}]}
    demons = {"demons": [{"name": n, "y": 0} for n in ("GreatDemon", "ShieldDemon", "MachineDemon", "SummoningDemon")]}
    assert tower_defense.strategy_cost(humans, "human") == 100  # Bomb is not in the released catalogue: cost 0
    assert tower_defense.strategy_cost(humans, "human", catalogue="paper") == 175 + 200
    assert tower_defense.strategy_cost(demons, "demon") == 200 + 200 + 300 + 400
    assert tower_defense.strategy_cost(demons, "demon", catalogue="paper") == 175 + 175 + 250 + 300


def test_tower_defense_validation_names_each_bad_entry():
    problems = tower_defense.validate({"humans": [
        {"name": "Peashooter", "x": 0, "y": 0},
        {"name": "HandgunSoldier", "x": 11, "y": 0},
        {"name": "HandgunSoldier", "x": 2, "y": 3},
        {"name": "RifleSoldier", "x": 2, "y": 3},
        {"name": "RifleSoldier", "x": 4, "y": 1, "spawn_time": -5},
    ]}, "human")
    assert [p.message for p in problems] == [
        "humans[0]: unknown unit 'Peashooter'",
        "humans[1]: x must be an integer 0-10",
        "humans[3]: cell (2, 3) is already occupied",
        "humans[4]: spawn_time must be a non-negative integer (ms)",
    ]
    assert [p.message for p in tower_defense.validate({"demons": "x"}, "demon")] == ['"demons" must be a list']


def test_tower_defense_skips_problem_entries_and_reports_them_in_the_outcome():
    outcome = tower_defense.simulate({
        "human": {"humans": [{"name": "Peashooter", "x": 0, "y": 0}]},
        "demon": {"demons": [{"name": "NormalDemon", "y": 0}]},
    })
    assert outcome.winner == "demon"
    assert outcome.summary()["problems"] == ["human: humans[0]: unknown unit 'Peashooter'"]


def test_tower_defense_no_demons_is_an_immediate_human_win():
    outcome = tower_defense.simulate({"human": {"humans": []}, "demon": {"demons": []}})
    assert (outcome.winner, outcome.steps) == ("human", 1)


# ------------------------------------------------------------ Battle Card golden rounds


def test_battle_card_element_bonus_and_return_damage():
    # 2 invaders vs 1 defender: the Invader starts. FireLizard (2/2, Fire) hits Sapling (2/2, Nature) for
    # 2 + 1 (Fire beats Nature) and takes 2 back: both die; the lizard's killer is dead, no deathrattle damage.
    outcome = battle_card.simulate({
        "invader": {"invaders": [{"name": "FireLizard"}, {"name": "WaterElemental"}]},
        "defender": {"defenders": [{"name": "Sapling"}]},
    })
    assert (outcome.winner, outcome.steps, outcome.remaining, outcome.remaining_cost) == ("invader", 1, 1, 1)
    assert outcome.survivors == (("WaterElemental", 2.0),)


def test_battle_card_taunt_divine_shield_gold_and_mutual_wipe_out_go_to_the_invader():
    # 1 vs 2: the Defender starts. RockBeetle (1/5, Taunt) hits the Gold BanditLeader (16/6): 6 -> 5, and
    # dies to 16 back. BanditLeader hits Paladin: the Divine Shield absorbs it, 3 back: 5 -> 2. Paladin
    # hits for 3: the leader dies and its 16 back kill Paladin: both lines empty, the Invader wins.
    outcome = battle_card.simulate({
        "invader": {"invaders": [{"name": "BanditLeader", "tier": "Gold"}]},
        "defender": {"defenders": [{"name": "RockBeetle"}, {"name": "Paladin"}]},
    })
    assert (outcome.winner, outcome.steps, outcome.remaining) == ("invader", 3, 0)
    assert outcome.reason == "both lines wiped out: the Invader wins"


def test_battle_card_lava_golem_burn_kills_before_the_attack():
    # 1 vs 1, the Invader starts. LavaGolem (1/8) hits VineProtector (3/4) for 1 + 1 (Fire beats Nature): 2 left;
    # 3 back leave the golem 5 and burn the protector for 3, which kills it when it next attacks: 2 attacks.
    outcome = battle_card.simulate({"invader": {"invaders": [{"name": "LavaGolem"}]},
                                    "defender": {"defenders": [{"name": "VineProtector"}]}})
    assert (outcome.winner, outcome.steps, outcome.survivors) == ("invader", 2, (("LavaGolem", 5.0),))


def test_battle_card_costs_gold_triples_and_names_match_case_insensitively():
    strategy = {"invaders": [{"name": "tidelord", "tier": "Gold"}, {"name": "FireLizard"}, {"name": "Nobody"}]}
    assert battle_card.strategy_cost(strategy, "invader") == 4 * 3 + 1
    assert battle_card.strategy_cost(strategy, "invader", catalogue="paper") == 5 * 3 + 1
    assert [p.message for p in battle_card.validate(strategy, "invader")] == ["invaders[2]: unknown minion 'Nobody'"]


def test_battle_card_more_than_seven_minions_is_a_problem_and_the_eighth_is_skipped():
    strategy = {"defenders": [{"name": "Sapling"}] * 8}
    assert [p.message for p in battle_card.validate(strategy, "defender")] == ["defenders[7]: more than 7 minions"]


def test_battle_card_target_priority_poison_and_king_summon():
    # 2 vs 2: the Invader starts. Plain (leftmost target): frog 1 destroys Sapling and dies to 2 back; King
    # summons a 1/1 Divine Shield Soldier, kills frog 2 and is destroyed by its poisonous 1 back: the
    # Soldier (a summon, cost 0) wins it for the Defender. Aimed at King: frog 1 destroys King, dies to 3
    # back; Sapling (+1 Health on attack, 3) kills frog 2 and is destroyed by the poison: both lines empty,
    # the Invader wins.
    base = {"invaders": [{"name": "PoisonFrog"}, {"name": "PoisonFrog"}]}
    defenders = {"defenders": [{"name": "Sapling"}, {"name": "King"}]}
    plain = battle_card.simulate({"invader": base, "defender": defenders})
    aimed = battle_card.simulate({"invader": {**base, "target_priority_for_invaders": ["king"]},
                                  "defender": defenders})
    assert (plain.winner, plain.steps, plain.survivors, plain.remaining_cost) == ("defender", 2, (("Soldier", 1.0),), 0)
    assert (aimed.winner, aimed.steps, aimed.remaining) == ("invader", 2, 0)


# ------------------------------------------------------------ Turn-based golden round


def test_turn_based_full_round_by_hand():
    # Duel 1 Fire vs Wood: 25 x 1.2 = 30 against 40 x 0.8 = 32: Wood 70, Fire 68, 40, 36, 10, 4, Wood dead (7 turns).
    # Duel 2 Fire (4) vs Earth: 25 -> Earth 75; earth shock 20 kills Fire (2 turns).
    # Duel 3 Water vs Earth (75): 20 x 0.8 = 16 against 20 x 1.2 = 24: 59, 76, 43, 52, 27, 28, 11, 4, dead (9 turns).
    # Duel 4 Water (4) vs Light: 20 -> Light 80; glimmer heals 9 (89) and deals 9: Water dead (2 turns).
    # Duel 5 Dark vs Light (89): siphon 30 x 1.5 = 45 -> 44; heal 53, 13 -> Dark 87; 45 -> 8; heal 17,
    # Dark 74; 17 < 50 so (30 + 25) x 1.5 = 82: Light dead (5 turns). 25 turns, Dark left with 74.
    outcome = turn_based.simulate({
        "invader": {"invaders": [{"element": "Fire", "skills": ["burst_flame_bomb"] * 3},
                                 {"element": "Water", "skills": ["whirlpool_strangle"] * 3},
                                 {"element": "Dark", "skills": ["Soul Siphon"] * 3}]},
        "defender": {"defenders": [{"element": "Wood", "skills": ["natural_purification"] * 3},
                                   {"element": "Earth", "skills": ["earth_shock"] * 3},
                                   {"element": "Light", "skills": ["holy_glimmer"] * 3}]},
    })
    assert (outcome.winner, outcome.steps, outcome.remaining, outcome.remaining_cost) == ("invader", 25, 1, 6)
    assert outcome.survivors == (("Dark", 74.0),)
    assert outcome.problems == ()


def test_turn_based_poison_ticks_as_true_damage_at_the_start_of_its_holders_turns():
    # Fire only buffs itself. Wood's poison vine (turn 2) takes 35 at the start of each Fire turn, not
    # scaled by Wood vs Fire's 0.8: 100 -> 65 (turn 3) -> 30 (turn 5) -> 0 (turn 7). Wood's healing stops at 100.
    outcome = turn_based.simulate({
        "invader": {"invaders": [{"element": "Fire", "skills": ["residual_warmth"] * 3}]},
        "defender": {"defenders": [{"element": "Wood", "skills": ["poison_vine", "bud_healing", "bud_healing"]}]},
    })
    assert (outcome.winner, outcome.steps, outcome.survivors) == ("defender", 7, (("Wood", 100.0),))


def test_turn_based_element_chart():
    assert turn_based.multiplier("Fire", "Wood") == 1.2
    assert turn_based.multiplier("Wood", "Fire") == 0.8
    assert turn_based.multiplier("Earth", "Water") == 1.2
    assert turn_based.multiplier("Water", "Fire") == 1.2
    assert turn_based.multiplier("Light", "Dark") == turn_based.multiplier("Dark", "Light") == 1.5
    assert turn_based.multiplier("Fire", "Earth") == 1.0


def test_turn_based_costs_and_validation():
    strategy = {"invaders": [{"element": "Fire", "skills": ["Hell Curtain", "magma_eruption", "flame_splash"]},
                             {"element": "Water", "skills": ["shadow_claw", "stream_pierce", "stream_pierce"]}]}
    assert turn_based.strategy_cost(strategy, "invader") == 5 + 4 + 1 + 1 + 1 + 1
    assert turn_based.strategy_cost(strategy, "invader", catalogue="paper") == 3 + 3 + 1 + 1 + 1 + 1
    assert [p.message for p in turn_based.validate(strategy, "invader")] == [
        "invaders[1]: not Water skills: shadow_claw",
        "invaders: 3 valid characters needed, got 1",
    ]


# ------------------------------------------------------------ properties over random strategies


STEP_LIMITS = {
    "tower_defense": tower_defense.TIME_LIMIT_MS // tower_defense.TICK_MS + 1,
    "battle_card": battle_card.MAX_ATTACKS,
    "turn_based": 5 * turn_based.DUEL_TURN_LIMIT,  # at most 5 duels among 3 + 3 characters
}


def _random_pairs(game, count, seed, catalogue="released"):
    module = simulator(game)
    rng = random.Random(seed)
    for _ in range(count):
        yield {side: random_strategy(game, side, rng, catalogue=catalogue) for side in module.SIDES}


@pytest.mark.parametrize(("game", "catalogue", "count"),
                         [(game, "released", 25) for game in GAME_IDS] + [(game, "paper", 8) for game in GAME_IDS])
def test_random_strategies_are_valid_within_budget_and_battles_end_deterministically(game, catalogue, count):
    module = simulator(game)
    winners = set()
    for pair in _random_pairs(game, count, seed=7, catalogue=catalogue):
        for side, strategy in pair.items():
            assert module.validate(strategy, side, catalogue=catalogue) == []
            assert 0 <= module.strategy_cost(strategy, side, catalogue=catalogue) <= module.BUDGETS[side]
        first = module.simulate(pair, seed=1, catalogue=catalogue)
        assert first == module.simulate(pair, seed=2, catalogue=catalogue) == module.simulate(
            pair, seed=1, catalogue=catalogue)
        assert 1 <= first.steps <= STEP_LIMITS[game]
        winners.add(first.winner)
        assert first.winner in (*module.SIDES, None)
        assert all(health > 0 for _, health in first.survivors)
        assert len(first.survivors) == first.remaining
        if first.winner:
            assert first.remaining == first.remaining_by_side[first.winner]
            assert 0 <= first.remaining_cost <= module.strategy_cost(pair[first.winner], first.winner,
                                                                     catalogue=catalogue)
    assert winners & set(module.SIDES), "random strategies should produce decided battles"


@pytest.mark.parametrize("game", GAME_IDS)
def test_greedy_strategy_is_valid_within_budget_and_spends_most_of_it(game):
    module = simulator(game)
    for side in module.SIDES:
        strategy = greedy_strategy(game, side)
        assert module.validate(strategy, side) == []
        cost = module.strategy_cost(strategy, side)
        assert module.BUDGETS[side] * 0.75 <= cost <= module.BUDGETS[side]


@pytest.mark.parametrize("game", GAME_IDS)
def test_unknown_catalogue_is_one_clear_error(game):
    module = simulator(game)
    with pytest.raises(ValueError, match="catalogue 'nope'; known: released, paper"):
        module.simulate({side: {} for side in module.SIDES}, catalogue="nope")


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match="known: tower_defense, battle_card, turn_based"):
        simulator("chess")
