"""The memory-mapped Connect Four books answer as the package's own reader does."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("bitbully_databases")

from bitbully_databases import BitBullyDatabases  # noqa: E402

from stratbench.games.spin.c4_book import MappedDatabase  # noqa: E402
from stratbench.games.spin.c4_solver import Position  # noqa: E402


def _positions(discs: int, count: int, seed: int) -> list[list[list[int]]]:
    """Random legal boards with ``discs`` discs and no four in a row."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        position = Position()
        for _ in range(discs):
            playable = [c for c in range(7) if position.can_play(c) and not position.is_winning_move(c)]
            if not playable:
                break
            position.play(rng.choice(playable))
        else:
            boards.append(position.board())
    return boards


@pytest.mark.slow
@pytest.mark.parametrize(("name", "discs"), [("8-ply", 8), ("12-ply-dist", 12)])
def test_mapped_lookups_equal_the_packages_reader(name, discs):
    package = BitBullyDatabases(name)
    mapped = MappedDatabase(name)
    assert len(mapped.book) == len(package.book)
    assert [mapped.book[i] for i in (0, 1, len(package.book) // 2, len(package.book) - 1)] == [
        package.book[i] for i in (0, 1, len(package.book) // 2, len(package.book) - 1)]
    boards = _positions(discs, 200, seed=discs)
    values = [mapped.get_book_value(board) for board in boards]
    assert values == [package.get_book_value(board) for board in boards]
    assert len(set(values)) >= 3  # wins, draws and losses (or distances) were all looked up


def test_the_mapped_book_reads_no_record_past_its_end():
    mapped = MappedDatabase("8-ply")
    with pytest.raises(IndexError):
        mapped.book[len(mapped.book)]
