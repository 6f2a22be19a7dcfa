"""SPIN-Bench Table 1's competitive-game columns from a run, beside the paper's published rows.

Columns as in the paper (§8 Table 1): TTT_DR, C4_DR and CH_DR are the draw
rates (%) against the solver (chess: Stockfish level 20); C4_T3 and CH_T3 the
share (%) of the agent's moves the solver ranks among its 3 best, over its
games against the solver (chess: against Stockfish level 0, Appendix B.3).
A second table gives chess per Stockfish level (wins, draws, T3), which the
paper states only in words (every LLM lost every game, even at level 0). A
third has all of Table 1's columns: Plan Acc and N-Step (planning), the five
above, Hanabi's mean score for 2 to 5 players, and Avg. Score, the mean of ten
numbers (Plan Acc, the five, the four Hanabi means as percentages of 25; N-Step
left out), as the digest verified against every published row.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stratbench.games.spin.metrics.hanabi import SPIN_BENCH_TABLE1, score_table
from stratbench.report.unplayed import NONE, unplayed_counts

__all__ = ["PAPER_TABLE1", "spin_table1"]

PAPER_SOURCE = "SPIN-Bench Table 1"
PAPER_TABLE1: dict[str, tuple[float, float, float, float, float]] = {
    "o1": (70.0, 0.0, 0.0, 83.1, 45.9),
    "o4-mini": (80.0, 0.0, 0.0, 81.1, 50.5),
    "o1-mini": (50.0, 0.0, 0.0, 87.0, 36.5),
    "o3-mini": (20.0, 0.0, 0.0, 74.2, 52.8),
    "GPT-4o": (0.0, 0.0, 0.0, 84.1, 32.2),
    "GPT-4-turbo": (60.0, 0.0, 0.0, 83.8, 38.7),
    "Claude 3.5 Sonnet": (60.0, 0.0, 0.0, 78.9, 49.5),
    "Claude 3.5 Haiku": (50.0, 0.0, 0.0, 69.6, 35.9),
    "DeepSeek R1": (10.0, 0.0, 0.0, 78.9, 47.8),
    "Llama4 Maverick": (0.0, 0.0, 0.0, 75.4, 51.3),
    "Llama-3.3-70b": (0.0, 0.0, 0.0, 79.5, 25.4),
}
"""The paper's TTT_DR, C4_DR, CH_DR, C4_T3, CH_T3 (%), per model as the paper names it."""
DR_LEVEL = 20
"""Table 1's chess draw rate is against Stockfish level 20 ("for chess, we use stockfish-20")."""
T3_LEVEL = 0
"""CH_T3 is computed on the games against Stockfish level 0 (Appendix B.3)."""
PAPER_AVG_SCORE: dict[str, float] = {
    "o1": 49.8, "o4-mini": 45.6, "o1-mini": 33.0, "o3-mini": 33.1, "GPT-4o": 20.8, "GPT-4-turbo": 27.5,
    "Claude 3.5 Sonnet": 34.3, "Claude 3.5 Haiku": 20.8, "DeepSeek R1": 36.6, "Llama4 Maverick": 20.8,
    "Llama-3.3-70b": 13.1,
}
"""Table 1's printed Avg. Score per model."""
HANABI_COUNTS = ("2p", "3p", "4p", "5p")
_SOLVERS = {"tictactoe": "minimax", "connect4": "c4solver"}


def stockfish_level(agent: str) -> int | None:
    """Returns the skill level of a ``stockfish<level>`` agent (``stockfish`` is level 20), else None.

    Examples:
        >>> stockfish_level("stockfish5"), stockfish_level("stockfish"), stockfish_level("random")
        (5, 20, None)
    """
    if not agent.startswith("stockfish"):
        return None
    rest = agent[len("stockfish"):]
    if rest == "":
        return 20
    return int(rest) if rest.isdigit() else None


def _opponent(game: str, agent: str) -> str | None:
    """The solver an agent stands for in Table 1 (``tictactoe``/``connect4``/``stockfish<level>``), else None."""
    if game == "chess":
        level = stockfish_level(agent)
        return None if level is None else f"stockfish{level}"
    return game if _SOLVERS.get(game) == agent else None


