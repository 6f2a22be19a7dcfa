"""One conformance test over every registered game (OpenSpiel's games_sim_test idea), chosen by its match shape.

``moves`` games: seeded random playouts terminate within ``max_turns``,
replay identically, apply only legal actions, end with no legal actions and
scores in the declared range and sum. ``revision`` games: their own
interface (sides, rules, move order, reader, baseline writers), and a seeded
match between their baselines, played through the revision shape, replays
identically with scores in the declared range and sum. Guards on the game
counts stop coverage from shrinking silently.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.core.agent import AgentSpec
from stratbench.core.game import CHANCE
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.shapes import MOVES, REVISION, MatchSetup
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action
from stratbench.match.shapes import MATCH_SHAPES

MIN_GAMES = {MOVES: 20, REVISION: 3}
"""Registered games per shape, at least."""


def _registry():
    from stratbench.families import standalone_registry

    return standalone_registry(("games",))


def _games_by_shape() -> dict[str, list[tuple[str, str | None]]]:
    """Every registered game (in a variant that needs no external data), grouped by its declared shape."""
    registry = _registry()
    found: dict[str, list[tuple[str, str | None]]] = {}
    for name in sorted(registry.games):
        variants = registry.variants(name, {"pddl_dir": None})
        variant = None if not variants else next((v.name for v in variants if v.skip is None), None)
        if variants and variant is None:
            continue
        found.setdefault(registry.game(name, variant).shape, []).append((name, variant))
    return found


def _games(shape: str = MOVES) -> list[tuple[str, str | None]]:
    return _games_by_shape().get(shape, [])


def test_enough_games_of_each_shape_are_registered_and_every_declared_shape_is_played():
    counts = {shape: len(games) for shape, games in _games_by_shape().items()}
    assert set(counts) <= set(MATCH_SHAPES), counts
    assert all(counts.get(shape, 0) >= least for shape, least in MIN_GAMES.items()), counts


def _playout(name, variant, seed, on_step=None):
    game = _registry().game(name, variant)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if on_step is not None:
            on_step(game, state)
        assert state.turn < game.info.max_turns, "exceeded max_turns"
        players = state.current_players()
        if players == [CHANCE]:
            outcomes = state.chance_outcomes()
            state.apply({CHANCE: Action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])})
            continue
        joint = {}
        for player in players:
            legal = state.legal_actions(player)
            if legal:
                joint[player] = Action(rng.choice(legal))
            else:
                action = Action(sorted(state.open_ended(player))[0], "pass")
                if not state.is_legal(player, action):  # an answer with rules (a Codenames clue)
                    action = state.fallback_action(player, rng)
                joint[player] = action
        state.apply(joint)
    return game, state


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant"), _games(MOVES))
def test_random_playouts_conform(name, variant):
    for seed in range(3):
        game, state = _playout(name, variant, seed)
        info = game.info
        scores = state.scores()
        assert len(scores) == len(info.sides)
        low, high = info.score_range
        assert all(low - 1e-9 <= s <= high + 1e-9 for s in scores)
        if info.score_sum is not None:
            assert abs(sum(scores) - info.score_sum) < 1e-9
        assert all(state.legal_actions(p) == [] for p in range(info.num_players))
        _, again = _playout(name, variant, seed)
        assert again.history == state.history


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant"), _games(MOVES))
def test_replay_snapshots_are_plain_data_and_draw(name, variant):
    """Every position's snapshot survives JSON unchanged, and the game's board renderer draws it."""
    import json

    from stratbench.families import standalone_registry

    reporters = standalone_registry(("reporters",))
    renderer = reporters.board_renderers.get(name)
    drawn = []

    def check(game, state):
        snapshot = game.snapshot(state)
        if snapshot is None:
            return
        assert json.loads(json.dumps(snapshot)) == snapshot
        if renderer is not None and len(drawn) < 6:  # a few per playout: the Diplomacy map is slow to draw
            picture = renderer(snapshot)
            assert picture and picture.lstrip().startswith(("<svg", "<img"))
            drawn.append(picture)

    game, state = _playout(name, variant, 0, on_step=check)
    check(game, state)
    if renderer is not None:
        assert drawn, f"{name} has a board renderer but no snapshot was drawn"


# -- revision games: their own interface, and a baselines' match through the revision shape ----------


def _revision_match(game, variant, seed):
    """Plays the game's first baseline against its last for 3 rounds through the revision shape."""
    kinds = game.baseline_kinds
    spec = MatchSpec(game.info.name, (AgentSpec(kinds[0]), AgentSpec(kinds[-1])), 0, seed, f"conformance-{seed}",
                     variant)
    transcript = Transcript()
    prepared = MATCH_SHAPES[REVISION].prepare(game, MatchSetup(
        spec=spec, suite=SuiteSpec(game.info.name), registry=None, client=None, transcript=transcript,
        options={game.rounds_option: 3} if game.rounds_option else {}))
    return asyncio.run(prepared.start()), transcript


@pytest.mark.parametrize(("name", "variant"), _games(REVISION))
def test_revision_games_conform(name, variant):
    game = _registry().game(name, variant)
    info, sides, rules = game.info, game.sides, game.strategy_rules()
    assert len(sides) == info.num_players == len(info.sides) == 2
    assert [game.role(p) for p in range(info.num_players)] == list(sides)
    assert tuple(rules.SIDES) == tuple(sides) and rules.INIT_TRIES >= 1
    assert all(rules.BUDGETS[side] > 0 for side in sides)
    assert {game.first_reviser(0), game.first_reviser(1)} == set(sides)
    assert game.rounds >= 1 and len(game.baseline_kinds) >= 1
    read = game.reader()
    assert read('{"units": []}') == {"units": []}
    with pytest.raises(ValueError):
        read("no strategy here")
    for seed in range(2):
        outcome, transcript = _revision_match(game, variant, seed)
        low, high = info.score_range
        assert len(outcome.scores) == 2 and all(low - 1e-9 <= s <= high + 1e-9 for s in outcome.scores)
        assert info.score_sum is not None and abs(sum(outcome.scores) - info.score_sum) < 1e-9
        match = outcome.extra["advgame"]
        assert [r["round"] for r in match["rounds"]] == [1, 2, 3] and outcome.turns == 3
        assert [r["reviser"] for r in match["rounds"]] == [game.first_reviser(0), game.first_reviser(1), None]
        assert [e["kind"] for e in transcript.to_list()].count("revision_round") == 3
        again, _ = _revision_match(game, variant, seed)
        assert again.extra["advgame"] == match and again.scores == outcome.scores
