"""Move-quality metrics against a solver (SPIN-Bench §4.4), as pure functions.

The first functions work on plain values; the ``*_of`` functions aggregate
stored result records (``results.jsonl`` lines) for one agent, so a report
can call them on a run's records: draw rate, top-k move share over many
matches, and SPIN-Bench's illegal-move metrics IML and IMT.

Match context: engine agents (solvers, Stockfish) describe themselves on the
match's game object with :func:`register_engine`; the per-match metrics copy
that description (:func:`engine_sides`) into their output, so a record says
which side was the engine and how it was set up.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "draw_rate",
    "draw_rate_of",
    "engine_sides",
    "illegal_move_loss_rate",
    "illegal_move_loss_rate_of",
    "illegal_moves_per_turn",
    "illegal_moves_per_turn_of",
    "move_rank",
    "ranks_of",
    "register_engine",
    "seats_of",
    "side_result",
    "top_k_share",
    "top_k_share_of",
]


def register_engine(game: Any, player: int, settings: Mapping[str, Any]) -> None:
    """Records on the match's game object that ``player`` is an engine, with its settings.

    The game object is built anew for every match, so this lasts one match.
    It adds ``player`` to ``game.engine_players`` and stores ``settings``
    (small, JSON-able values) in ``game.engine_settings``, creating either
    attribute when the game does not declare it.
    """
    players = getattr(game, "engine_players", None)
    if not isinstance(players, set):
        players = set()
        game.engine_players = players
    table = getattr(game, "engine_settings", None)
    if not isinstance(table, dict):
        table = {}
        game.engine_settings = table
    players.add(player)
    table[player] = dict(settings)


def engine_sides(game: Any) -> list[dict[str, Any]]:
    """Returns the match's engine players, sorted, as ``{"player", "role", **settings}`` dicts.

    Examples:
        >>> class G:
        ...     def role(self, player):
        ...         return "XO"[player]
        >>> game = G()
        >>> register_engine(game, 1, {"agent": "minimax"})
        >>> engine_sides(game)
        [{'player': 1, 'role': 'O', 'agent': 'minimax'}]
    """
    settings = getattr(game, "engine_settings", None) or {}
    players = set(getattr(game, "engine_players", None) or ()) | set(settings)
    role = getattr(game, "role", None)
    return [
        {"player": player, "role": role(player) if role is not None else None, **settings.get(player, {})}
        for player in sorted(players)
    ]


def move_rank(scores: Mapping[str, float], chosen: str) -> int:
    """Returns the 0-based rank of ``chosen`` among the moves' solver scores.

    Ties rank best: a move as good as the optimum has rank 0, so "top-1"
    means "optimal". Raises KeyError if ``chosen`` has no score.

    Examples:
        >>> move_rank({"a": 1, "b": 1, "c": 0}, "b")
        0
        >>> move_rank({"a": 1, "b": 0, "c": -1}, "c")
        2
    """
    value = scores[chosen]
    ordered = sorted(scores.values(), reverse=True)
    return ordered.index(value)


def top_k_share(ranks: Sequence[int | None], k: int) -> float | None:
    """Returns the share of moves whose rank is below ``k`` (None if no moves).

    A rank of None stands for a move outside the ranked list (chess: not
    among the engine's MultiPV moves); it counts as a move, never as top-k.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if not ranks:
        return None
    return sum(1 for r in ranks if r is not None and r < k) / len(ranks)


def draw_rate(results: Iterable[str]) -> float | None:
    """Returns the share of ``"draw"`` among match results (None if none)."""
    results = list(results)
    if not results:
        return None
    return sum(1 for r in results if r == "draw") / len(results)


def illegal_move_loss_rate(forfeits: Sequence[bool]) -> float | None:
    """Returns IML: the share of games lost to illegal moves (None if no games).

    Args:
        forfeits: One flag per game: whether the agent lost it by exhausting
            its attempts at one decision (SPIN-Bench: 10 illegal moves in a turn).
    """
    if not forfeits:
        return None
    return sum(1 for f in forfeits if f) / len(forfeits)


def illegal_moves_per_turn(illegal: int, turns: int) -> float | None:
    """Returns IMT: illegal moves per turn the agent took (None if it took no turn)."""
    if turns <= 0:
        return None
    return illegal / turns


# -- over result records ------------------------------------------------------------


def seats_of(
    records: Iterable[Mapping[str, Any]],
    agent: str,
    *,
    game: str | None = None,
    opponent: str | None = None,
) -> Iterator[tuple[Mapping[str, Any], int]]:
    """Yields ``(record, side)`` for every side ``agent`` played.

    Args:
        records: Result records.
        agent: The agent label (``sides[i]["agent"]``).
        game: Only records of this game, if given.
        opponent: Only two-sided records against this agent label, if given.
    """
    for record in records:
        if record.get("type", "match") != "match" or (game is not None and record.get("game") != game):
            continue
        labels = [side["agent"] for side in record["sides"]]
        for side, label in enumerate(labels):
            if label != agent:
                continue
            if opponent is not None and not (len(labels) == 2 and labels[1 - side] == opponent):
                continue
            yield record, side


def side_result(scores: Sequence[float], side: int) -> str:
    """Returns ``won``, ``lost`` or ``draw`` for ``side`` given every side's score."""
    mine = scores[side]
    best_other = max(s for i, s in enumerate(scores) if i != side)
    if mine > best_other:
        return "won"
    return "draw" if mine == best_other else "lost"


def draw_rate_of(records: Iterable[Mapping[str, Any]], agent: str, **where: str) -> float | None:
    """Returns the share of ``agent``'s matches that were draws (``game=``/``opponent=`` filter)."""
    return draw_rate(side_result(r["scores"], side) for r, side in seats_of(records, agent, **where))


def illegal_move_loss_rate_of(records: Iterable[Mapping[str, Any]], agent: str, **where: str) -> float | None:
    """Returns IML for ``agent``: matches it forfeited by illegal moves over matches played."""
    return illegal_move_loss_rate(
        [r.get("forfeited_by_side") == side for r, side in seats_of(records, agent, **where)]
    )


def illegal_moves_per_turn_of(records: Iterable[Mapping[str, Any]], agent: str, **where: str) -> float | None:
    """Returns IMT for ``agent``: its rejected attempts over the decisions it took."""
    seats = list(seats_of(records, agent, **where))
    return illegal_moves_per_turn(
        sum(r["illegal"][side] for r, side in seats), sum(r["decisions"][side] for r, side in seats)
    )


def ranks_of(records: Iterable[Mapping[str, Any]], agent: str, **where: str) -> list[int | None]:
    """Returns every move rank stored for ``agent`` (the per-match ``ranks`` metric)."""
    ranks: list[int | None] = []
    for record, side in seats_of(records, agent, **where):
        for player in record["sides"][side]["players"]:
            values = record.get("metrics", {}).get(str(player), {}).get("ranks")
            if values:
                ranks.extend(values)
    return ranks


def top_k_share_of(records: Iterable[Mapping[str, Any]], agent: str, k: int, **where: str) -> float | None:
    """Returns the share of ``agent``'s ranked moves, over all its matches, that were top-``k``."""
    return top_k_share(ranks_of(records, agent, **where), k)
