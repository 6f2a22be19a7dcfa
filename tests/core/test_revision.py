"""The strategy-and-revision match loop, driven by scripted writers over the Battle Card simulator."""

import asyncio
import random

import pytest

from stratbench.core.revision import InitialRequest, over_budget_message, play_revision_match
from stratbench.games.advgame import battle_card, tower_defense
from stratbench.games.advgame.baselines import BaselineWriter, greedy_strategy, hill_climb, score_against

STRONG = {"invaders": [{"name": "TideLord", "tier": "Gold"}, {"name": "BanditLeader"}, {"name": "FireLizard"}]}
WEAK = {"defenders": [{"name": "Sapling"}]}
OVER = {"defenders": [{"name": "King", "tier": "Gold"}, {"name": "King", "tier": "Gold"}]}  # 24 > 20


class Scripted:
    """Returns the scripted answers in turn and keeps every request it saw."""

    def __init__(self, initial, revisions=()):
        self.initial_answers, self.revisions = list(initial), list(revisions)
        self.requests = []

    def initial(self, request):
        self.requests.append(request)
        return self.initial_answers.pop(0)

    async def revise(self, request):  # a coroutine on purpose: both kinds are accepted
        self.requests.append(request)
        return self.revisions.pop(0) if self.revisions else request.own_strategy


def _play(writers, first="invader", rounds=4):
    return asyncio.run(play_revision_match(battle_card, writers, first_reviser=first, rounds=rounds))


def test_one_side_revises_per_round_alternating_and_sees_the_opponents_json():
    invader, defender = Scripted([STRONG]), Scripted([WEAK])
    match = _play({"invader": invader, "defender": defender}, first="defender", rounds=4)
    assert [r.reviser for r in match.rounds] == ["defender", "invader", "defender", None]
    assert [r.round for r in match.rounds] == [1, 2, 3, 4]
    seen = defender.requests[1]
    assert (seen.side, seen.round, seen.winner, seen.cost, seen.budget) == ("defender", 1, "invader", 1, 20)
    assert seen.opponent_strategy == STRONG and seen.own_strategy == WEAK
    assert seen.summary["winner"] == "invader"
    assert match.rounds[0].summary["remaining_by_side"]["defender"] == 0


def test_over_budget_initial_strategy_is_asked_again_with_the_released_message():
    defender = Scripted([OVER, WEAK])
    match = _play({"invader": Scripted([STRONG]), "defender": defender}, rounds=1)
    retry = defender.requests[1]
    assert isinstance(retry, InitialRequest) and retry.attempt == 2
    assert retry.feedback == over_budget_message(1, 24, 20, OVER)
    assert retry.feedback.startswith("[Attempt 1] cost 24 exceeds budget 20. Please adjust layout. Previous output: {")
    assert [a["cost"] for a in match.initial_attempts["defender"]] == [24, 1]
    assert match.trace("defender").initial_violations == (True, False)


def test_after_the_last_try_an_over_budget_strategy_is_kept_and_loses_by_the_budget_rule():
    match = _play({"invader": Scripted([{"invaders": [{"name": "FireLizard"}]}]), "defender": Scripted([OVER] * 3)},
                  rounds=1)
    assert len(match.initial_attempts["defender"]) == battle_card.INIT_TRIES == 3
    record = match.rounds[0]
    assert record.summary["winner"] == "defender"  # the simulator alone would give it to the two Gold Kings
    assert (record.winner, record.verdict) == ("invader", "over budget: defender")
    assert record.violations["defender"] == ["cost 24 exceeds budget 20"]


def test_an_unreadable_answer_forfeits_the_round_and_is_counted():
    defender = Scripted(["I refuse to play"], [])
    match = _play({"invader": Scripted([{"invaders": [{"name": "FireLizard"}]}]), "defender": defender}, rounds=2,
                  first="defender")
    first = match.rounds[0]
    assert first.winner == "invader" and first.verdict == "unreadable answer: defender"
    assert first.violations["defender"][0].startswith("unreadable answer: strategy is not valid JSON")
    assert first.strategies["defender"] is None
    trace = match.trace("defender")
    assert [r.violation for r in trace.rounds] == [True, True]


def test_text_answers_are_read_as_the_released_code_reads_them():
    fenced = "Here:\n```json\n{'defenders': [{'name': 'MountainGiant'}]}\n```"
    match = _play({"invader": Scripted([STRONG]), "defender": Scripted([fenced])}, rounds=1)
    assert match.rounds[0].strategies["defender"] == {"defenders": [{"name": "MountainGiant"}]}
    assert match.rounds[0].costs["defender"] == 4


def test_trace_labels_order_revisions_and_the_remaining_value():
    match = _play({"invader": Scripted([STRONG]), "defender": Scripted([WEAK])}, first="invader", rounds=3)
    invader, defender = match.trace("invader"), match.trace("defender")
    assert (invader.order, defender.order) == ("first", "second")
    assert [r.revises_after for r in invader.rounds] == [True, False, False]
    assert [r.revises_after for r in defender.rounds] == [False, True, False]
    assert invader.rounds[0].won is True and invader.rounds[0].value == match.rounds[0].summary["remaining_cost"] > 0
    assert defender.rounds[0].value == -invader.rounds[0].value
    assert match.to_dict()["rounds"][0]["verdict"] == "simulation"


def test_bad_arguments_are_one_clear_error():
    writers = {"invader": Scripted([STRONG]), "defender": Scripted([WEAK])}
    with pytest.raises(ValueError, match="writers and first_reviser must name the sides invader, defender"):
        asyncio.run(play_revision_match(battle_card, writers, first_reviser="human"))
    with pytest.raises(ValueError, match="rounds must be at least 1, got 0"):
        asyncio.run(play_revision_match(battle_card, writers, first_reviser="invader", rounds=0))


def test_hill_climber_never_does_worse_against_the_strategy_it_was_shown():
    rng = random.Random(5)
    opponent = greedy_strategy("battle_card", "defender")
    strategy = {"invaders": [{"name": "FireLizard"}], "target_priority_for_invaders": []}
    scores = [score_against("battle_card", "invader", strategy, opponent)]
    for _ in range(4):
        strategy = hill_climb("battle_card", "invader", strategy, opponent, rng)
        assert battle_card.strategy_cost(strategy, "invader") <= 20
        assert battle_card.validate(strategy, "invader") == []
        scores.append(score_against("battle_card", "invader", strategy, opponent))
    assert scores == sorted(scores)
    assert scores[-1] > scores[0]


def test_baseline_writers_play_a_full_ten_round_match_deterministically():
    def play(seed):
        rng = random.Random(seed)
        writers = {"human": BaselineWriter("climber", "tower_defense", "human", rng, tries=4),
                   "demon": BaselineWriter("random", "tower_defense", "demon", rng)}
        return asyncio.run(play_revision_match(tower_defense, writers, first_reviser="demon")).to_dict()

    first = play(3)
    assert len(first["rounds"]) == 10
    assert first == play(3)
    with pytest.raises(ValueError, match="unknown AdvGameBench baseline 'smart'; known: random, greedy, climber"):
        BaselineWriter("smart", "tower_defense", "human", random.Random(0))
