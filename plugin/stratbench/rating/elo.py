"""SPIN-Bench's internal Elo: an iterated batch Elo over pair records.

SPIN-Bench (``compute_elo.py``) summarises each pair of agents as a record
``(wins1, wins2, draws)`` and sweeps over all records many times. For a record with
``total = wins1 + wins2 + draws`` games, from the ratings before the update:

* expected score ``E1 = total / (1 + 10 ** ((R2 - R1) / 400))`` and ``E2 = total - E1``;
* actual score ``S1 = wins1 + 0.5 * draws`` and ``S2 = wins2 + 0.5 * draws``;
* ``R1 += K * (S1 - E1)`` and ``R2 += K * (S2 - E2)``.

Ratings start at 1000 with ``K = 32`` and 1000 sweeps. Records are visited in sorted pair order
so the result does not depend on match order. The numbers are relative to the population and
not on any external Elo scale.
"""

from __future__ import annotations

from collections.abc import Iterable

from stratbench.rating.data import MatchResult

__all__ = ["PAPER_TABLE_4", "elo", "pair_records"]

PAPER_TABLE_4: dict[str, dict[str, int | None]] = {
    model: dict(zip(("tictactoe", "connect4", "chess"), values))
    for model, values in {
        "Human": (1415, 1692, None), "o1-preview": (1263, 1377, 1395), "o1-mini": (1205, 1083, 1247),
        "Claude 3.5 Sonnet": (1138, 942, 1196), "GPT-4o": (1025, 980, 1255), "Claude 3.5 Haiku": (983, 907, 1041),
        "Qwen2.5:72b": (944, 877, 1150), "Llama3.3": (944, 878, 1146), "Llama3.1:70b": (936, 829, 1164),
        "GPT-4o-mini": (912, 925, 842), "GPT-4-turbo": (857, 1007, 1265), "Llama3:70b": (856, 993, 1155),
        "Mistral:7b": (855, 800, 243), "Llama3.2:3b": (836, 821, 421), "GPT-3.5-turbo": (829, 890, 480),
    }.items()
}
"""SPIN-Bench's published internal Elo (Table 4, initial 1000) by model and game; None: not played."""


def pair_records(matches: Iterable[MatchResult]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Counts wins and draws for each pair of agents over two-sided matches.

    The higher score wins and equal scores are a draw. Matches without exactly two sides and
    self-play matches are ignored.

    Args:
        matches: The match results.

    Returns:
        For each pair ``(a, b)`` with ``a < b`` (sorted), ``(wins of a, wins of b, draws)``.
    """
    records: dict[tuple[str, str], list[int]] = {}
    for m in matches:
        if len(m.agents) != 2 or m.agents[0] == m.agents[1]:
            continue
        (a, b), (sa, sb) = m.agents, m.scores
        if a > b:
            a, b, sa, sb = b, a, sb, sa
        rec = records.setdefault((a, b), [0, 0, 0])
        rec[0 if sa > sb else 1 if sb > sa else 2] += 1
    return {pair: tuple(records[pair]) for pair in sorted(records)}


def elo(
    matches: Iterable[MatchResult],
    *,
    initial: float = 1000.0,
    k: float = 32.0,
    sweeps: int = 1000,
) -> dict[str, float]:
    """Computes SPIN-Bench's internal Elo ratings.

    Args:
        matches: The match results; only two-sided matches count.
        initial: The starting rating of every agent.
        k: The K-factor.
        sweeps: How many times to sweep over all pair records.

    Returns:
        The rating of each agent that played a two-sided match, sorted by agent label.
    """
    records = pair_records(matches)
    ratings = {a: float(initial) for pair in records for a in pair}
    for _ in range(sweeps):
        for (a, b), (wins_a, wins_b, draws) in records.items():
            total = wins_a + wins_b + draws
            expected_a = total / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
            expected_b = total - expected_a
            ratings[a] += k * (wins_a + 0.5 * draws - expected_a)
            ratings[b] += k * (wins_b + 0.5 * draws - expected_b)
    return dict(sorted(ratings.items()))
