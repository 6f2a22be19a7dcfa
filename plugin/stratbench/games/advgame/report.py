"""The AdvGameBench report section: Table 1's shape, the process metrics, the radar, the paper's Table 1.

Built from the scored records of the three games (each carries its whole
match in ``advgame``). Every agent that played a side (models and baselines
alike) gets that side's trace; a self-pairing gives the agent both sides.
Per agent and game the metrics are the paper's reading pooled over its
matches (``metrics.advgame.aggregate_paper``); "avg" is the plain mean over
the games played (``average_over_games``). FMA is the mean per-match value
where the agent revised first minus where it revised second. Each agent's
scored matches are counted beside its rates, with its errored and skipped
ones (a match that was not scored has no rounds to count).
"""

from __future__ import annotations

import math
from typing import Any

from stratbench.metrics.advgame import (
    RADAR_AXES,
    MatchTrace,
    aggregate_paper,
    aggregate_released,
    average_over_games,
    first_mover_advantage,
    radar_axes,
)
from stratbench.core.revision import RevisionMatch
from stratbench.report.unplayed import NONE, unplayed_counts

GAMES = ("tower_defense", "battle_card", "turn_based")
LABELS = {"tower_defense": "TDG", "battle_card": "BCG", "turn_based": "TAG"}
"""The paper's abbreviations, in Table 1's order."""

PAPER_TABLE_1 = (
    ("ChatGPT-4.1", 45.0, 85.7, 40.0, 52.5, 69.7, 65.2, 57.5, 82.4, 67.9, 51.7, 79.4, 56.8),
    ("ChatGPT-4o", 65.8, 81.8, 55.6, 60.8, 44.0, 63.6, 59.1, 82.4, 46.4, 58.6, 70.4, 52.6),
    ("ChatGPT-o3", 75.8, 41.1, 57.1, 76.7, 50.0, 88.9, 70.0, 30.0, 66.7, 74.2, 40.0, 73.7),
    ("ChatGPT-o3-mini", 63.3, 25.9, 57.1, 74.2, 31.6, 100.0, 86.7, 9.0, 100.0, 74.7, 24.5, 78.6),
    ("Claude-3-5-Sonnet", 56.7, 89.3, 56.0, 45.8, 70.0, 64.3, 55.0, 76.9, 65.0, 52.5, 77.7, 61.6),
    ("DeepSeek-R1", 70.8, 53.6, 80.0, 49.2, 32.2, 40.0, 80.0, 83.3, 70.0, 66.7, 48.4, 63.3),
    ("DeepSeek-V3", 43.3, 84.6, 45.5, 23.3, 75.5, 24.3, 56.7, 75.0, 38.1, 41.1, 78.4, 35.2),
    ("Gemini-2-Flash", 15.8, 90.6, 10.4, 49.2, 65.7, 60.9, 38.3, 67.5, 28.0, 34.4, 76.8, 27.1),
    ("Gemini-2.5-Flash", 60.0, 40.0, 60.0, 59.0, 79.2, 68.4, 58.1, 76.2, 56.3, 62.5, 65.7, 63.0),
    ("LLaMA-3-70B", 33.3, 90.2, 29.7, 42.5, 76.3, 51.7, 65.0, 69.2, 66.7, 46.9, 80.0, 45.2),
    ("Qwen-Max", 39.2, 44.7, 5.8, 10.8, 50.0, 10.3, 41.7, 51.3, 36.9, 30.5, 48.9, 16.9),
    ("Qwen-Plus", 19.2, 78.4, 20.0, 16.7, 81.5, 13.6, 40.8, 86.1, 45.2, 25.6, 81.6, 24.3),
)
"""AdvGameBench's Table 1 as published (%; digest B5.1): TDG, BCG, TAG, avg × (WR, ORR, CSR)."""

TABLE_1_COLUMNS = ["agent", *(f"{LABELS.get(g, g)} {m}" for g in (*GAMES, "avg") for m in ("WR", "ORR", "CSR"))]


def traces_by_agent(records: list[dict[str, Any]]) -> dict[str, dict[str, list[tuple[MatchTrace, dict]]]]:
    """Returns agent -> game -> [(the agent's side of a match as a trace, that side's per-match metrics)]."""
    found: dict[str, dict[str, list[tuple[MatchTrace, dict]]]] = {}
    for record in sorted(records, key=lambda r: str(r.get("match_id", ""))):
        if record.get("game") not in GAMES or "advgame" not in record or record.get("status", "scored") != "scored":
            continue
        match = RevisionMatch.from_dict(record["advgame"])
        agents = [side["agent"] for side in record["sides"]]
        for player, side in enumerate(match.sides):
            opponent = agents[1 - player]
            trace = match.trace(side, opponent=opponent, game=record["game"])
            per_match = record.get("metrics", {}).get(str(player), {})
            found.setdefault(agents[player], {}).setdefault(record["game"], []).append((trace, per_match))
    return found


