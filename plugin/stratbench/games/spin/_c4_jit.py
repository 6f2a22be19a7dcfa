"""The Connect Four negamax compiled with numba (imported only when the solver first needs it).

The same search as :func:`stratbench.games.spin.c4_solver._make_search` (without
the opening books), over 64-bit integers: bitboards, fail-soft alpha-beta,
the non-losing moves mask, early bounds, moves ordered by the winning cells
they create (centre first among equals), and a fixed-size transposition
table with compact keys: the slot is ``key % TABLE_SIZE`` (a prime) and the
slot keeps ``key % 2**32``, which together identify any key below
``TABLE_SIZE * 2**32`` (every key is below ``2**49``). Values use the Python
search's encoding (lower bounds above :data:`_LOWER`, upper bounds below,
0 empty). Compiled code is cached on disk (``cache=True``).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["TABLE_SIZE", "new_scratch", "new_table", "search"]

TABLE_SIZE = (1 << 23) + 9
"""Slots of the transposition table (a prime above ``2**17``, so compact keys stay unique)."""

_WIDTH = 7
_HEIGHT = 6
_CELLS = 42
_BOTTOM = sum(1 << (c * 7) for c in range(7))
_BOARD = _BOTTOM * 63
_MIN = -18
_MAX = 18
_LOWER = _MAX - _MIN + 1
_LOWER_SHIFT = 2 * _MIN - _MAX - 2
_LOWER_STORE = _MAX - 2 * _MIN + 2
_UPPER_SHIFT = _MIN - 1
_KEY_MASK = (1 << 32) - 1
_ORDER_COLUMNS = np.array([63 << (c * 7) for c in (3, 2, 4, 1, 5, 0, 6)], dtype=np.int64)


def new_scratch() -> np.ndarray:
    """Returns the per-search scratch array: one move list per ply and the node counter."""
    return np.zeros((_CELLS + 1, 14), dtype=np.int64)


def new_table() -> tuple[np.ndarray, np.ndarray]:
    """Returns an empty table: the compact keys and the encoded values."""
    return np.zeros(TABLE_SIZE, dtype=np.uint32), np.zeros(TABLE_SIZE, dtype=np.int8)


@numba.njit(cache=True, nogil=True)
def _winning(p: int, mask: int) -> int:
    a7, b7, a6, b6, a8, b8 = p << 7, p >> 7, p << 6, p >> 6, p << 8, p >> 8
    a14, b14, a12, b12, a16, b16 = a7 << 7, b7 >> 7, a6 << 6, b6 >> 6, a8 << 8, b8 >> 8
    r = (p << 1) & (p << 2) & (p << 3)
    r |= (a7 & a14 & ((a14 << 7) | b7)) | (b7 & b14 & (a7 | (b14 >> 7)))
    r |= (a6 & a12 & ((a12 << 6) | b6)) | (b6 & b12 & (a6 | (b12 >> 6)))
    r |= (a8 & a16 & ((a16 << 8) | b8)) | (b8 & b16 & (a8 | (b16 >> 8)))
    return r & (_BOARD ^ mask)


@numba.njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def search(current, mask, moves, alpha, beta, keys, values, scratch):
    """Returns a fail-soft bound of the score; the mover must not be able to win at once.

    ``scratch`` is :func:`new_scratch`'s array: row ``moves`` holds that ply's move list, and
    ``scratch[_CELLS, 0]`` counts the nodes searched.
    """
    scratch[_CELLS, 0] += 1
    opponent = current ^ mask
    threats = _winning(opponent, mask)
    possible = (mask + _BOTTOM) & _BOARD
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -((_CELLS - moves) // 2)
        possible = forced
    possible &= ~(threats >> 1)
    if not possible:
        return -((_CELLS - moves) // 2)
    if moves >= _CELLS - 2:
        return 0
    low = -((_CELLS - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    key = current + mask
    slot = key % TABLE_SIZE
    compact = key & _KEY_MASK
    if keys[slot] == compact:
        stored = np.int64(values[slot])
        if stored > _LOWER:
            bound = stored + _LOWER_SHIFT
            if alpha < bound:
                alpha = bound
                if alpha >= beta:
                    return alpha
        elif stored > 0:
            bound = stored + _UPPER_SHIFT
            if beta > bound:
                beta = bound
                if alpha >= beta:
                    return beta
    high = (_CELLS - 1 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # Move lists live in one scratch row per ply (no allocation per node).
    count = 0
    for index in range(7):
        move = possible & _ORDER_COLUMNS[index]
        if move:
            weight = _popcount(_winning(current | move, mask))
            position = count
            # Stable insertion, highest weight first (ties keep the centre-first order).
            while position > 0 and scratch[moves, 2 * position - 1] < weight:
                scratch[moves, 2 * position] = scratch[moves, 2 * position - 2]
                scratch[moves, 2 * position + 1] = scratch[moves, 2 * position - 1]
                position -= 1
            scratch[moves, 2 * position] = move
            scratch[moves, 2 * position + 1] = weight
            count += 1
    for index in range(count):
        move = scratch[moves, 2 * index]
        score = -search(opponent, mask | move, moves + 1, -beta, -alpha, keys, values, scratch)
        if score >= beta:
            keys[slot] = compact
            values[slot] = score + _LOWER_STORE
            return score
        alpha = max(alpha, score)
    keys[slot] = compact
    values[slot] = alpha - _UPPER_SHIFT
    return alpha