class _Tally:
    """Results and move ranks of one agent against one solver."""

    def __init__(self) -> None:
        self.games = self.won = self.drawn = 0
        self.top3 = 0.0
        self.moves = 0

    def add(self, record: dict[str, Any], side: int) -> None:
        mine, other = record["scores"][side], record["scores"][1 - side]
        self.games += 1
        self.won += mine > other
        self.drawn += mine == other
        for player in record["sides"][side]["players"]:
            metric = record.get("metrics", {}).get(str(player), {})
            if metric.get("top3_share") is None:
                continue
            moves = int(metric.get("moves", 0) or 0)
            self.moves += moves
            self.top3 += metric["top3_share"] * moves

    def draw_pct(self) -> float | None:
        return 100.0 * self.drawn / self.games if self.games else None

    def win_pct(self) -> float | None:
        return 100.0 * self.won / self.games if self.games else None

    def top3_pct(self) -> float | None:
        return 100.0 * self.top3 / self.moves if self.moves else None


def _against_solvers(record: dict[str, Any]) -> list[tuple[str, str]]:
    """Returns ``(agent, solver)`` for each side of a two-sided match that faces a Table 1 solver."""
    if len(record.get("sides") or []) != 2:
        return []
    agents = [side.get("agent", "?") for side in record["sides"]]
    out = []
    for side, agent in enumerate(agents):
        solver = _opponent(record.get("game", ""), agents[1 - side])
        if solver is not None and _opponent(record.get("game", ""), agent) is None:
            out.append((agent, solver))
    return out


def _tallies(records: list[dict[str, Any]]) -> dict[str, dict[str, _Tally]]:
    """Per agent, per solver (``tictactoe``, ``connect4``, ``stockfish<level>``): its tally."""
    tallies: dict[str, dict[str, _Tally]] = defaultdict(lambda: defaultdict(_Tally))
    for record in records:
        if len(record.get("sides", [])) != 2:
            continue
        agents = [side["agent"] for side in record["sides"]]
        for side, agent in enumerate(agents):
            solver = _opponent(record["game"], agents[1 - side])
            if solver is not None and _opponent(record["game"], agent) is None:
                tallies[agent][solver].add(record, side)
    return tallies


def avg_score(values: list[float | None]) -> float | None:
    """Table 1's Avg. Score: the mean of Plan Acc, the five game columns and the four Hanabi means ×4.

    ``values`` is one Table 1 row without N-Step: Plan Acc, TTT_DR, C4_DR,
    CH_DR, C4_T3, CH_T3 (%), then the Hanabi means for 2–5 players (of 25).
    None unless all ten are known.

    Examples:
        >>> round(avg_score([58.59, 70.0, 0.0, 0.0, 83.1, 45.9, 16.4, 14.8, 14.8, 14.2]), 2)
        49.84
    """
    if len(values) != 10 or any(v is None for v in values):
        return None
    known = [float(v) for v in values if v is not None]
    return sum(known[:6] + [v * 4 for v in known[6:]]) / 10


def _full_rows(
    records: list[dict[str, Any]], competitive: dict[str, list[float | None]], unscored: list[dict[str, Any]]
) -> list[list[Any]]:
    """Table 1 with every column, per run agent that has any of them, then the paper's rows.

    Plan Acc and N-Step count a planning task whose match errored as not valid, as the planning section does.
    """
    from stratbench.games.spin.metrics.planning import (  # lean: planning summaries load only for planning rows
        PAPER_RESULTS,
        summaries_by_agent,
    )

    planning = summaries_by_agent(records, unscored)
    hanabi = {row["agent"]: row for row in score_table(records) if row.get("source") == "run"}
    rows = []
    for agent in sorted(set(planning) | set(hanabi) | set(competitive)):
        plan = planning.get(agent)
        plan_acc = None if plan is None or plan["plan_accuracy"] is None else 100.0 * plan["plan_accuracy"]
        n_step = None if plan is None else plan["n_step"]
        games = competitive.get(agent, [None] * 5)
        means = [(hanabi.get(agent) or {}).get(count, {}).get("mean") for count in HANABI_COUNTS]
        rows.append([agent, "run", plan_acc, n_step, *games, *means, avg_score([plan_acc, *games, *means])])
    for model, games in PAPER_TABLE1.items():
        plan_acc, n_step = PAPER_RESULTS[model][:2]
        rows.append([model, PAPER_SOURCE, plan_acc, n_step, *games, *SPIN_BENCH_TABLE1[model],
                     PAPER_AVG_SCORE[model]])
    return rows


