"""``--stratbench-shard I/N``: which collected items shard I of N runs.

The items are put in node-id order and dealt out in turn: the item at
position ``p`` of that order belongs to shard ``p % N + 1``. The split
depends only on the set of collected node ids, so it is the same whatever
order the files were collected in, with or without xdist (every worker
collects the same items and keeps the same share), and the N shards together
run every item exactly once, their sizes differing by at most one. Dealing in
node-id order spreads each suite evenly over the shards, so a slow game does
not land on one shard.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def split(self, items: list[Item], node_id: Callable[[Item], str]) -> tuple[list[Item], list[Item]]:
        """Returns (kept, left to other shards), each in the items' own order.

        Examples:
            >>> Shard(2, 3).split(["c", "a", "b", "d"], str)
            (['b'], ['c', 'a', 'd'])
        """
        order = sorted(range(len(items)), key=lambda k: node_id(items[k]))
        mine = {k for position, k in enumerate(order) if position % self.count == self.index - 1}
        kept = [item for k, item in enumerate(items) if k in mine]
        others = [item for k, item in enumerate(items) if k not in mine]
        return kept, others


def parse_shard(text: str) -> Shard:
    """Parses ``I/N`` with ``1 <= I <= N``.

    Examples:
        >>> parse_shard("2/3")
        Shard(index=2, count=3)
    """
    problem = f"expected I/N, shard I of N with 1 <= I <= N, got {text!r}"
    index, sep, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        raise argparse.ArgumentTypeError(problem) from None
    if not sep or not 1 <= shard.index <= shard.count:
        raise argparse.ArgumentTypeError(problem)
    return shard
