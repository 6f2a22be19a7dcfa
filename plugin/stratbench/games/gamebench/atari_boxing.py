"""Atari Boxing (GameBench's real-time game) through the Arcade Learning Environment.

GameBench lists Boxing as its one real-time game but collected no data on it
and published neither rules nor scoring, so the choices here are the
project's. The ALE plays one boxer only: the subject is the white boxer (one
player, one side) against the cartridge's built-in computer boxer (black).
Time runs on while the subject thinks in the sense that its answer is held
for a fixed number of frames (``frames_per_decision``, default 30: half a
second at 60 frames per second); then it decides again on the new frame.

The match ends when the bout clock runs out (the cartridge's 2 minutes, or
the shorter ``bout_seconds``: the ``20s`` variant) or on a knockout (100
points). The score is the final point difference mapped to [0, 1]:
``0.5 + (subject - computer) / 200``, so 0.5 is an even bout and a knockout
with a clean sheet is 1.

Determinism: sticky actions are off (``repeat_action_probability=0``) and
the ALE is seeded with a fixed ``random_seed``. With sticky actions off
nothing in Boxing draws on the ALE's random numbers (the cartridge's boxer
plays the same bout under any ALE seed: tested), so the match seed picks a
number of no-op frames (0-30) before the first decision instead, the usual
"no-op starts" evaluation protocol. The same seed and actions replay the
same bout frame for frame.

Positions and scores are read from the console's RAM: boxer x at bytes 32
(white) and 33 (black), y at 34 and 35, and the points as binary-coded
decimals at 18 (white) and 19 (black). The score bytes are those the ALE's
own Boxing reward reads (RAM 0x92 and 0x93 in console addresses); the
position bytes were found by experiment (holding RIGHT for 30 frames moves
byte 32 from 30 to 59; holding DOWN moves byte 34). Needs the ``atari``
extra (``ale-py``, which ships the Boxing ROM).
"""

from __future__ import annotations

import copy
import io
import random
from dataclasses import replace
from functools import cache
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol
from stratbench.registry import Variant

__all__ = [
    "ACTIONS", "INFO", "INSTALL_HINT", "RULES", "VARIANTS", "AtariBoxing", "AtariBoxingState", "ale_available",
    "variants",
]

INSTALL_HINT = "Atari Boxing needs the Arcade Learning Environment: pip install -e '.[atari]'"
FRAME_RATE = 60
"""Atari 2600 frames per second (NTSC)."""
BOUT_SECONDS = 120
"""The cartridge's bout length."""
KNOCKOUT = 100
"""Points that end the bout at once."""
MAX_NOOP_FRAMES = 30
"""The most no-op frames the seed puts before the first decision."""
ALE_SEED = 0
"""The ALE's own seed; with sticky actions off nothing in Boxing draws on it."""
VARIANTS = {"20s": 20, "2min": BOUT_SECONDS}
"""The variants a suite can play: bout lengths in seconds."""

ACTIONS = (
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
    "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
)
"""The joystick actions, in the ALE's numbering (0-17): FIRE punches."""

_X, _Y, _SCORE = (32, 33), (34, 35), (18, 19)
"""RAM bytes of the (white, black) boxers' x, y and points."""

INFO = GameInfo(
    name="atari_boxing",
    num_players=1,
    sides=((0,),),
    max_turns=BOUT_SECONDS * FRAME_RATE // 30 + 2,
    score_range=(0.0, 1.0),
    score_sum=None,
    family="gamebench",
)

