"""Seeded deals of a small FreeCell.

The deck has a few suits of low ranks only (four suits of three ranks in the
easy tier). The shuffled deck is dealt round-robin into the columns. Every
deal is solved by a small search over the game's own rules before it is
returned (:func:`witness` gives the plan found). A deal is reshuffled with
the same random stream, so the result stays deterministic for (seed, tier),
when it is unsolvable, when its cards all go home straight from the column
tops, or when random play finishes it too often: cards that reach home never
leave it, so on small decks a walk of random moves that ignores the goal
ends with every card home more often than not. :func:`walk_finish_rate`
estimates that chance (moves drawn uniformly, a length drawn from 1..50, as
the ``random_planner`` floor plays) and deals above ``_WALK_LIMIT`` are
redrawn; the decks are sized so that few are.
"""

from __future__ import annotations

import heapq
import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = [
    "NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate", "solve_deal", "walk_finish_rate", "witness",
]

NAME = "freecell"
CATEGORY = "resource"
DESCRIPTION = "A small FreeCell deal: move every card home, using free cells and empty columns as space."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"

_SUITS = (("hearts", "red"), ("spades", "black"), ("diamonds", "red"), ("clubs", "black"))
# tier -> (suits, ranks, columns, free cells)
_SIZES = {
    "easy": (4, 3, 6, 4),
    "medium": (3, 4, 4, 3),
    "hard": (4, 4, 4, 2),
}
_SEARCH_LIMIT = 200_000
_WALKS = 100
_WALK_BOUND = 50
_WALK_LIMIT = 0.1

Card = tuple[int, int]  # (suit index, rank)


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    columns, n_suits, n_ranks, n_cells, _ = _deal(seed, tier)
    return _render(seed, tier, columns, n_suits, n_ranks, n_cells)


def witness(seed: int, tier: str) -> str:
    """Returns the plan the generator's search found for ``generate(seed, tier)``, one action a line."""
    *_, moves = _deal(seed, tier)
    return "\n".join(moves)


def solve_deal(columns: list[list[Card]], n_cells: int, n_suits: int, n_ranks: int) -> list[str] | None:
    """Returns a plan that plays a deal out, by best-first search over positions, or None.

    Args:
        columns: The cards of each column, bottom first, as (suit index, rank).
        n_cells: The number of free cells.
        n_suits: The number of suits in the deck.
        n_ranks: The number of ranks per suit.

    Returns:
        The plan's actions in PDDL, or None if no plan was found within the
        search limit.
    """
    start = (tuple(tuple(column) for column in columns), (None,) * n_cells, (0,) * n_suits)
    frontier = [(_cards_left(start), 0, start)]
    parent: dict = {_key(start): None}
    counter = 0
    while frontier and len(parent) < _SEARCH_LIMIT:
        _, _, position = heapq.heappop(frontier)
        if all(top == n_ranks for top in position[2]):
            moves = []
            step = parent[_key(position)]
            while step is not None:
                previous, move = step
                moves.append(move)
                step = parent[_key(previous)]
            return moves[::-1]
        for move, successor in _successors(position):
            key = _key(successor)
            if key not in parent:
                parent[key] = (position, move)
                counter += 1
                heapq.heappush(frontier, (_cards_left(successor), counter, successor))
    return None


def walk_finish_rate(columns: list[list[Card]], n_cells: int, n_suits: int, n_ranks: int, rng: random.Random) -> float:
    """Returns the share of goal-blind random walks that end with every card home.

    Each of ``_WALKS`` walks draws a length uniformly from ``1.._WALK_BOUND``
    and then that many moves uniformly among the legal ones (stopping early
    only when no move is left), over the generator's own rules.
    """
    start = (tuple(tuple(column) for column in columns), (None,) * n_cells, (0,) * n_suits)
    finished = 0
    for _ in range(_WALKS):
        position = start
        for _ in range(rng.randint(1, _WALK_BOUND)):
            moves = list(_successors(position))
            if not moves:
                break
            position = rng.choice(moves)[1]
        finished += all(top == n_ranks for top in position[2])
    return finished / _WALKS


def _deal(seed: int, tier: str):
    """Returns the columns, deck and cell sizes and a plan of the first solvable shuffle."""
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_suits, n_ranks, n_columns, n_cells = _SIZES[tier]
    deck = [(s, r) for s in range(n_suits) for r in range(1, n_ranks + 1)]
    while True:
        rng.shuffle(deck)
        columns = [deck[i::n_columns] for i in range(n_columns)]
        if not _home_at_once(columns):
            moves = solve_deal(columns, n_cells, n_suits, n_ranks)
            if moves is not None and walk_finish_rate(columns, n_cells, n_suits, n_ranks, rng) <= _WALK_LIMIT:
                return columns, n_suits, n_ranks, n_cells, moves


