"""One conformance test over every registered game (OpenSpiel's games_sim_test idea).

Seeded random playouts terminate within ``max_turns``, replay identically,
apply only legal actions, end with no legal actions and scores in the declared
range and sum. A guard on the game count stops coverage from shrinking silently.
"""

from __future__ import annotations

import random

import pytest

from stratbench.core.game import CHANCE
from stratbench.core.types import Action

MIN_GAMES = 1


def _registry():
    from stratbench.families import standalone_registry

    return standalone_registry(("games",))


def _games():
    registry = _registry()
    out = []
    for name in sorted(registry.games):
        variants = registry.variants(name, {"pddl_dir": None})
        variant = None if not variants else next((v.name for v in variants if v.skip is None), None)
        if variants and variant is None:
            continue
        if getattr(registry.game(name, variant), "strategy_game", None) is not None:
            continue  # whole strategies, played by core.revision (tests/core/test_revision.py)
        out.append((name, variant))
    return out


def test_enough_games_are_registered():
    assert len(_registry().games) >= MIN_GAMES


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


@pytest.mark.parametrize(("name", "variant"), _games())
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


@pytest.mark.parametrize(("name", "variant"), _games())
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