RULES = Rules(
    title="Atari Boxing",
    summary=(
        "Atari 2600 Boxing, seen from above. You are the white boxer; the black boxer is the console's "
        "computer player. Each decision picks a joystick action that is held for a fixed number of frames while "
        "the game keeps running. Land punches to score: a long jab is 1 point and a close power punch 2. The "
        "bout ends when the clock runs out or when a boxer reaches 100 points (a knockout). You win by scoring "
        "more points than your opponent."
    ),
    topics={
        "Actions": (
            "UP, DOWN, LEFT, RIGHT and the diagonals (UPRIGHT, UPLEFT, DOWNRIGHT, DOWNLEFT) move your boxer; FIRE "
            "throws a punch; a direction followed by FIRE moves and punches; NOOP does nothing."
        ),
        "Punching": (
            "A punch scores only when your glove reaches the opponent's head. Boxers cannot pass through each "
            "other, and a boxer that is hit is pushed back."
        ),
        "Coordinates": (
            "x grows to the right and y grows downwards; the ring spans roughly x 30-109 and y 4-87."
        ),
        "Scoring": (
            "Your match score is 0.5 + (your points - opponent's points) / 200, between 0 and 1: 0.5 is an "
            "even bout."
        ),
    },
)

_INSTRUCTIONS = "Answer with one action name exactly as listed (for example RIGHTFIRE)."


def _bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


@cache
def _emulator() -> tuple[Any, Any]:
    """Returns this process's emulator with the Boxing ROM loaded, and its power-on state.

    Every bout restores its own saved state into this one emulator; loading the
    ROM (about half a second) happens once per process.
    """
    try:
        from ale_py import ALEInterface, LoggerMode, roms  # optional: the [atari] extra
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    ALEInterface.setLoggerMode(LoggerMode.Error)
    ale = ALEInterface()
    ale.setInt("random_seed", ALE_SEED)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path("boxing"))
    return ale, ale.cloneState(include_rng=True)


def ale_available() -> bool:
    """Tells whether ale-py and its Boxing ROM can be loaded here."""
    try:
        _emulator()
    except (ImportError, RuntimeError, OSError):
        return False
    return True


def variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the bout lengths ``20s`` and ``2min``; each is skipped when ale-py is missing."""
    skip = None if ale_available() else INSTALL_HINT
    return [Variant(name, skip) for name in VARIANTS]


class AtariBoxingState(State):
    """A bout in progress: the emulator's saved state and what was read from the last frame.

    Attributes:
        snapshot: The ALE's saved state after the last decision (random state included).
        ram: The console RAM at that point.
        screen: The RGB frame at that point (210 x 160 x 3).
        frames: Frames played since the bout began (no-op start frames included).
        knockout: Whether a boxer reached 100 points.
    """

    def __init__(self, game: AtariBoxing, seed: int) -> None:
        super().__init__(game)
        ale, start = _emulator()
        ale.restoreState(start)
        for _ in range(random.Random(f"{seed}:noop").randint(0, MAX_NOOP_FRAMES)):
            ale.act(0)
        self._read(ale)

    def _read(self, ale: Any) -> None:
        self.snapshot = ale.cloneState(include_rng=True)
        self.ram = bytes(ale.getRAM())
        self.screen = ale.getScreenRGB()
        self.frames = ale.getEpisodeFrameNumber()
        self.knockout = ale.game_over() and max(self.points) >= KNOCKOUT
        self._over = ale.game_over()

    @property
    def points(self) -> tuple[int, int]:
        """Returns the (white, black) points."""
        return _bcd(self.ram[_SCORE[0]]), _bcd(self.ram[_SCORE[1]])

    @property
    def positions(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Returns the (white, black) boxers' ``(x, y)``."""
        return (self.ram[_X[0]], self.ram[_Y[0]]), (self.ram[_X[1]], self.ram[_Y[1]])

    @property
    def seconds_left(self) -> float:
        """Returns the bout time left in seconds."""
        game = self.game
        assert isinstance(game, AtariBoxing)
        return max(0.0, game.bout_seconds - self.frames / FRAME_RATE)

    def _current_players(self) -> list[int]:
        return [0]

    def _legal_actions(self, player: int) -> list[str]:
        return sorted(ACTIONS)

    def _apply(self, actions: dict[int, Action]) -> None:
        game = self.game
        assert isinstance(game, AtariBoxing)
        code = ACTIONS.index(actions[0].id)
        ale, _ = _emulator()
        ale.restoreState(self.snapshot)
        limit = game.bout_seconds * FRAME_RATE
        for _ in range(game.frames_per_decision):
            if ale.game_over() or ale.getEpisodeFrameNumber() >= limit:
                break
            ale.act(code)
        self._read(ale)

    def _is_terminal(self) -> bool:
        return self._over or self.seconds_left <= 0

    def _scores(self) -> list[float]:
        white, black = self.points
        return [min(1.0, max(0.0, 0.5 + (white - black) / (2 * KNOCKOUT)))]

    def _terminal_reason(self) -> str:
        white, black = self.points
        result = "draw" if white == black else ("win" if white > black else "loss")
        return f"knockout {result}" if self.knockout else result

    def __deepcopy__(self, memo: dict[int, Any]) -> AtariBoxingState:
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            # The emulator's saved state is immutable once taken; the frame is never written to.
            shared = name in ("snapshot", "screen", "game")
            clone.__dict__[name] = value if shared else copy.deepcopy(value, memo)
        return clone


