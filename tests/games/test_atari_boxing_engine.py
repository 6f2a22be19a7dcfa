"""Atari Boxing through the ALE: bout length, decisions, RAM readings, scoring, determinism."""

from __future__ import annotations

import io
import random
import sys

import pytest

from stratbench.core.types import Action
from stratbench.games.gamebench import atari_boxing
from stratbench.games.gamebench.atari_boxing import ACTIONS, INSTALL_HINT, AtariBoxing, variants

needs_ale = pytest.mark.skipif(not atari_boxing.ale_available(), reason=INSTALL_HINT)


def _play(game, seed, actions=None, rng_seed=0):
    state = game.new_initial_state(seed)
    rng = random.Random(rng_seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        action = actions(state) if actions else rng.choice(state.legal_actions(0))
        state.apply({0: Action(action)})
    return state


@needs_ale
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_short_bout_ends_on_the_clock_with_the_score_from_the_point_difference(seed):
    game = AtariBoxing(bout_seconds=5, frames_per_decision=20)
    state = _play(game, seed, rng_seed=seed)
    white, black = state.points
    assert state.frames == 5 * 60
    assert state.seconds_left == 0
    assert state.scores() == [pytest.approx(0.5 + (white - black) / 200)]
    assert 0.0 <= state.scores()[0] <= 1.0
    noop = random.Random(f"{seed}:noop").randint(0, 30)
    assert state.turn == -(-(300 - noop) // 20)  # every decision holds its action 20 frames, the last one fewer
    assert state.terminal_reason() == ("draw" if white == black else "win" if white > black else "loss")


@needs_ale
def test_same_seed_and_actions_replay_frame_for_frame_and_seeds_differ_in_the_start():
    game = AtariBoxing(bout_seconds=4, frames_per_decision=15)
    first, second = _play(game, 7, rng_seed=3), _play(game, 7, rng_seed=3)
    assert first.ram == second.ram and first.history == second.history
    assert game.observe(first, 0).image_png == game.observe(second, 0).image_png
    starts = {game.new_initial_state(seed).frames for seed in range(8)}
    assert len(starts) > 1 and all(0 <= frames <= 30 for frames in starts)


@needs_ale
def test_the_cartridge_plays_the_same_bout_under_any_ale_seed():
    from ale_py import ALEInterface, roms

    def bout(seed):
        ale = ALEInterface()
        ale.setInt("random_seed", seed)
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(roms.get_rom_path("boxing"))
        rams = []
        for frame in range(600):
            ale.act(ACTIONS.index("UPRIGHTFIRE") if frame % 7 else ACTIONS.index("DOWN"))
            rams.append(bytes(ale.getRAM()))
        return rams

    assert bout(1) == bout(12345)


@needs_ale
def test_ram_positions_follow_the_joystick():
    game = AtariBoxing(frames_per_decision=10)
    state = game.new_initial_state(0)
    (x0, y0), _ = state.positions
    state.apply({0: Action("RIGHT")})
    (x1, y1), _ = state.positions
    state.apply({0: Action("DOWN")})
    (x2, y2), _ = state.positions
    assert x1 - x0 > 5 and y1 == y0  # RIGHT moves x (byte 32) only
    assert y2 - y1 > 5 and abs(x2 - x1) <= 1  # DOWN moves y (byte 34); x keeps at most a step of momentum


@needs_ale
def test_score_bytes_agree_with_the_ale_reward():
    from ale_py import ALEInterface, roms

    ale = ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path("boxing"))
    rng, reward = random.Random(5), 0
    for _ in range(3000):
        reward += ale.act(rng.randrange(len(ACTIONS)))
    ram = ale.getRAM()
    white, black = atari_boxing._bcd(ram[18]), atari_boxing._bcd(ram[19])
    assert white + black > 0
    assert reward == white - black


@needs_ale
def test_observation_has_the_frame_and_the_positions_as_text():
    from PIL import Image

    game = AtariBoxing(variant="20s")
    state = game.new_initial_state(3)
    state.apply({0: Action("DOWNRIGHTFIRE")})
    observation = game.observe(state, 0)
    assert Image.open(io.BytesIO(observation.image_png)).size == (160, 210)
    (wx, wy), (bx, by) = state.positions
    assert f"You (white) at x={wx}, y={wy}; opponent (black) at x={bx}, y={by}" in observation.text
    assert observation.data["white"] == {"x": wx, "y": wy, "points": state.points[0]}
    assert observation.legal_actions == tuple(sorted(ACTIONS)) and len(ACTIONS) == 18
    assert game.canonical_action(state, 0, " rightfire ") == "RIGHTFIRE"


@needs_ale
def test_a_clone_plays_on_without_touching_the_original():
    game = AtariBoxing(variant="20s")
    state = game.new_initial_state(0)
    clone = state.clone()
    for _ in range(5):
        clone.apply({0: Action("RIGHTFIRE")})
    assert state.turn == 0 and clone.turn == 5
    assert clone.frames > state.frames and clone.positions != state.positions
    state.apply({0: Action("RIGHTFIRE")})
    again = game.new_initial_state(0)
    again.apply({0: Action("RIGHTFIRE")})
    assert state.ram == again.ram


def test_bad_options_name_the_option():
    with pytest.raises(ValueError, match="bout_seconds must be between 1 and 120, got 0"):
        AtariBoxing(bout_seconds=0)
    with pytest.raises(ValueError, match="frames_per_decision must be between 1 and 600, got 0"):
        AtariBoxing(frames_per_decision=0)
    with pytest.raises(ValueError, match="unknown atari_boxing variant '3min'; known: \\['20s', '2min'\\]"):
        AtariBoxing(variant="3min")
    assert AtariBoxing(variant="20s").info.max_turns == 41
    assert AtariBoxing().info.max_turns == 241


def test_without_ale_py_every_variant_is_skipped_with_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "ale_py", None)
    atari_boxing._emulator.cache_clear()
    try:
        assert [(v.name, v.skip) for v in variants({})] == [("20s", INSTALL_HINT), ("2min", INSTALL_HINT)]
        assert "pip install -e '.[atari]'" in INSTALL_HINT
    finally:
        atari_boxing._emulator.cache_clear()
