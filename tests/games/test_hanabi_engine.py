"""The Hanabi engine wrapper: seeded deals, legality, scores, hidden information, a golden trace."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")

from stratbench.core.types import Action, IllegalActionError  # noqa: E402
from stratbench.games.spin import hanabi  # noqa: E402
from stratbench.games.spin.hanabi import Hanabi, parse_observation  # noqa: E402


def _act(game, state, text):
    (player,) = state.current_players()
    action = game.canonical_action(state, player, text)
    assert action is not None, f"{text} is not legal: {state.legal_actions(player)}"
    state.apply({player: Action(action)})


def test_variants_set_the_player_count_and_hand_size():
    for players in (2, 3, 4, 5):
        game = Hanabi(f"{players}p")
        assert game.info.num_players == players
        assert game.info.sides == (tuple(range(players)),)
        state = game.new_initial_state(0)
        assert len(state.view(0).hands) == players
        assert all(len(hand) == (5 if players < 5 else 4) for hand in state.view(0).hands)
    with pytest.raises(ValueError, match="unknown Hanabi variant"):
        Hanabi("6p")


def test_variant_lister_skips_with_the_install_hint_without_openspiel(monkeypatch):
    assert [v.name for v in hanabi.variants({})] == ["2p", "3p", "4p", "5p"]
    assert all(v.skip is None for v in hanabi.variants({}))
    monkeypatch.setattr(hanabi, "pyspiel_available", lambda: False)
    assert {v.skip for v in hanabi.variants({})} == {hanabi.INSTALL_HINT}
    assert "pytest-stratbench[hanabi]" in hanabi.INSTALL_HINT


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_the_rules(players):
    game = Hanabi(f"{players}p")
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        progress = 0
        while not state.is_terminal():
            assert state.turn < game.info.max_turns
            (player,) = state.current_players()
            legal = state.legal_actions(player)
            assert legal == sorted(legal, key=int) and legal
            state.apply({player: Action(rng.choice(legal))})
            score = state.view(0).score
            assert progress <= score <= 25, "fireworks progress never decreases and never exceeds 25"
            progress = score
        assert state.scores() == [float(progress)]
        assert all(state.legal_actions(p) == [] for p in range(players))
        assert state.current_players() == []


def test_a_seed_fixes_the_deal_and_replays_the_game():
    game = Hanabi("3p")
    first, second, other = game.new_initial_state(7), game.new_initial_state(7), game.new_initial_state(8)
    assert str(first) == str(second)
    assert str(first) != str(other)
    rng = random.Random(1)
    while not first.is_terminal():
        (player,) = first.current_players()
        action = Action(rng.choice(first.legal_actions(player)))
        first.apply({player: action})
        second.apply({player: action})
        assert str(first) == str(second)
    assert first.history == second.history and first.scores() == second.scores()


def test_a_turn_limit_ends_the_deal_with_the_fireworks_built_so_far():
    full, short = Hanabi("2p"), Hanabi("2p", max_turns=6)
    states = [full.new_initial_state(3), short.new_initial_state(3)]
    while not states[1].is_terminal():
        (player,) = states[1].current_players()
        action = Action(max(states[1].legal_actions(player), key=int))  # hints and discards: no life lost
        for state in states:
            state.apply({player: action})
    assert states[1].turn == 6 and not states[0].is_terminal()
    assert states[1].scores() == [float(states[0].view(0).score)]
    assert states[1].terminal_reason() == "turn limit (6 turns): fireworks so far"
    with pytest.raises(ValueError, match="max_turns must be at least 1"):
        Hanabi("2p", max_turns=0)


def test_illegal_actions_are_rejected_without_changing_the_state():
    game = Hanabi("2p")
    state = game.new_initial_state(0)
    before = str(state)
    with pytest.raises(IllegalActionError):
        state.apply({0: Action("0")})  # discarding with all 8 information tokens
    with pytest.raises(IllegalActionError):
        state.apply({1: Action("5")})  # not player 1's turn
    assert str(state) == before and state.turn == 0


def test_actions_are_read_as_ids_or_descriptions():
    game = Hanabi("2p")
    state = game.new_initial_state(0)
    assert game.canonical_action(state, 0, "9") == "9"
    assert game.canonical_action(state, 0, "(Play 4)") == "9"
    assert game.canonical_action(state, 0, "play 4") == "9"
    assert game.canonical_action(state, 0, '"15"') == "15"
    assert game.canonical_action(state, 0, "(Discard 0)") is None
    assert game.canonical_action(state, 0, "Reveal player +1 rank 2") is None


def test_golden_two_player_trace():
    # Seed 0 deals player 0: W5 B3 W3 B3 W2 and player 1: Y1 B4 G3 B1 B1.
    game = Hanabi("2p")
    state = game.new_initial_state(0)
    assert [c.card for c in state.view(1).hands[1]] == ["W5", "B3", "W3", "B3", "W2"]
    assert [c.card for c in state.view(0).hands[1]] == ["Y1", "B4", "G3", "B1", "B1"]
    _act(game, state, "(Reveal player +1 rank 1)")
    assert state.view(0).info_tokens == 7
    assert [c.known for c in state.view(1).hands[0]] == ["X1", "XX", "XX", "X1", "X1"]
    _act(game, state, "(Play 0)")  # player 1 plays Y1
    assert state.view(0).fireworks["Y"] == 1
    _act(game, state, "(Play 0)")  # player 0 plays W5: a misplay
    assert state.view(0).life_tokens == 2 and state.view(0).discards == ("W5",)
    _act(game, state, "(Play 2)")  # player 1's hand is now B4 G3 B1 B1 + new: plays B1
    _act(game, state, "(Discard 0)")  # player 0 discards B3 and regains a token
    view = state.view(0)
    assert (view.score, view.life_tokens, view.info_tokens, view.deck_size) == (2, 2, 8, 36)
    assert view.discards == ("W5", "B3")
    assert state.scores() == [2.0]


def test_score_counts_fireworks_when_the_last_life_is_lost():
    game = Hanabi("2p")
    found = 0
    for seed in range(30):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            _act(game, state, "(Play 0)")
        view = state.view(0)
        if view.life_tokens == 0 and view.score > 0:
            found += 1
            assert state.scores() == [float(view.score)]
            assert state.hle_score() == 0
            assert state.terminal_reason() == "all life tokens lost"
    assert found > 0


def test_observations_show_only_public_knowledge_of_the_own_hand():
    game = Hanabi("3p")
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal():
        (player,) = state.current_players()
        observation = game.observe(state, player)
        assert all(set(card) == {"known", "possible"} for card in observation.data["my_hand"])
        own = re.search(r"Your hand contains.*?From your perspective", observation.text, re.DOTALL).group(0)
        assert own.count("Hidden info: 'XX'") == len(observation.data["my_hand"])
        # What the player knows of its hand is exactly what a teammate sees it knows.
        teammate = (player + 1) % 3
        seen = state.view(teammate).hands[2]  # the player is +2 from the teammate
        assert [(c["known"], c["possible"]) for c in observation.data["my_hand"]] == [
            (c.known, c.possible) for c in seen
        ]
        state.apply({player: Action(rng.choice(observation.legal_actions))})


def test_prompt_follows_spin_bench_e2():
    game = Hanabi("3p")
    observation = game.observe(game.new_initial_state(0), 0)
    prompt = observation.asking.prompt
    assert prompt.startswith("Below is the current detailed state information. There are 3 players in the game.")
    assert "The fireworks progress: R stack is at 0, Y stack is at 0" in prompt
    assert "Player +2's hand:" in prompt and "There are 35 cards remaining in the deck." in prompt
    assert "{5: '(Play 0)'," in prompt
    assert '{"reason": string, "action": int}' in prompt
    assert observation.asking.system_prompt.startswith("You are a master of hanabi game.")


def test_parse_observation_rejects_garbage():
    with pytest.raises(ValueError, match="unreadable Hanabi observation"):
        parse_observation("Life tokens: 3\n")


def test_an_agent_that_keeps_answering_illegally_gets_random_fallbacks():
    import asyncio

    from stratbench.core.runner import MatchRules, run_match

    class Stubborn:
        async def act(self, observation):
            return Action("99")

    game = Hanabi("2p")
    outcome = asyncio.run(run_match(game, game.new_initial_state(0), {0: Stubborn(), 1: Stubborn()},
                                    rng=random.Random(0), rules=MatchRules(illegal_tolerance=5, fallback="random")))
    assert outcome.forfeited_by is None and outcome.turns == outcome.fallbacks[0] + outcome.fallbacks[1]
    assert outcome.illegal[0] == 5 * outcome.fallbacks[0] and 0 <= outcome.scores[0] <= 25
