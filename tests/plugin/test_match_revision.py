"""A strategy-and-revision match in the session: the registered games, writers, the outcome and its settings."""

import asyncio

import pytest

from stratbench.games.advgame.writers import ModelStrategyWriter, baseline_agent
from stratbench.core.agent import AgentSpec
from stratbench.core.revision import RevisionMatch, RoundRecord
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.games.advgame.baselines import BaselineWriter, greedy_strategy
from stratbench.games.advgame.game import AdvGame, factory, variants
from stratbench.match.revision import build_writers, outcome_of, play_revision
from stratbench.match.settings import match_settings, settings_hash


def _spec(*sides, subject=0, variant="first", seed=0):
    return MatchSpec("battle_card", tuple(sides), subject, seed, "x", variant)


def _round(number, winner, reviser, violations=None):
    return RoundRecord(number, {"invader": {}, "defender": {}}, {"invader": 5, "defender": 25},
                       violations or {"invader": [], "defender": ["cost 25 exceeds budget 20"]}, winner, "v", {},
                       reviser)


def test_a_match_scores_each_side_its_share_of_rounds_with_draws_halved():
    match = RevisionMatch(sides=("invader", "defender"), budgets={"invader": 20, "defender": 20},
                          first_reviser="defender",
                          initial_attempts={"invader": [{"cost": 5, "violations": []}],
                                            "defender": [{"cost": 30, "violations": ["x"]}, {"cost": 25,
                                                                                          "violations": ["x"]}]})
    match.rounds = [_round(1, "invader", "defender"), _round(2, None, "invader"), _round(3, "defender", "defender"),
                    _round(4, "invader", None)]
    outcome = outcome_of(AdvGame("battle_card"), match, 0.5)
    assert outcome.scores == [0.625, 0.375]
    assert outcome.terminal == "invader won 2, defender won 1, 1 drawn of 4 rounds"
    assert outcome.decisions == {0: 1 + 1, 1: 2 + 2}  # initial attempts + revisions
    assert outcome.illegal == {0: 0, 1: 4} and outcome.fallbacks == {0: 0, 1: 0} and outcome.turns == 4
    assert RevisionMatch.from_dict(outcome.extra["advgame"]).to_dict() == match.to_dict()


def test_the_move_order_names_the_subjects_turn_to_revise_first():
    assert [v.name for v in variants({})] == ["first", "second"]
    assert AdvGame("tower_defense", "first").first_reviser(1) == "demon"
    assert AdvGame("tower_defense", "second").first_reviser(1) == "human"
    assert AdvGame("battle_card", "second").first_reviser(0) == "defender"
    game = factory("turn_based")(variant="first", protocol="paper", rounds=10)
    assert (game.info.name, game.info.family, game.role(0), game.role(1)) == ("turn_based", "advgame", "invader",
                                                                             "defender")


@pytest.mark.parametrize(("options", "message"), [
    ({"variant": "third"}, "unknown move order 'third'; known: first, second"),
    ({"protocol": "spin"}, "unknown prompt protocol 'spin'; known: default, paper"),
    ({"catalogue": "beta"}, "unknown catalogue 'beta'; known: released, paper"),
    ({"rounds": 0}, "rounds must be a whole number of at least 1, got 0"),
])
def test_bad_game_options_are_refused_naming_the_option(options, message):
    with pytest.raises(ValueError) as error:
        AdvGame("battle_card", **options)
    assert str(error.value) == message


def test_an_agent_that_writes_no_strategies_is_a_harness_error_naming_it():
    game = AdvGame("battle_card")
    with pytest.raises(HarnessError) as error:
        build_writers(None, _spec(AgentSpec("minimax"), AgentSpec("greedy")), game, Transcript(), {})
    assert str(error.value) == ("agent 'minimax' cannot write battle_card strategies; use a --model or one of "
                                "random, greedy, climber")
    with pytest.raises(HarnessError) as error:
        baseline_agent("greedy")(None)
    assert str(error.value) == ("the greedy agent writes AdvGameBench strategies; it plays only tower_defense, "
                                "battle_card and turn_based")


def test_writers_follow_the_seats_and_models_get_the_run_settings_and_the_protocols_prompts():
    game = AdvGame("battle_card", protocol="paper")
    spec = _spec(AgentSpec("climber"), AgentSpec("llm", model="openai/m", scaffold="direct"), subject=1)
    writers, sessions = build_writers(object(), spec, game, Transcript(),
                                      {"temperature": 0.3, "max_tokens": 64, "seed": 7})
    assert isinstance(writers["invader"], BaselineWriter) and writers["invader"].kind == "climber"
    model = writers["defender"]
    assert isinstance(model, ModelStrategyWriter) and list(sessions) == [1] and sessions[1] is model.session
    assert sessions[1].settings == {"temperature": 0.3, "max_tokens": 64, "seed": 7}
    assert model._initial_prompt.__name__ == "paper_initial_prompt"


def test_baselines_play_the_rounds_asked_in_the_subjects_move_order():
    game = AdvGame("battle_card", "second")
    spec = _spec(AgentSpec("greedy"), AgentSpec("random"), subject=0, variant="second", seed=3)
    writers, sessions = build_writers(None, spec, game, Transcript(), {})
    outcome = asyncio.run(play_revision(game, spec, writers, Transcript(), rounds=3))
    match = outcome.extra["advgame"]
    assert sessions == {} and match["first_reviser"] == "defender" and len(match["rounds"]) == 3
    assert [r["reviser"] for r in match["rounds"]] == ["defender", "invader", None]
    assert all(r["strategies"]["invader"] == greedy_strategy("battle_card", "invader") for r in match["rounds"])
    assert sum(outcome.scores) == 1.0


def test_the_rounds_option_enters_the_settings_hash_only_when_given():
    spec, suite = _spec(AgentSpec("greedy"), AgentSpec("random")), SuiteSpec(game="battle_card")
    from stratbench.games.advgame.plugin import AdvGameSettings

    plain = match_settings(spec, suite, game_options={}, options={}, version="1",
                           deciding=AdvGameSettings(advgame_rounds=None).deciding())
    assert "advgame_rounds" not in plain
    four = match_settings(spec, suite, game_options={}, options={}, version="1",
                          deciding=AdvGameSettings(advgame_rounds=4).deciding())
    assert four["advgame_rounds"] == 4 and settings_hash(four) != settings_hash(plain)


def test_every_game_registers_its_paper_protocol_with_the_papers_settings():
    from stratbench.games.advgame.paper_protocol import register
    from stratbench.registry import Registry

    registry = Registry()
    register(registry)
    for game in ("tower_defense", "battle_card", "turn_based"):
        protocol = registry.protocol(game, "paper")
        assert protocol.game_options == {"protocol": "paper", "rounds": 10}
        assert protocol.agent_options == {"temperature": 0.3} and protocol.suite == {}
