"""Connect Four solver: published scores, brute force on late positions, the opening books.

Searches run on both paths where it matters: the numba-compiled negamax
(``jit=True``, skipped without numba) and the pure-Python one (``jit=False``).
"""

import random
from functools import cache

import pytest
from stratbench.games.spin.c4_solver import (
    OpeningBook,
    Position,
    Solver,
    book_value_to_score,
    default_solver,
    jit_available,
    move_scores,
    solve,
)
from stratbench.games.spin.connect_four import from_pons, winner_of

# Positions and scores published with Pascal Pons' solver tutorial (his notation).
PUBLISHED = [
    ("4455", 18),
    ("44455554221", -15),
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
]


needs_numba = pytest.mark.skipif(not jit_available(), reason="numba is not installed")
BOTH_PATHS = pytest.mark.parametrize("jit", [False, pytest.param(True, marks=needs_numba)], ids=["python", "numba"])


@BOTH_PATHS
@pytest.mark.parametrize(("sequence", "score"), PUBLISHED)
def test_published_positions_get_their_published_scores(sequence, score, jit):
    solver = Solver(jit=jit)
    assert solver.engine == ("numba" if jit else "python")
    assert solve(from_pons(sequence), solver) == score


def _brute_force(moves: tuple[int, ...]) -> int:
    """Plain minimax (no pruning, memoised on the board) over an independent win test."""
    columns = [[] for _ in range(7)]
    for index, column in enumerate(moves):
        columns[column].append(index % 2)
    return _minimax(tuple(tuple(c) for c in columns), len(moves))


