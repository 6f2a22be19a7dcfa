"""Nim, normal play: two players take turns removing one or more tokens from a single heap; whoever takes the
last token wins.

This is the classic rule set analysed by Bouton (1901): any number of tokens,
from 1 up to the whole heap, may be taken from one heap per turn, and there is
no upper limit per move. A position is lost for the player to move exactly
when the nim-sum (the bitwise XOR of the heap sizes) is zero.

The heaps are the game's variant, named by their sizes joined with dashes
(``3-4-5``, the default), so a match's test id names the heaps it is played
with; the start is then the same for every seed (the game has no chance).
The variant ``random`` draws the heaps from the match's seed instead
(:data:`RANDOM_HEAPS` heaps of 1 to :data:`RANDOM_HEAP_SIZE` tokens): the seed,
already in the test id, then decides the start.

Actions are ``heap:count`` with heaps numbered from 1 (``2:3`` takes three
tokens from heap 2). The winner scores 1 and the loser 0; the scores always
sum to 1 (there are no draws).
"""

from __future__ import annotations

import random
import re
from functools import reduce
from operator import xor
from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.types import Action, Observation, Rules
from stratbench.registry import Variant

NAME = "nim/nim"
"""The registered game name, namespaced by the family as third-party names are."""
DEFAULT_HEAPS = (3, 4, 5)
MAX_HEAPS = 8
MAX_HEAP_SIZE = 30
RANDOM = "random"
"""The variant (and ``--nim-heaps`` value) whose heaps are drawn from each match's seed."""
RANDOM_HEAPS = (3, 5)
"""The fewest and most heaps of a ``random`` start."""
RANDOM_HEAP_SIZE = 7

RULES = Rules(
    title="Nim",
    summary=(
        "There are several heaps of tokens. Two players take turns; on your turn you choose one heap that is not "
        "empty and remove one or more tokens from it (as many as you like, up to the whole heap). You may take "
        "from one heap only. The player who takes the last token wins.\n"
        "Your action is written heap:count, with heaps numbered from 1: '2:3' removes three tokens from heap 2."
    ),
)


def nim_sum(heaps: tuple[int, ...] | list[int]) -> int:
    """The bitwise XOR of the heap sizes: zero exactly when the player to move loses against perfect play.

    Examples:
        >>> nim_sum((3, 4, 5))
        2
        >>> nim_sum((1, 2, 3))
        0
    """
    return reduce(xor, heaps, 0)


def seeded_heaps(seed: int) -> tuple[int, ...]:
    """The heaps of a ``random`` start for ``seed``: 3 to 5 heaps of 1 to 7 tokens."""
    rng = random.Random(f"nim-{seed}")
    return tuple(rng.randint(1, RANDOM_HEAP_SIZE) for _ in range(rng.randint(*RANDOM_HEAPS)))


def parse_heaps(text: str) -> tuple[int, ...]:
    """Reads heap sizes written ``3,4,5`` (an option) or ``3-4-5`` (a variant name).

    Raises:
        ValueError: naming what is wrong (not a whole number, out of range, too many heaps).

    Examples:
        >>> parse_heaps("3,4,5")
        (3, 4, 5)
    """
    parts = [part.strip() for part in re.split(r"[,-]", text.strip())]
    if not all(part.isdigit() for part in parts):
        raise ValueError(f"heap sizes must be whole numbers separated by commas (like 3,4,5) or 'random', got {text!r}")
    heaps = tuple(int(part) for part in parts)
    if not 1 <= len(heaps) <= MAX_HEAPS:
        raise ValueError(f"between 1 and {MAX_HEAPS} heaps are allowed, got {len(heaps)}")
    if not all(1 <= heap <= MAX_HEAP_SIZE for heap in heaps):
        raise ValueError(f"each heap holds 1 to {MAX_HEAP_SIZE} tokens, got {text!r}")
    return heaps


def heaps_option(text: str) -> tuple[int, ...] | str:
    """Reads one ``--nim-heaps`` value: heap sizes (``3,4,5``) or ``random``."""
    return RANDOM if text.strip().lower() == RANDOM else parse_heaps(text)