def _key(position):
    """Returns a position with column and cell order forgotten (they do not matter)."""
    columns, cells, home = position
    return tuple(sorted(columns)), tuple(sorted(c for c in cells if c is not None)), home


def _cards_left(position) -> int:
    return sum(len(column) for column in position[0]) + sum(c is not None for c in position[1])


def _successors(position):
    """Yields (PDDL action, position) for every move."""
    columns, cells, home = position

    def stacks_on(card: Card, under: Card) -> bool:
        return under[1] == card[1] + 1 and _SUITS[under[0]][1] != _SUITS[card[0]][1]

    def goes_home(card: Card) -> bool:
        return home[card[0]] == card[1] - 1

    def raised(card: Card):
        return home[: card[0]] + (card[1],) + home[card[0] + 1 :]

    def with_column(index: int, cards: tuple, base=columns):
        return base[:index] + (cards,) + base[index + 1 :]

    for i, column in enumerate(columns):
        if not column:
            continue
        card, rest = column[-1], column[:-1]
        name, below = _name(card), _name(rest[-1]) if rest else f"col{i + 1}"
        emptied = with_column(i, rest)
        if goes_home(card):
            yield f"(move-home {name} {below} {_name((card[0], card[1] - 1))})", (emptied, cells, raised(card))
        if None in cells:
            k = cells.index(None)
            yield f"(move-to-cell {name} {below} cell{k + 1})", (emptied, with_column(k, card, cells), home)
        for j, other in enumerate(columns):
            if j != i and other and stacks_on(card, other[-1]):
                action = f"(move-to-card {name} {below} {_name(other[-1])})"
                yield action, (with_column(j, other + (card,), emptied), cells, home)
            elif j != i and not other and rest:
                yield f"(move-to-column {name} {below} col{j + 1})", (with_column(j, (card,), emptied), cells, home)
    for k, card in enumerate(cells):
        if card is None:
            continue
        name, freed = _name(card), with_column(k, None, cells)
        if goes_home(card):
            yield f"(cell-home {name} cell{k + 1} {_name((card[0], card[1] - 1))})", (columns, freed, raised(card))
        for j, other in enumerate(columns):
            if other and stacks_on(card, other[-1]):
                yield f"(cell-to-card {name} cell{k + 1} {_name(other[-1])})", (
                    with_column(j, other + (card,)), freed, home)
            elif not other:
                yield f"(cell-to-column {name} cell{k + 1} col{j + 1})", (with_column(j, (card,)), freed, home)


def _home_at_once(columns: list[list[Card]]) -> bool:
    """Returns whether every card can go home straight from the column tops (too easy)."""
    tops = [list(column) for column in columns]
    home: dict[int, int] = {}
    moved = True
    while moved:
        moved = False
        for column in tops:
            if column and home.get(column[-1][0], 0) == column[-1][1] - 1:
                suit, rank = column.pop()
                home[suit] = rank
                moved = True
    return not any(tops)


def _name(card: Card) -> str:
    return f"{_SUITS[card[0]][0]}{card[1]}"


def _render(seed: int, tier: str, columns, n_suits: int, n_ranks: int, n_cells: int) -> str:
    """Returns the PDDL problem for a deal."""
    column_names = [f"col{i + 1}" for i in range(len(columns))]
    cells = [f"cell{i + 1}" for i in range(n_cells)]
    cards = [(s, r) for s in range(n_suits) for r in range(0, n_ranks + 1)]
    init = []
    for name, column in zip(column_names, columns):
        below = name
        for card in column:
            init.append(f"(on {_name(card)} {below})")
            below = _name(card)
        init.append(f"(clear {below})")
    init += [f"(cell-free {cell})" for cell in cells]
    init += [f"(home-top {_name((s, 0))})" for s in range(n_suits)]
    init += [f"(home-next {_name((s, r - 1))} {_name((s, r))})" for s, r in cards if r > 0]
    for card in cards:
        for under in cards:
            if card[1] >= 1 and under[1] == card[1] + 1 and _SUITS[card[0]][1] != _SUITS[under[0]][1]:
                init.append(f"(can-stack {_name(card)} {_name(under)})")
    goal = [f"(home-top {_name((s, n_ranks))})" for s in range(n_suits)]
    objects = [("card", [_name(card) for card in cards]), ("column", column_names), ("cell", cells)]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)