class AtariBoxing(ProtocolGame):
    """Atari Boxing against the cartridge's computer boxer.

    Args:
        variant: ``"20s"`` or ``"2min"`` (a bout length from :data:`VARIANTS`);
            None keeps ``bout_seconds``.
        bout_seconds: The bout length in seconds (1-120; the cartridge's is 120).
        frames_per_decision: Frames each answer is held for (1-600).
    """

    info = INFO
    rules = RULES

    def __init__(self, variant: str | None = None, bout_seconds: int = BOUT_SECONDS,
                 frames_per_decision: int = 30, protocol: str = "default") -> None:
        self.protocol = check_protocol(protocol)
        if variant is not None:
            if variant not in VARIANTS:
                raise ValueError(f"unknown atari_boxing variant {variant!r}; known: {sorted(VARIANTS)}")
            bout_seconds = VARIANTS[variant]
        if not 1 <= bout_seconds <= BOUT_SECONDS:
            raise ValueError(f"bout_seconds must be between 1 and {BOUT_SECONDS}, got {bout_seconds}")
        if not 1 <= frames_per_decision <= 600:
            raise ValueError(f"frames_per_decision must be between 1 and 600, got {frames_per_decision}")
        self.bout_seconds = bout_seconds
        self.frames_per_decision = frames_per_decision
        decisions = -(-bout_seconds * FRAME_RATE // frames_per_decision) + 1
        self.info = replace(INFO, max_turns=decisions)

    def new_initial_state(self, seed: int) -> AtariBoxingState:
        """Returns the bout after the seed's no-op start frames."""
        return AtariBoxingState(self, seed)

    def role(self, player: int) -> str:
        """Returns ``"White"``: the subject's boxer."""
        return "White"

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the frame as a PNG, with positions, points and time left as text."""
        assert isinstance(state, AtariBoxingState)
        (wx, wy), (bx, by) = state.positions
        white, black = state.points
        text = "\n".join([
            "You are the white boxer; the black boxer is the computer.",
            f"Time left: {state.seconds_left:.1f} s. Each action is held for "
            f"{self.frames_per_decision / FRAME_RATE:.2f} s ({self.frames_per_decision} frames).",
            f"Points: you {white}, opponent {black}.",
            f"You (white) at x={wx}, y={wy}; opponent (black) at x={bx}, y={by} "
            f"(dx={bx - wx:+d}, dy={by - wy:+d}).",
        ])
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role="White",
            turn=state.turn,
            image_png=_png(state.screen),
            data={
                "white": {"x": wx, "y": wy, "points": white},
                "black": {"x": bx, "y": by, "points": black},
                "seconds_left": round(state.seconds_left, 3),
                "frames_per_decision": self.frames_per_decision,
            },
        )


def _png(screen: Any) -> bytes:
    from PIL import Image  # lean: PIL only when a frame is drawn

    buffer = io.BytesIO()
    Image.fromarray(screen).save(buffer, format="PNG")
    return buffer.getvalue()