def _pct(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(100 * value, 1)


def _num(value: float | None, digits: int = 4) -> float | None:
    return None if value is None or math.isnan(value) else round(value, digits)


def _fma(items: list[tuple[MatchTrace, dict]], key: str) -> float:
    pairs = [(trace.order, math.nan if m.get(key) is None else float(m[key])) for trace, m in items if key in m]
    firsts = [v for order, v in pairs if order == "first" and not math.isnan(v)]
    seconds = [v for order, v in pairs if order == "second" and not math.isnan(v)]
    return first_mover_advantage(pairs) if firsts and seconds else math.nan


def advgame(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """The AdvGameBench section (None when no match of the three games was scored, errored or skipped)."""
    by_agent = traces_by_agent(records)
    unplayed = unplayed_counts(unscored, lambda r: [(s.get("agent"), r.get("game")) for s in r.get("sides", [])]
                               if r.get("game") in GAMES else [])
    for agent, game in unplayed:
        by_agent.setdefault(agent, {})
    if not by_agent:
        return None
    table_1, process, radar_input = [], [], {}
    for agent in sorted(by_agent):
        per_game = {game: aggregate_paper([t for t, _ in items]) for game, items in by_agent[agent].items()}
        average = average_over_games(per_game) if per_game else None
        if average is not None:
            radar_input[agent] = average
        counts = {status: sum(n[status] for (a, _), n in unplayed.items() if a == agent) for status in NONE}
        row: list[Any] = [agent]
        for game in (*GAMES, None):
            metrics = average if game is None else per_game.get(game)
            row += [None] * 3 if metrics is None else [
                _pct(metrics["win_rate"]), _pct(metrics["over_correction_rate"]),
                _pct(metrics["correction_success_rate"])]
        table_1.append([*row, sum(len(items) for items in by_agent[agent].values()), counts["errored"],
                        counts["skipped"]])
        for game in [g for g in GAMES if g in per_game or (agent, g) in unplayed] + ["all games"]:
            game_counts = unplayed.get((agent, game), NONE) if game != "all games" else counts
            if game != "all games" and game not in per_game:
                process.append([agent, LABELS.get(game), 0, game_counts["errored"], game_counts["skipped"],
                                *[None] * 9])
                continue
            if average is None:
                continue
            items = [i for g in GAMES for i in by_agent[agent].get(g, [])] if game == "all games" \
                else by_agent[agent][game]
            metrics = average if game == "all games" else per_game[game]
            released = aggregate_released([t for t, _ in items]) if game != "all games" else None
            process.append([
                agent, LABELS.get(game, "avg"), len(items), game_counts["errored"], game_counts["skipped"],
                _num(metrics["improvement_slope"]),
                _pct(metrics["initial_win"]), _pct(metrics["over_budget_rate"]),
                _pct(metrics["rule_violation_rate"]),
                _pct(_fma(items, "win_rate")), _pct(_fma(items, "over_correction_rate")),
                _pct(_fma(items, "correction_success_rate")),
                None if released is None else _pct(released["correction_rate"]),
                None if released is None else _pct(released["correction_success_rate"]),
            ])
    scaled = radar_axes(radar_input)
    radar_rows = [[agent, *(round(scaled[agent][axis], 3) for axis in RADAR_AXES)] for agent in sorted(scaled)]
    return {
        "title": "AdvGameBench",
        "tables": [
            {"title": "Table 1 shape (%, this run)", "columns": [*TABLE_1_COLUMNS, "matches", "errored", "skipped"],
             "rows": table_1,
             "note": "WR = rounds won after the budget rule; ORR = share of the agent's revision turns after "
                     "negative feedback (a non-win or a violation) where its strategy changed (the paper's "
                     "definition; the released cost-change reading is in the next table); CSR = share of "
                     "changed strategies that removed a violation or turned a non-win into a win. Pooled over "
                     "the agent's matches per game; avg = plain mean over the games played. matches = the "
                     "agent's scored matches; errored and skipped ones have no rounds and count in no rate."},
            {"title": "Process metrics", "rows": process,
             "columns": ["agent", "game", "matches", "errored", "skipped", "slope", "init-win %", "OBR %", "RVR %",
                         "FMA WR",
                         "FMA ORR", "FMA CSR", "ORR released %", "CSR released %"],
             "note": "slope = OLS slope of the round-win indicator on the round number (all the agent's rounds "
                     "in one fit); init-win = round 1 won; OBR = rounds over budget; RVR = initial proposals "
                     "(every attempt) breaking a rule or the budget; FMA X = mean per-match X where the agent "
                     "revised first minus where it revised second, in percentage points (empty without both "
                     "orders); released = the released evaluator (kept rows per role and order, cost changes)."},
            {"title": "Radar (normalised)", "rows": radar_rows, "columns": ["agent", *RADAR_AXES],
             "chart": {"kind": "radar", "axes": list(RADAR_AXES),
                       "series": [{"name": row[0], "values": row[1:]} for row in radar_rows]},
             "note": "Averages over the games played. WR, CSR, 1 − ORR and 1 − OBR are used as they are (in "
                     "[0, 1]); the slope is min-max scaled across the agents shown (0.5 for all when they share "
                     "one slope); a metric that does not apply (no revision) puts its axis at 0. The paper says "
                     "only 'scaled to a common range'."},
            {"title": "The paper's Table 1 (AdvGameBench, Yuan et al. 2025; %)", "columns":
                ["model (paper)", *TABLE_1_COLUMNS[1:]], "rows": [list(row) for row in PAPER_TABLE_1],
             "note": "As published, for comparison: 12 models × 3 fixed opponents × 2 roles × 2 move orders × "
                     "10 rounds, temperature 0.3. Its avg ORR and CSR columns are not plain means of the games "
                     "(digest B5.3)."},
        ],
    }