@cache
def _minimax(columns: tuple[tuple[int, ...], ...], discs: int) -> int:
    mover = discs % 2
    best = None
    for column in range(7):
        if len(columns[column]) == 6:
            continue
        child = columns[:column] + (columns[column] + (mover,),) + columns[column + 1 :]
        if _fours(child, column, len(columns[column]), mover):
            value = 22 - (discs // 2 + 1)
        elif discs + 1 == 42:
            value = 0
        else:
            value = -_minimax(child, discs + 1)
        best = value if best is None else max(best, value)
    return best


def _fours(columns, column, row, mover) -> bool:
    def owner(c, r):
        return columns[c][r] if 0 <= c < 7 and 0 <= r < len(columns[c]) else None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while owner(c, r) == mover:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def _random_open_position(rng: random.Random, plies: int) -> list[int]:
    while True:
        position, moves = Position(), []
        for _ in range(plies):
            column = rng.choice([c for c in range(7) if position.can_play(c)])
            if position.is_winning_move(column):
                break
            position.play(column)
            moves.append(column)
        else:
            return moves


@BOTH_PATHS
@pytest.mark.parametrize("seed", range(12))
def test_late_positions_match_brute_force(seed, jit):
    rng = random.Random(seed)
    moves = _random_open_position(rng, rng.choice([30, 31, 32, 33]))
    solver = Solver(jit=jit)
    scores = solver.score_moves(Position.from_moves(moves))
    for column, score in scores.items():
        child = tuple(moves) + (column,)
        expected = 22 - (len(moves) // 2 + 1) if winner_of(child) else (0 if len(child) == 42 else -_brute_force(child))
        assert score == expected, (moves, column)
    assert solver.solve(Position.from_moves(moves)) == _brute_force(tuple(moves)) == max(scores.values())


@needs_numba
def test_compiled_and_python_searches_agree_on_middle_game_positions():
    rng = random.Random(7)
    compiled, python = Solver(jit=True), Solver(jit=False)
    for plies in (20, 21, 22, 23, 24, 25, 26, 27):
        moves = _random_open_position(rng, plies)
        position = Position.from_moves(moves)
        if position.can_win_next():
            continue
        assert compiled.score_moves(position) == python.score_moves(position), moves
        assert compiled.solve(position) == python.solve(position)
    assert compiled.nodes > 0 and python.nodes > 0


def test_forcing_the_compiled_search_without_numba_says_what_to_install(monkeypatch):
    import stratbench.games.spin.c4_solver as module

    monkeypatch.setattr(module, "jit_available", lambda: False)
    with pytest.raises(ImportError, match="numba"):
        Solver(jit=True)
    assert Solver().engine == "python"
    monkeypatch.setattr(module, "jit_available", lambda: True)
    monkeypatch.setenv("STRATBENCH_C4_JIT", "0")
    assert Solver().engine == "python"


def test_score_moves_lists_only_playable_columns_and_rejects_finished_games():
    moves = from_pons(PUBLISHED[2][0])
    position = Position.from_moves(moves)
    playable = {c for c in range(7) if position.can_play(c)}
    assert len(playable) < 7  # the position has a full column
    assert set(move_scores(moves, Solver())) == playable
    with pytest.raises(ValueError):
        Solver().score_moves(Position.from_moves(from_pons("1212121")))  # X already has four
    with pytest.raises(ValueError):
        Position.from_moves([0] * 7)


def test_book_values_convert_to_pons_scores():
    assert book_value_to_score(0, 12) == 0
    assert book_value_to_score(71, 12) == 1  # win in 29 plies: X's 21st disc
    assert book_value_to_score(-88, 12) == -10  # loss in 12 plies: O's 12th disc
    assert book_value_to_score(97, 12) == 14


needs_book = pytest.mark.skipif(not OpeningBook().available, reason="bitbully-databases is not installed")


@needs_book
def test_book_gives_the_documented_12_ply_scores():
    # The two 12-disc positions from bitbully-databases' documentation (top row first).
    assert _from_rows(_DOC_WIN).board() == _DOC_WIN
    book = default_solver().book
    assert book is not None
    assert book.score(_from_rows(_DOC_WIN)) == 1
    assert book.score(_from_rows(_DOC_LOSS)) == -10


@pytest.mark.slow
@needs_book
@needs_numba
def test_compiled_search_reproduces_the_12_ply_book_and_its_children():
    # The documented book position with a long win, searched without any book.
    book = default_solver().book
    assert Solver(jit=True).solve(_from_rows(_DOC_WIN)) == book.score(_from_rows(_DOC_WIN)) == 1
    # Seeded 12-disc positions: the columns of a booked position (13-disc children, searched
    # with the book score as a bound) against a search of every child with no book and no bound.
    rng = random.Random(12)
    for _ in range(3):
        position = Position.from_moves(_random_open_position(rng, 12))
        if position.can_win_next():
            continue
        booked = Solver(book, jit=True).score_moves(position)
        assert max(booked.values()) == book.score(position)
        assert Solver(jit=True).score_moves(position) == booked


@pytest.mark.slow
@needs_book
def test_published_move_scores_of_early_positions():
    solver = default_solver()
    # The empty board (SPIN-Bench's service hard-codes these; bitbully documents them).
    assert solver.score_moves(Position()) == {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}
    # The centre column filled (bitbully's documentation).
    assert move_scores([3] * 6) == {0: -1, 1: 0, 2: 1, 4: 1, 5: 0, 6: -1}
    # X to play after 445566 wins at once in columns 3 and 7 (its 4th disc).
    scores = move_scores(from_pons("445566"))
    assert scores[2] == scores[6] == 22 - 4 == max(scores.values())


_DOC_WIN = [
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0],
    [0, 1, 0, 2, 0, 0, 0],
    [0, 2, 0, 1, 0, 2, 0],
    [0, 1, 0, 2, 0, 1, 0],
    [0, 2, 0, 1, 0, 2, 0],
]
_DOC_LOSS = [
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 1, 1, 0, 0, 0],
    [0, 0, 2, 2, 0, 0, 0],
    [0, 1, 2, 1, 0, 0, 0],
    [0, 1, 1, 2, 0, 2, 2],
]


def _from_rows(rows: list[list[int]]) -> Position:
    """Builds a position from rows (top first) by dropping the discs column by column.

    Only valid for boards whose discs can be dropped in any order (no win on the board).
    """
    first, mask = 0, 0
    for row_index, row in enumerate(rows):
        height = 5 - row_index
        for column, cell in enumerate(row):
            if cell:
                bit = 1 << (column * 7 + height)
                mask |= bit
                if cell == 1:
                    first |= bit
    discs = mask.bit_count()
    current = first if discs % 2 == 0 else first ^ mask
    return Position(current, mask, discs)