def spin_table1(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """SPIN-Bench Table 1 for the run's agents (competitive columns, then all columns), with the paper's rows.

    Rates are over the scored games against the solvers; each agent's games,
    and its errored and skipped ones (in no rate), are counted beside.
    """
    unplayed = unplayed_counts(unscored, _against_solvers)
    tallies = _tallies(records)
    for agent, solver in unplayed:
        tallies[agent][solver]  # noqa: B018 - an agent with only unscored games keeps its row
    if not tallies:
        from stratbench.games.spin.metrics.planning import (  # lean: planning summaries load only for planning rows
            summaries_by_agent,
        )

        if not summaries_by_agent(records, unscored) and not any(r.get("game") == "hanabi" for r in records):
            return None
    rows = []
    competitive: dict[str, list[float | None]] = {}
    levels: list[list[Any]] = []
    for agent in sorted(tallies):
        by_solver = tallies[agent]

        def cell(solver: str, value: str) -> float | None:
            tally = by_solver.get(solver)
            return None if tally is None else getattr(tally, value)()

        counts = {status: sum(n[status] for (a, _), n in unplayed.items() if a == agent) for status in NONE}
        values = [cell("tictactoe", "draw_pct"), cell("connect4", "draw_pct"), cell(f"stockfish{DR_LEVEL}", "draw_pct"),
                  cell("connect4", "top3_pct"), cell(f"stockfish{T3_LEVEL}", "top3_pct")]
        rows.append([agent, "run", *values, sum(t.games for t in by_solver.values()), counts["errored"],
                     counts["skipped"]])
        competitive[agent] = values
        for solver in sorted((s for s in by_solver if s.startswith("stockfish")), key=stockfish_level):
            tally = by_solver[solver]
            level_counts = unplayed.get((agent, solver), NONE)
            levels.append([agent, stockfish_level(solver), tally.games, level_counts["errored"],
                           level_counts["skipped"], tally.win_pct(), tally.draw_pct(), tally.top3_pct(), tally.moves])
    rows += [[model, PAPER_SOURCE, *values, None, None, None] for model, values in PAPER_TABLE1.items()]
    tables = [] if not tallies else [{
        "title": "Competitive games (Table 1 columns)",
        "note": f"Rows of source {PAPER_SOURCE} are the paper's published numbers, not this run's. games = the "
                "agent's scored games against the solvers, the rates' denominators; errored and skipped games "
                "are counted beside and in no rate (SPIN-Bench does not count API errors against the model).",
        "columns": ["agent", "source", "TTT_DR (%)", "C4_DR (%)", "CH_DR (%)", "C4_T3 (%)", "CH_T3 (%)", "games",
                    "errored", "skipped"],
        "rows": rows,
    }]
    if levels:
        tables.append({
            "title": "Chess against Stockfish by skill level",
            "note": "The paper publishes no per-level numbers; it states that every LLM lost every game, "
                    "even against level 0.",
            "columns": ["agent", "Stockfish level", "games", "errored", "skipped", "win (%)", "draw (%)", "T3 (%)",
                        "moves ranked"],
            "rows": levels,
        })
    tables.append({
        "title": "Table 1, every column",
        "note": "Plan Acc and N-Step over the run's planning tasks, an errored one counted as not valid (the "
                "planning section has them per domain, with the errored and skipped tasks), "
                "the competitive columns as above, Hanabi's mean score of 25 per player count (the Hanabi "
                "section has their spread), Avg. Score = the mean of Plan Acc, the five game columns and the "
                "four Hanabi means ×4 (N-Step left out), only where all ten are known. The paper's Avg. Score "
                "is as printed.",
        "columns": ["agent", "source", "Plan Acc (%)", "N-Step", "TTT_DR (%)", "C4_DR (%)", "CH_DR (%)",
                    "C4_T3 (%)", "CH_T3 (%)", "Hanabi 2P", "3P", "4P", "5P", "Avg. Score"],
        "rows": _full_rows(records, competitive, unscored),
    })
    return {
        "title": "SPIN-Bench Table 1: competitive games",
        "note": f"DR = draw rate against the solver (minimax, the Connect Four solver, Stockfish level {DR_LEVEL}); "
                f"T3 = share of the agent's moves among the solver's 3 best (ties rank best; chess: over the games "
                f"against Stockfish level {T3_LEVEL}, ranked by Stockfish at full strength with MultiPV 10, under "
                "the paper protocol by position in its list). "
                "– where the run has no such games. Table 1's Plan Acc and N-Step are in the planning section, its "
                "Hanabi columns in the Hanabi section; the last table has them all, with Avg. Score.",
        "tables": tables,
    }