def variant_name(heaps: tuple[int, ...] | str) -> str:
    """The variant (and test id part) of a heap set: ``3-4-5``, or ``random``."""
    return heaps if isinstance(heaps, str) else "-".join(str(heap) for heap in heaps)


def variants(options: dict[str, Any]) -> list[Variant]:
    """Lists one variant per heap set of ``--nim-heaps`` (``nim_heaps`` in the run's options; default 3,4,5)."""
    chosen = options.get("nim_heaps") or (DEFAULT_HEAPS,)
    return [Variant(variant_name(heaps)) for heaps in chosen]


def render(heaps: tuple[int, ...] | list[int]) -> str:
    """The heaps as text rows: ``heap 1: ooo (3)``."""
    return "\n".join(f"heap {i}: {'o' * size or '-'} ({size})" for i, size in enumerate(heaps, 1))


class NimState(State):
    """A Nim position: ``heaps`` holds the tokens left in each heap; ``last`` the move applied last."""

    def __init__(self, game: NimGame, heaps: tuple[int, ...]) -> None:
        super().__init__(game)
        self.start = heaps
        self.heaps = list(heaps)
        self.last: tuple[int, int] | None = None
        self.mover = 0

    def _current_players(self) -> list[int]:
        return [self.mover]

    def _legal_actions(self, player: int) -> list[str]:
        return [f"{heap}:{count}" for heap, size in enumerate(self.heaps, 1) for count in range(1, size + 1)]

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        heap, count = (int(part) for part in action.id.split(":"))
        self.heaps[heap - 1] -= count
        self.last = (heap, count)
        self.mover = 1 - player

    def _is_terminal(self) -> bool:
        return not any(self.heaps)

    def _scores(self) -> list[float]:
        winner = 1 - self.mover  # the player who took the last token
        return [1.0, 0.0] if winner == 0 else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        return f"player {1 - self.mover} took the last token"

    def __str__(self) -> str:
        return render(self.heaps)


class NimGame(Game):
    """The Nim rules engine for one heap set.

    Args:
        variant: The heaps, named ``3-4-5``, or ``random`` (drawn from each match's seed); None:
            :data:`DEFAULT_HEAPS`.
    """

    rules = RULES

    def __init__(self, variant: str | None = None) -> None:
        self.heaps: tuple[int, ...] | None = None if variant == RANDOM else (
            parse_heaps(variant) if variant is not None else DEFAULT_HEAPS)
        self.info = GameInfo(
            name=NAME,
            num_players=2,
            sides=((0,), (1,)),
            max_turns=sum(self.heaps) if self.heaps else RANDOM_HEAPS[1] * RANDOM_HEAP_SIZE,
            score_range=(0.0, 1.0),
            score_sum=1.0,
            family="nim",
        )

    def new_initial_state(self, seed: int) -> NimState:
        """Returns the full heaps: the variant's, or those ``seed`` draws for ``random``."""
        return NimState(self, self.heaps if self.heaps is not None else seeded_heaps(seed))

    def snapshot(self, state: State) -> dict[str, Any]:
        """The heaps, the starting heaps, the last move and the text board, for the replay viewer."""
        assert isinstance(state, NimState)
        last = None if state.last is None else {"heap": state.last[0], "count": state.last[1]}
        return {"heaps": list(state.heaps), "start": list(state.start), "last": last, "text": render(state.heaps)}

    def role(self, player: int) -> str:
        """``first`` or ``second``."""
        return ("first", "second")[player]

    def observe(self, state: State, player: int) -> Observation:
        """Returns the heaps and the legal moves (the whole position: Nim has no hidden information)."""
        assert isinstance(state, NimState)
        text = f"You are the {self.role(player)} player.\nHeaps:\n{render(state.heaps)}"
        return Observation(
            game=NAME,
            player=player,
            text=text,
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            instructions="Answer with heap:count, for example 1:2 to take two tokens from heap 1.",
            role=self.role(player),
            turn=state.turn,
            data={"heaps": list(state.heaps)},
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts ``heap:count`` and the same two numbers with other separators (``2 3``, ``2, 3``)."""
        numbers = re.fullmatch(r"\s*#?(\d+)\s*[:,\s-]\s*(\d+)\s*", text)
        if numbers is None:
            return None
        return super().canonical_action(state, player, f"{int(numbers[1])}:{int(numbers[2])}")
