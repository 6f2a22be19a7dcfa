"""A perfect Connect Four solver: exact scores in Pascal Pons' convention.

The score of a position is for the player to move: positive when that player
wins, ``22 - n`` where ``n`` is the number of discs the winner has dropped
when the game ends under perfect play (the winner hurries, the loser delays);
negative, by the same count, when the player to move loses; 0 for a draw.
Pons' examples: ``4455`` scores 18 and ``44455554221`` scores -15.

Early positions use the MIT-licensed ``bitbully-databases`` opening books,
read only through their public reader (:class:`bitbully_databases.BitBullyDatabases`):
12-disc positions get their exact score from the 12-ply book with win
distances, and the 8-ply book bounds 8-disc positions by their outcome;
positions with fewer than 12 discs are searched down to the books, probing
scores from 0 outwards (MTD(f)). Positions past the book are searched:
bitboards, negamax alpha-beta with null-window probes that narrow the score
from its ends towards 0, a transposition table, and moves ordered by the
threats they create. Without the book package everything is searched
(correct, but far too slow for early positions).

Past the book the search runs compiled with numba when it is installed
(:mod:`stratbench.games.spin._c4_jit`, the same algorithm over 64-bit integers
with a fixed-size table of compact keys), else in pure Python; the scores are
the same. Scoring the columns of a booked 12-disc position searches its
13-disc children with the position's book score as a bound.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Iterable, Sequence

__all__ = [
    "BOOK_PLIES",
    "MAX_SCORE",
    "MIN_SCORE",
    "OUTCOME_PLIES",
    "OpeningBook",
    "Position",
    "Solver",
    "book_value_to_score",
    "default_solver",
    "jit_available",
    "move_scores",
    "solve",
]

WIDTH = 7
HEIGHT = 6
_H1 = HEIGHT + 1
_CELLS = WIDTH * HEIGHT
_BOTTOM = sum(1 << (c * _H1) for c in range(WIDTH))
_BOARD = _BOTTOM * ((1 << HEIGHT) - 1)
_COLUMN = tuple(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH))
_TOP = tuple(1 << (HEIGHT - 1 + c * _H1) for c in range(WIDTH))
_BOTTOM_CELL = tuple(1 << (c * _H1) for c in range(WIDTH))
_ORDER = (3, 2, 4, 1, 5, 0, 6)
MIN_SCORE = -(_CELLS // 2) + 3
"""The lowest score a position can have (-18: lost with the opponent's 4th disc)."""
MAX_SCORE = (_CELLS + 1) // 2 - 3
"""The highest score of a position where the mover cannot win at once (18)."""
_LOWER = MAX_SCORE - MIN_SCORE + 1
BOOK_PLIES = 12
"""Positions with this many discs get their exact score from the opening book."""
OUTCOME_PLIES = 8
"""Positions with this many discs get their outcome (win, draw, loss) from the 8-ply book."""
_TABLE_LIMIT = 3_000_000


class Position:
    """A position as two bitboards: the mover's discs and all discs.

    Bit ``7 * column + row`` is a cell (row 0 at the bottom); each column has
    one spare bit on top, so shifted lines never wrap between columns.

    Attributes:
        current: The discs of the player to move.
        mask: Every disc on the board.
        moves: How many discs have been dropped.
    """

    __slots__ = ("current", "mask", "moves")

    def __init__(self, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves

    @classmethod
    def from_moves(cls, columns: Iterable[int]) -> Position:
        """Plays 0-based ``columns`` from the empty board.

        Raises:
            ValueError: if a column is full or out of range, or a move follows a win.
        """
        position = cls()
        won = False
        for index, column in enumerate(columns):
            if won:
                raise ValueError(f"move {index} follows a win")
            if not 0 <= column < WIDTH or not position.can_play(column):
                raise ValueError(f"move {index}: column {column} is not playable")
            won = position.is_winning_move(column)
            position.play(column)
        return position

    def can_play(self, column: int) -> bool:
        """Tells whether ``column`` is not full."""
        return not self.mask & _TOP[column]

    def play(self, column: int) -> None:
        """Drops the mover's disc into ``column``; the other player moves next."""
        self.current ^= self.mask
        self.mask |= self.mask + _BOTTOM_CELL[column]
        self.moves += 1

    def is_winning_move(self, column: int) -> bool:
        """Tells whether dropping into ``column`` makes four in a row for the mover."""
        return bool(_winning_cells(self.current, self.mask) & (self.mask + _BOTTOM) & _COLUMN[column])

    def can_win_next(self) -> bool:
        """Tells whether the mover has a winning move."""
        return bool(_winning_cells(self.current, self.mask) & (self.mask + _BOTTOM) & _BOARD)

    def key(self) -> int:
        """Returns a unique integer for the position."""
        return self.current + self.mask

    def copy(self) -> Position:
        """Returns an independent copy."""
        return Position(self.current, self.mask, self.moves)

    def board(self) -> list[list[int]]:
        """Returns rows top to bottom, 1 for the first player's discs, 2 for the second's, 0 empty."""
        first = self.current if self.moves % 2 == 0 else self.current ^ self.mask
        rows = [[0] * WIDTH for _ in range(HEIGHT)]
        for column in range(WIDTH):
            shift = column * _H1
            filled = ((self.mask >> shift) & 63).bit_length()
            mine = first >> shift
            for row in range(filled):
                rows[HEIGHT - 1 - row][column] = 1 if (mine >> row) & 1 else 2
        return rows


class OpeningBook:
    """Book knowledge from the ``bitbully-databases`` package, read through its public reader.

    Two databases are used: the 12-ply book with win distances gives the
    exact score of 12-disc positions, and the 8-ply book gives the outcome
    (win, draw or loss) of 8-disc positions. Each is memory-mapped on first
    use (:mod:`stratbench.games.spin.c4_book`): processes share one copy of the
    files in the page cache instead of each reading 0.5 GB into lists.
    Book values are from the first player's view, who is to move at 8 and at
    12 discs; lookups are cached.
    """

    def __init__(self) -> None:
        self.available = _book_importable()
        self._databases: dict[str, object] = {}
        self._exact: dict[int, int | None] = {}
        self._outcome: dict[int, int] = {}
        self._lock = threading.Lock()

    def _database(self, name: str):
        database = self._databases.get(name)
        if database is None:
            with self._lock:
                database = self._databases.get(name)
                if database is None:
                    from stratbench.games.spin.c4_book import MappedDatabase  # lean: the book loads at its first lookup

                    database = MappedDatabase(name)
                    self._databases[name] = database
        return database

    def load(self) -> None:
        """Reads both databases now instead of on first use."""
        if self.available:
            self._database("12-ply-dist")
            self._database("8-ply")

    def clear_cache(self) -> None:
        """Forgets cached lookups (the databases stay loaded)."""
        self._exact.clear()
        self._outcome.clear()

    def score(self, position: Position) -> int | None:
        """Returns the exact Pons score of a 12-disc position, or None when the book lacks it."""
        if not self.available or position.moves != BOOK_PLIES:
            return None
        key = position.key()
        if key not in self._exact:
            value = self._database("12-ply-dist").get_book_value(position.board())
            self._exact[key] = None if value is None else book_value_to_score(value, position.moves)
        return self._exact[key]

    def outcome(self, position: Position) -> int | None:
        """Returns the sign of an 8-disc position's score (1 win, 0 draw, -1 loss for the mover).

        The 8-ply book stores draws and losses of the first player; a position
        it lacks is a first-player win.
        """
        if not self.available or position.moves != OUTCOME_PLIES:
            return None
        key = position.key()
        found = self._outcome.get(key)
        if found is None:
            value = self._database("8-ply").get_book_value(position.board())
            found = self._outcome[key] = 0 if value == 0 else (1 if value > 0 else -1)
        return found


def book_value_to_score(value: int, discs: int) -> int:
    """Converts a book value (first player's view, distance-coded) to the mover's Pons score.

    At an even number of discs the first player is to move. A win in ``d``
    plies means the mover's winning disc is its ``(discs + d + 1) / 2``-th; a
    loss in ``d`` plies ends on the opponent's ``(discs + d) / 2``-th disc.

    Examples:
        >>> book_value_to_score(71, 12)
        1
        >>> book_value_to_score(-88, 12)
        -10
    """
    if value == 0:
        return 0
    distance = 100 - abs(value)
    sign = 1 if discs % 2 == 0 else -1
    if value > 0:
        return sign * (_CELLS // 2 + 1 - (discs + distance + 1) // 2)
    return -sign * (_CELLS // 2 + 1 - (discs + distance) // 2)


class Solver:
    """Computes exact scores; keeps a transposition table between calls.

    Positions past the book (and every position when there is no book) are
    searched by the numba-compiled negamax when numba is installed, else by
    the pure-Python one; both return the same exact scores.

    Args:
        book: The opening book; None searches everything.
        jit: Whether to use the compiled search: None uses it when numba is
            importable and ``STRATBENCH_C4_JIT`` is not ``0``.

    Raises:
        ImportError: if ``jit=True`` and numba is not installed.
    """

    def __init__(self, book: OpeningBook | None = None, *, jit: bool | None = None) -> None:
        self.book = book
        if jit is None:
            jit = os.environ.get("STRATBENCH_C4_JIT", "1") != "0" and jit_available()
        elif jit and not jit_available():
            raise ImportError("the compiled Connect Four search needs numba: pip install numba")
        self.jit = jit
        self.table: dict[int, int] = {}
        self.nodes = 0
        self._jit_table: tuple | None = None
        self._scores: dict[tuple[int, int], dict[int, int]] = {}
        self._lock = threading.Lock()

    @property
    def engine(self) -> str:
        """Names the search past the book: ``"numba"`` or ``"python"``."""
        return "numba" if self.jit else "python"

    def describe(self) -> dict[str, object]:
        """Returns the solver's settings as a small JSON-able dict (for match records).

        ``book`` is None when positions are only searched; otherwise it names
        the package, its version and the ply counts it answers.
        """
        book = None
        if self.book is not None and self.book.available:
            book = {
                "package": "bitbully-databases",
                "version": _version("bitbully-databases"),
                "exact_plies": BOOK_PLIES,
                "outcome_plies": OUTCOME_PLIES,
            }
        return {"solver": "stratbench.c4_solver", "search": self.engine, "book": book}

    def uses_book(self, position: Position) -> bool:
        """Tells whether scoring the columns of ``position`` reaches the book (fewer than 12 discs)."""
        return self.book is not None and self.book.available and position.moves < BOOK_PLIES

    def solve(self, position: Position) -> int:
        """Returns the exact score of ``position`` for the player to move.

        Raises:
            ValueError: if the game is already over (four in a row or a full board).
        """
        with self._lock:
            return self._solve(position)

    def score_moves(self, position: Position) -> dict[int, int]:
        """Returns the exact score of each playable column for the player to move.

        The score of a column is the score the mover gets by playing it:
        ``(43 - discs) // 2`` for an immediate win, else minus the score of the
        position after it.
        """
        cache_key = (position.current, position.mask)
        with self._lock:
            cached = self._scores.get(cache_key)
            if cached is not None:
                return dict(cached)
            _check_open(position)
            # A booked parent bounds every move from above: no column beats the position's score.
            parent = self.book.score(position) if self.book is not None else None
            floor = None if parent is None else -parent
            scores: dict[int, int] = {}
            for column in range(WIDTH):
                if not position.can_play(column):
                    continue
                if position.is_winning_move(column):
                    scores[column] = (_CELLS + 1 - position.moves) // 2
                    continue
                child = position.copy()
                child.play(column)
                scores[column] = 0 if child.moves == _CELLS else -self._solve(child, floor)
            if len(self._scores) > 200_000:
                self._scores.clear()
            self._scores[cache_key] = scores
            return dict(scores)

    def _solve(self, position: Position, floor: int | None = None) -> int:
        """Returns the exact score; ``floor``, when given, is a known lower bound of it."""
        _check_open(position)
        if position.can_win_next():
            return (_CELLS + 1 - position.moves) // 2
        if self.book is not None and position.moves == BOOK_PLIES:
            booked = self.book.score(position)
            if booked is not None:
                return booked
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()
        low = -((_CELLS - position.moves) // 2)
        high = (_CELLS + 1 - position.moves) // 2
        if floor is not None and floor > low:
            low = min(floor, high)
        current, mask, moves = position.current, position.mask, position.moves
        search = self._search
        if self.jit and (self.book is None or moves >= BOOK_PLIES):
            search = self._search_jit
        if self.book is not None and moves < BOOK_PLIES:
            # Before the book, scores are small: probe from 0 outwards (MTD(f)).
            guess = 0
            while low < high:
                beta = max(guess, low + 1)
                guess = search(current, mask, moves, beta - 1, beta)
                if guess < beta:
                    high = guess
                else:
                    low = guess
            return low
        # Past the book, narrow the window from its ends towards 0 (Pons' order).
        while low < high:
            middle = low + (high - low) // 2
            if middle <= 0 and _half(low) < middle:
                middle = _half(low)
            elif middle >= 0 and _half(high) > middle:
                middle = _half(high)
            result = search(current, mask, moves, middle, middle + 1)
            if result <= middle:
                high = result
            else:
                low = result
        return low

    def _search_jit(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Runs one alpha-beta search with the compiled negamax (no book), counting its nodes."""
        from stratbench.games.spin import _c4_jit  # lean: _c4_jit loads numba

        if self._jit_table is None:
            self._jit_table = _c4_jit.new_table()
        keys, values = self._jit_table
        scratch = _c4_jit.new_scratch()
        try:
            return int(_c4_jit.search(current, mask, moves, alpha, beta, keys, values, scratch))
        finally:
            self.nodes += int(scratch[_CELLS, 0])

    def _search(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Runs one alpha-beta search (see :func:`_make_search`), counting its nodes."""
        counter = [0]
        search = _make_search(self.table, self.book, counter)
        try:
            return search(current, mask, moves, alpha, beta)
        finally:
            self.nodes += counter[0]


def _make_search(table: dict[int, int], book: OpeningBook | None, counter: list[int]):
    """Returns the negamax search bound to a transposition table and a book.

    The search assumes the mover cannot win at once; it returns a fail-soft
    bound: a result at or below ``alpha`` is an upper bound of the score, one
    at or above ``beta`` a lower bound, anything between is exact. Table
    entries encode a lower bound as ``score + MAX - 2 * MIN + 2`` and an upper
    bound as ``score - MIN + 1``, so every entry is positive.
    """
    winning = _winning_cells
    board, bottom, cells = _BOARD, _BOTTOM, _CELLS
    columns = tuple(_COLUMN[c] for c in _ORDER)
    lower_mark = _LOWER
    lower_shift = 2 * MIN_SCORE - MAX_SCORE - 2
    lower_store = MAX_SCORE - 2 * MIN_SCORE + 2
    upper_shift = MIN_SCORE - 1
    book_plies = BOOK_PLIES if book is not None else -1
    outcome_plies = OUTCOME_PLIES if book is not None else -1
    get = table.get

    def search(current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        counter[0] += 1
        opponent = current ^ mask
        threats = winning(opponent, mask)
        possible = (mask + bottom) & board
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return -((cells - moves) // 2)
            possible = forced
        possible &= ~(threats >> 1)
        if not possible:
            return -((cells - moves) // 2)
        if moves >= cells - 2:
            return 0
        low = -((cells - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        key = current + mask
        stored = get(key)
        if stored is not None:
            if stored > lower_mark:
                bound = stored + lower_shift
                if alpha < bound:
                    alpha = bound
                    if alpha >= beta:
                        return alpha
            else:
                bound = stored + upper_shift
                if beta > bound:
                    beta = bound
                    if alpha >= beta:
                        return beta
        if moves == book_plies:
            booked = book.score(Position(current, mask, moves))
            if booked is not None:
                return booked
        elif moves == outcome_plies:
            outcome = book.outcome(Position(current, mask, moves))
            if outcome == 0:
                return 0
            if outcome == 1:
                if alpha < 1:
                    alpha = 1
                    if alpha >= beta:
                        return alpha
            elif beta > -1:
                beta = -1
                if alpha >= beta:
                    return beta
        high = (cells - 1 - moves) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        if possible & (possible - 1):
            ordered = []
            for column in columns:
                move = possible & column
                if move:
                    ordered.append((winning(current | move, mask).bit_count(), move))
            ordered.sort(key=_first, reverse=True)
            for _, move in ordered:
                score = -search(opponent, mask | move, moves + 1, -beta, -alpha)
                if score >= beta:
                    table[key] = score + lower_store
                    return score
                alpha = max(alpha, score)
        else:
            score = -search(opponent, mask | possible, moves + 1, -beta, -alpha)
            if score >= beta:
                table[key] = score + lower_store
                return score
            alpha = max(alpha, score)
        table[key] = alpha - upper_shift
        return alpha

    return search


_DEFAULT: Solver | None = None
_DEFAULT_LOCK = threading.Lock()


def default_solver() -> Solver:
    """Returns the process-wide solver (with the opening book when installed)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            book = OpeningBook()
            _DEFAULT = Solver(book if book.available else None)
        return _DEFAULT


def solve(moves: Sequence[int], solver: Solver | None = None) -> int:
    """Returns the Pons score, for the player to move, of the position after ``moves`` (0-based).

    Examples:
        >>> solve([3, 3, 4, 4], Solver())
        18
    """
    return (solver or default_solver()).solve(Position.from_moves(moves))


def move_scores(moves: Sequence[int], solver: Solver | None = None) -> dict[int, int]:
    """Returns the Pons score of each playable column after ``moves`` (0-based columns)."""
    return (solver or default_solver()).score_moves(Position.from_moves(moves))


def _winning_cells(p: int, mask: int) -> int:
    """Returns the empty cells that would complete four in a row for the owner of discs ``p``."""
    # Unrolled for speed. Shifts: 1 vertical, 7 horizontal, 6 and 8 the two diagonals; a
    # cell wins when three discs lie next to it in one direction, or two on one side and one
    # on the other.
    a7, b7, a6, b6, a8, b8 = p << 7, p >> 7, p << 6, p >> 6, p << 8, p >> 8
    a14, b14, a12, b12, a16, b16 = a7 << 7, b7 >> 7, a6 << 6, b6 >> 6, a8 << 8, b8 >> 8
    r = (p << 1) & (p << 2) & (p << 3)
    r |= (a7 & a14 & ((a14 << 7) | b7)) | (b7 & b14 & (a7 | (b14 >> 7)))
    r |= (a6 & a12 & ((a12 << 6) | b6)) | (b6 & b12 & (a6 | (b12 >> 6)))
    r |= (a8 & a16 & ((a16 << 8) | b8)) | (b8 & b16 & (a8 | (b16 >> 8)))
    return r & (_BOARD ^ mask)


def _check_open(position: Position) -> None:
    if position.moves >= _CELLS:
        raise ValueError("the board is full: the game is over")
    previous = position.current ^ position.mask
    if _has_four(previous):
        raise ValueError("the game is over: the last move made four in a row")


def _has_four(discs: int) -> bool:
    for shift in (1, _H1, HEIGHT, HEIGHT + 2):
        pair = discs & (discs >> shift)
        if pair & (pair >> 2 * shift):
            return True
    return False


def _half(value: int) -> int:
    """Halves toward zero (C integer division), as the score window narrowing expects."""
    return -((-value) // 2) if value < 0 else value // 2


def _first(item: tuple[int, int]) -> int:
    return item[0]


def jit_available() -> bool:
    """Tells whether numba is installed, so the compiled search can be used."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _book_importable() -> bool:
    try:
        import bitbully_databases  # noqa: F401  # optional: the bitbully_databases extra
    except ImportError:
        return False
    return True
