"""Connect Four opening books read through a memory map, shared by every process.

``bitbully-databases`` reads a whole book into a Python list of tuples (the
12-ply book with win distances: about 0.5 GB and 6 s per process). Its files
are sorted arrays of fixed-size records, so the same lookups can read the
file through :mod:`mmap` instead: each process maps the file read-only, the
operating system keeps one copy in its page cache for all of them, and a
process pays only for the pages its lookups touch.

Record layout (the package's own format): a big-endian position code of 4
bytes (signed; 3 bytes unsigned in the 8-ply book), then, in books with win
distances, one signed score byte; in books without, the score is minus the
code's two low bits, which are zero in the position itself. The package's
lookup (Huffman code of the board, then of its mirror, binary search) runs
unchanged on :class:`MappedBook`, which behaves as its sorted list does.
"""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

BOOKS = {"8-ply": (False, True), "12-ply": (False, False), "12-ply-dist": (True, False)}
"""Book name → (with win distances, 8-ply layout)."""


class MappedBook:
    """A book file as a read-only sequence of ``(position code, score)``, in file order.

    Args:
        path: The book file.
        with_distances: Whether each record ends in a score byte.
        is_8ply: Whether position codes are 3 unsigned bytes (else 4 signed).
    """

    def __init__(self, path: Path, *, with_distances: bool, is_8ply: bool) -> None:
        self.with_distances = with_distances
        self.code_bytes = 3 if is_8ply else 4
        self.signed = not is_8ply
        self.record = self.code_bytes + (1 if with_distances else 0)
        with path.open("rb") as file:
            self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        self._length = len(self._map) // self.record

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: int) -> tuple[int, int]:
        if not 0 <= index < self._length:
            raise IndexError(index)
        start = index * self.record
        code = int.from_bytes(self._map[start:start + self.code_bytes], "big", signed=self.signed)
        if self.with_distances:
            score = int.from_bytes(self._map[start + self.code_bytes:start + self.record], "big", signed=True)
            return code, score
        return (code // 4) * 4, -(code & 3)


class MappedDatabase:
    """One book, looked up as ``bitbully_databases.BitBullyDatabases`` does, without reading it into memory."""

    def __init__(self, name: str) -> None:
        from bitbully_databases import BitBullyDatabases  # lean: loads at the first book lookup

        with_distances, is_8ply = BOOKS[name]
        self.name = name
        self.book = MappedBook(Path(BitBullyDatabases.get_database_path(name)),
                               with_distances=with_distances, is_8ply=is_8ply)
        self._lookup = BitBullyDatabases._get_book_value

    def get_book_value(self, board: Any) -> int | None:
        """Returns the book's value of a board (rows top to bottom; 1 and 2 the players' discs)."""
        return self._lookup(board, self.book, with_distances=self.book.with_distances)
