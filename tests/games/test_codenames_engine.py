"""Codenames engine: properties, clue validation, guesses, the assassin, scoring, golden traces."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.codenames import CLUE, END_TURN, FALLBACK_CLUE, WORDS, Codenames, parse_clue

GAME = Codenames()
GOLDEN = Path(__file__).parent / "golden" / "codenames_seed7.txt"


def playout(seed):
    """Plays random guesses; clues are random words from outside the board."""
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < GAME.info.max_turns
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        if legal:
            action = Action(rng.choice(legal))
        else:
            word = rng.choice([w for w in WORDS if w not in state.words])
            action = GAME.check_open_ended(state, player, Action(CLUE, f"{word.lower()}, {rng.randint(0, 3)}"))
        assert state.is_legal(player, action)
        state.apply({player: action})
    return state


def board(state, **kinds):
    """Returns the first hidden board word of each requested kind: ``board(state, red=2)``."""
    out = []
    for kind, count in kinds.items():
        out += [w for w in state.words if state.key[w] == kind and state.revealed[w] is None][:count]
    return out


def clue(state, text="river, 1"):
    (player,) = state.current_players()
    state.apply({player: GAME.check_open_ended(state, player, Action(CLUE, text))})


def guess(state, word):
    (player,) = state.current_players()
    state.apply({player: Action(f"guess {word}")})


# -- properties -----------------------------------------------------------------


def test_a_board_has_21_distinct_words_nine_red_eight_blue_three_neutral_one_assassin():
    for seed in range(10):
        state = GAME.new_initial_state(seed)
        kinds = sorted(state.key.values())
        assert len(set(state.words)) == 21 and set(state.words) <= set(WORDS)
        assert [kinds.count(k) for k in ("red", "blue", "neutral", "assassin")] == [9, 8, 3, 1]
    assert GAME.new_initial_state(1).words != GAME.new_initial_state(2).words


def test_random_playouts_terminate_apply_only_legal_moves_and_scores_sum_to_one():
    for seed in range(100):
        state = playout(seed)
        scores = state.scores()
        assert abs(sum(scores) - 1.0) < 1e-12 and all(0.0 <= s <= 1.0 for s in scores)
        assert state.current_players() == [] and all(state.legal_actions(p) == [] for p in range(4))
        points = state.points()
        assert scores == ([0.5, 0.5] if sum(points) == 0 else [p / sum(points) for p in points])
        winner = state.winner()
        assert scores[winner] >= scores[1 - winner]


def test_a_seed_replays_the_same_game():
    assert playout(11).history == playout(11).history
    assert playout(11).history != playout(12).history


def test_one_hundred_seeded_random_matches_through_the_runner():
    endings = set()
    for seed in range(100):
        state = GAME.new_initial_state(seed)
        agents = {
            p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p // 2, random.Random(seed * 10 + p), Transcript()))
            for p in range(4)
        }
        outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(seed), rules=MatchRules(3, "random")))
        assert abs(sum(outcome.scores) - 1.0) < 1e-12
        # The random spymaster's "pass" is not a clue: three rejections, then GameBench's substitute clue.
        clues = [joint for joint in outcome.history if 0 in joint or 2 in joint]
        assert clues and all(text == f"{CLUE}: NONE, 1" for joint in clues for text in joint.values())
        assert outcome.fallbacks[0] == outcome.illegal[0] / 3 == sum(0 in j for j in outcome.history)
        endings.add("assassin" if outcome.terminal.endswith("guessed the assassin") else outcome.terminal[-22:])
    assert endings == {"assassin", "all its words revealed"}


# -- clues ------------------------------------------------------------------------


def test_a_clue_is_one_word_and_one_number_and_breaks_no_board_word_rule():
    state = GAME.new_initial_state(3)
    word = state.words[0]
    assert parse_clue("River, 2") == ("RIVER", 2) and parse_clue("'ocean' 0") == ("OCEAN", 0)
    cases = {
        "river": "a clue must be exactly one word and one number, like 'river, 2'; got 'river'",
        "big river, 2": "a clue must be exactly one word and one number, like 'river, 2'; got 'big river, 2'",
        "river, 12": "the clue number must be from 0 to 9; got 12",
        "r1ver, 2": "the clue word must be one word of letters only; got 'r1ver'",
        f"{word.lower()}, 2": f"{word} is a word on the board; clues cannot use board words",
        f"{word}s, 2": f"{word}S contains the board word {word}; clues cannot use part or any form of a board word",
        f"{word[:3]}, 2": f"{word[:3]} is part of the board word {word}; clues cannot use part or any form of a "
        "board word",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError) as error:
            GAME.check_open_ended(state, 0, Action(CLUE, text))
        assert str(error.value) == reason
        assert not state.is_legal(0, Action(CLUE, text))
        with pytest.raises(IllegalActionError):
            state.apply({0: Action(CLUE, text)})
    assert state.turn == 0


def test_the_fallback_clue_is_gamebench_none_one_and_always_allowed():
    for seed in range(30):
        state = GAME.new_initial_state(seed)
        action = state.fallback_action(0, random.Random(0))
        assert action == Action(CLUE, FALLBACK_CLUE)
        assert GAME.check_open_ended(state, 0, action) == Action(CLUE, "NONE, 1")


def test_a_clue_over_the_runner_is_rejected_with_the_reason_and_retried():
    class Spymaster:
        def __init__(self, answers):
            self.answers, self.seen = list(answers), []

        async def act(self, observation):
            self.seen.append(observation.feedback)
            if observation.legal_actions:
                return Action(observation.legal_actions[0])
            return Action(CLUE, self.answers.pop(0)) if self.answers else Action(CLUE, "river, 1")

    state = GAME.new_initial_state(5)
    board_word = state.words[0]
    spy = Spymaster([f"{board_word}, 2", "two words, 1"])
    agents = {0: spy, 1: Spymaster([]), 2: Spymaster([]), 3: Spymaster([])}
    transcript = Transcript()
    asyncio.run(run_match(GAME, state, agents, rng=random.Random(0), rules=MatchRules(3, "random"),
                          transcript=transcript))
    assert spy.seen[:3] == [
        None,
        f"{board_word} is a word on the board; clues cannot use board words",
        "a clue must be exactly one word and one number, like 'river, 2'; got 'two words, 1'",
    ]
    assert state.history[0] == {0: f"{CLUE}: RIVER, 1"}


# -- turns, the assassin and scoring (hand-checked) ---------------------------------------


def test_the_operative_sees_no_key_and_the_spymaster_sees_it_all():
    state = GAME.new_initial_state(4)
    for player in (1, 3):
        data = GAME.observe(state, player).data
        assert all(card["type"] is None for card in data["cards"])
        assert "UNKNOWN" in GAME.observe(state, player).text
    for player in (0, 2):
        data = GAME.observe(state, player).data
        assert {c["word"]: c["type"] for c in data["cards"]} == state.key
    clone = state.clone()
    clone.key = dict(zip(clone.words, reversed(list(clone.key.values()))))
    assert GAME.observe(clone, 1).text == GAME.observe(state, 1).text


def test_a_correct_guess_continues_up_to_n_plus_one_and_a_wrong_one_ends_the_turn():
    state = GAME.new_initial_state(8)
    assert state.current_players() == [0] and state.open_ended(0) and state.legal_actions(0) == []
    clue(state, "river, 1")
    assert state.current_players() == [1] and END_TURN not in state.legal_actions(1)
    reds = board(state, red=3)
    guess(state, reds[0])
    assert state.current_players() == [1] and END_TURN in state.legal_actions(1)
    guess(state, reds[1])  # N+1 = 2 guesses used: Blue's turn
    assert state.current_players() == [2]
    clue(state, "river, 3")
    guess(state, board(state, neutral=1)[0])
    assert state.current_players() == [0]
    clue(state, "river, 0")  # 0: no limit
    for word in board(state, red=5):
        guess(state, word)
    assert state.current_players() == [1]
    state.apply({1: Action(END_TURN)})
    assert state.current_players() == [2] and state.log[-1] == "Red operative ended the turn"
    clue(state, "river, 2")
    guess(state, board(state, red=1)[0])  # an opponent's word: revealed for Red, Blue's turn ends
    assert state.current_players() == [0] and state.points() == [8, 0]


def test_the_assassin_ends_the_game_the_guesser_scores_zero():
    state = GAME.new_initial_state(9)
    clue(state)
    guess(state, board(state, red=1)[0])
    guess(state, board(state, assassin=1)[0])
    assert state.is_terminal() and state.points() == [0, 3] and state.scores() == [0.0, 1.0]
    assert state.terminal_reason() == "Blue wins: Red guessed the assassin"


def test_revealing_all_of_a_team_s_words_wins_with_a_three_point_bonus():
    state = GAME.new_initial_state(10)
    clue(state, "river, 0")
    for word in board(state, red=9):
        guess(state, word)
    assert state.is_terminal() and state.points() == [12, 0] and state.scores() == [1.0, 0.0]
    state = GAME.new_initial_state(10)
    clue(state, "river, 0")
    for word in board(state, red=3):
        guess(state, word)
    guess(state, board(state, blue=1)[0])  # Red reveals a Blue word: Blue has 1, Red 3
    clue(state, "river, 0")
    for word in board(state, blue=7):
        guess(state, word)
    assert state.terminal_reason() == "Blue wins: all its words revealed"
    assert state.points() == [3, 11] and state.scores() == [3 / 14, 11 / 14]


def test_golden_trace_of_a_seeded_random_playout():
    state = playout(7)
    trace = "\n".join(state.log) + f"\nscores: {state.scores()}\n"
    assert trace == GOLDEN.read_text()
