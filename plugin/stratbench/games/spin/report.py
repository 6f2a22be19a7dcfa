"""SPIN-Bench's report sections: solver games (with SOLVERS), Hanabi, Diplomacy, negotiation, planning, the probes."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stratbench.games.spin.metrics.diplomacy import summary_rows
from stratbench.games.spin.metrics.hanabi import HUMAN_REFERENCE, score_table
from stratbench.games.spin.metrics.negotiation import COUNTS, ratios
from stratbench.games.spin.metrics.probes import accuracy_grid
from stratbench.games.spin.metrics.solver import draw_rate
from stratbench.report.unplayed import NONE, beside, unplayed_counts

__all__ = ["SOLVERS", "diplomacy", "hanabi", "negotiation", "planning", "probes", "solver_games"]

SOLVERS = {"tictactoe": "minimax", "connect4": "c4solver", "chess": "stockfish"}
"""The solver opponent of each SPIN-Bench competitive game (chess: any stockfish level)."""


def _is_solver(agent: str, game: str) -> bool:
    solver = SOLVERS.get(game)
    return solver is not None and agent.startswith(solver)


def _against_solver(record: dict[str, Any]) -> list[tuple[str, str]]:
    """Returns ``(game, agent)`` for each side of a two-sided match that faces its game's solver."""
    if record.get("game") not in SOLVERS or len(record.get("sides") or []) != 2:
        return []
    agents = [s.get("agent", "?") for s in record["sides"]]
    return [(record["game"], agent) for side, agent in enumerate(agents)
            if not _is_solver(agent, record["game"]) and _is_solver(agents[1 - side], record["game"])]


def solver_games(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """SPIN-Bench's competitive metrics per game and agent against the solver.

    Draw rate vs the solver, top-1 (optimal) and top-3 move shares, IML (games
    lost to illegal moves) and IMT (illegal moves per turn), over the scored
    matches; the errored and skipped ones are counted beside (an errored
    match is not a loss: SPIN-Bench does not count API errors as the model's).
    """
    groups: dict[tuple[str, str], list[tuple[dict[str, Any], int]]] = defaultdict(list)
    for record in records:
        for side, agent in enumerate(s["agent"] for s in record["sides"]):
            if (record["game"], agent) in _against_solver(record):
                groups[(record["game"], agent)].append((record, side))
    unplayed = unplayed_counts(unscored, _against_solver)
    if not groups and not unplayed:
        return None
    rows = []
    for game, agent in sorted({*groups, *unplayed}):
        items = groups.get((game, agent), [])
        counts = unplayed.get((game, agent), NONE)
        if not items:
            rows.append([agent, game, 0, counts["errored"], counts["skipped"], *[None] * 6])
            continue
        results = []
        top1_num = top3_num = moves = illegal = turns = lost_illegal = 0
        for record, side in items:
            mine, other = record["scores"][side], record["scores"][1 - side]
            results.append("won" if mine > other else "draw" if mine == other else "lost")
            for player in record["sides"][side]["players"]:
                metric = record.get("metrics", {}).get(str(player), {})
                n = int(metric.get("moves", 0) or 0)
                moves += n
                top1 = metric.get("top1_share", metric.get("optimal_move_share"))
                if top1 is not None:
                    top1_num += top1 * n
                if metric.get("top3_share") is not None:
                    top3_num += metric["top3_share"] * n
            illegal += record["illegal"][side]
            turns += record["decisions"][side] if record.get("decisions") else 0
            if record.get("forfeited_by_side") == side:
                lost_illegal += 1
        rows.append([
            agent, game, len(items), counts["errored"], counts["skipped"], draw_rate(results),
            results.count("won") / len(results),
            top1_num / moves if moves else None, top3_num / moves if moves else None,
            lost_illegal / len(items), illegal / turns if turns else None,
        ])
    return {
        "title": "Against solvers (SPIN-Bench)",
        "columns": ["agent", "game", "matches", "errored", "skipped", "draw rate", "win rate", "top-1 moves",
                    "top-3 moves", "IML", "IMT"],
        "rows": rows,
        "note": "Over the scored matches (matches); errored and skipped matches are counted beside and in no rate "
                "(an errored match is no loss: SPIN-Bench does not count API errors against the model). "
                "Draw rate = share of drawn games against the solver; top-k = share of the agent's moves the "
                "solver ranks among its k best (ties rank best); IML = games lost to illegal moves; "
                "IMT = rejected answers per decision.",
    }


def hanabi(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """Mean Hanabi score per agent and player count, with SPIN-Bench's Table 1 and the human reference.

    Each mean says over how many games (n), with the errored and skipped ones beside (in no mean).
    """
    unplayed = unplayed_counts(unscored, lambda r: [(r["sides"][0].get("agent"), r.get("variant"))]
                               if r.get("game") == "hanabi" and r.get("sides") else [])
    if not any(r["game"] == "hanabi" for r in records) and not unplayed:
        return None
    counts = ("2p", "3p", "4p", "5p")
    rows = []
    for row in score_table(records):
        if row["source"] == "human":
            continue
        cells = []
        for count in counts:
            cell = row.get(count)
            others = beside(unplayed.get((row["agent"], count))) if row["source"] == "run" else ""
            if cell is None:
                cells.append(f"– (n=0; {others})" if others else None)
            elif "n" in cell:
                cells.append(f"{cell['mean']:.1f} ± {cell['sd']:.1f} (n={cell['n']}{'; ' + others if others else ''})")
            else:
                cells.append(f"{cell['mean']:.1f}")
        rows.append([row["agent"], row["source"], *cells])
    listed = {row[0] for row in rows}
    for agent in sorted({a for a, _ in unplayed if a not in listed}):
        rows.append([agent, "run", *(f"– (n=0; {beside(unplayed[(agent, c)])})" if (agent, c) in unplayed else None
                                     for c in counts)])
    low, high = HUMAN_REFERENCE["typical_range"]
    rows.append(["human", HUMAN_REFERENCE["source"], *([f"typically {low}–{high}"] * 4)])
    note = ("Score = sum of the fireworks at the end (SPIN-Bench's wording); the same agent plays every seat. "
            "n = games scored; errored and skipped games are counted beside, in no mean.")
    if any(r["game"] == "hanabi" and r.get("protocol") == "paper" for r in records):
        left = sum(row.get("left_out", 0) for row in score_table(records) if row["source"] == "run")
        note = ("Paper protocol: score = the fireworks before the game's last action, as SPIN-Bench's released "
                f"code reads it; matches ended by a player's exhausted retries are left out of the mean ({left} "
                "here), as the released runner saved no such game. The same agent plays every seat.")
    return {
        "title": "Hanabi (SPIN-Bench): mean score of 25 by player count",
        "columns": ["agent", "source", *counts],
        "rows": rows,
        "note": note,
    }


def diplomacy(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """Diplomacy per agent: supply centers, controlled regions and order success by type (errored and skipped
    matches counted beside)."""
    games = ("diplomacy", "diplomacy-nopress")
    unplayed = unplayed_counts(unscored, lambda r: [s.get("agent") for s in r.get("sides", [])]
                               if r.get("game") in games else [])
    if not any(r["game"] in games for r in records) and not unplayed:
        return None
    rows = []
    for row in summary_rows(records):
        orders = row["orders"] or {}
        shown = ", ".join(
            f"{kind} {stats.get('success', 0)}/{stats.get('total', 0)}"
            for kind, stats in sorted(orders.items()) if isinstance(stats, dict) and stats.get("total")
        )
        counts = unplayed.get(row["agent"], NONE)
        rows.append([row["agent"], row["matches"], counts["errored"], counts["skipped"], row["mean_supply_centers"],
                     row["mean_controlled_regions"], shown])
    listed = {row[0] for row in rows}
    rows += [[agent, 0, counts["errored"], counts["skipped"], None, None, ""]
             for agent, counts in sorted(unplayed.items()) if agent not in listed]
    return {
        "title": "Diplomacy (SPIN-Bench)",
        "columns": ["agent", "matches", "errored", "skipped", "mean supply centers", "mean controlled regions",
                    "orders succeeded / given"],
        "rows": rows,
        "note": "Summed over all powers an agent controls, at the end of the game; over the scored matches "
                "(errored and skipped ones counted beside).",
    }


def negotiation(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """SPIN-Bench's six LLM-annotated negotiation metrics (§6.8) per agent and power, from the annotator's counts.

    Counts are summed over matches before the ratios are taken; an agent with
    several powers also gets an ``all`` row. Without any annotated match the
    section is a single line saying so. Errored and skipped matches with
    negotiation are counted in the note (they are in no count).
    """
    press = [r for r in records if r["game"] == "diplomacy"]
    unplayed = beside(unplayed_counts(unscored, lambda r: ["all"] if r.get("game") == "diplomacy" else []).get("all"))
    not_scored = f" {unplayed} Diplomacy match(es) with negotiation were not scored and are in no count." \
        if unplayed else ""
    if not press and not unplayed:
        return None
    annotated = [r for r in press if isinstance(r.get("annotator"), dict)]
    base = {"title": "Diplomacy negotiation (SPIN-Bench, LLM-annotated)", "columns": [], "rows": []}
    if not annotated:
        return {**base, "note": f"No annotator ran on the {len(press)} Diplomacy match(es) with negotiation: "
                                "run with --annotator-model MODEL to get these metrics." + not_scored}
    sums: dict[tuple[str, str], dict[str, int]] = {}
    matches: dict[tuple[str, str], int] = defaultdict(int)
    talkers: set[str] = set()
    for record in annotated:
        for info in record["sides"]:
            roles = info.get("roles") or []
            for index, player in enumerate(info["players"]):
                values = record.get("metrics", {}).get(str(player), {}).get("negotiation")
                if not isinstance(values, dict):
                    continue
                power = str(roles[index]) if index < len(roles) else f"player {player}"
                tally = sums.setdefault((info["agent"], power), dict.fromkeys(COUNTS, 0))
                for name in COUNTS:
                    tally[name] += int(values.get(name) or 0)
                matches[(info["agent"], power)] += 1
                if info.get("kind") == "llm" or any(tally.values()):
                    talkers.add(info["agent"])
    rows = []
    for agent in sorted(talkers):
        powers = sorted(power for a, power in sums if a == agent)
        keys = [(agent, power) for power in powers]
        if len(powers) > 1:
            total = {name: sum(sums[k][name] for k in keys) for name in COUNTS}
            keys.append((agent, "all"))
            sums[(agent, "all")] = total
            matches[(agent, "all")] = len({r["match_id"] for r in annotated
                                           if any(s["agent"] == agent for s in r["sides"])})
        for key in keys:
            rows.append([key[0], key[1], matches[key], *_negotiation_cells(sums[key], ratios(sums[key]))])
    models = sorted({str(r["annotator"].get("model")) for r in annotated})
    settings = sorted({", ".join(f"{k} {v}" for k, v in sorted((r["annotator"].get("settings") or {}).items()))
                       for r in annotated} - {""})
    left = len(press) - len(annotated)
    note = (
        f"Annotated by {', '.join(models)}" + (f" ({'; '.join(settings)})" if settings else "")
        + f" over {len(annotated)} match(es)"
        + (f"; {left} match(es) without an annotator are left out" if left else "")
        + ". Private messages only. AlignR = messages aligned with the sender's declared strategy; AcceptR = "
        "proposals the recipient accepted; Mut:1S = mutual-benefit : one-sided proposals; P:C = peace : conflict "
        "messages; Persp. / Cond. = messages with perspective taking / conditional plans; failures = unreadable "
        "annotator replies (left out)." + not_scored
    )
    return {
        **base,
        "columns": ["agent", "power", "matches", "messages", "AlignR", "AcceptR", "Mut:1S", "P:C", "Persp.", "Cond.",
                    "failures"],
        "rows": rows,
        "note": note,
    }


def _negotiation_cells(counts: dict[str, int], shares: dict[str, float | None]) -> list[Any]:
    """Returns the ratio cells with their counts: ``0.75 (3/4)``, ``2.00 (4:2)``, ``∞ (3:0)``; None for 0 / 0."""
    def cell(ratio: float | None, a: str, b: str, sep: str = "/") -> str | None:
        if ratio is None:
            return f"∞ ({counts[a]}{sep}0)" if counts[a] else None
        return f"{ratio:.2f} ({counts[a]}{sep}{counts[b]})"

    return [
        counts["messages"],
        cell(shares["align_ratio"], "aligned", "messages"),
        cell(shares["accept_rate"], "accepted", "proposals"),
        cell(shares["mutual_to_one_sided"], "mutual_benefit", "one_sided", ":"),
        cell(shares["peace_to_conflict"], "peace", "conflict", ":"),
        cell(shares["perspective_ratio"], "perspective", "messages"),
        cell(shares["conditional_ratio"], "conditional", "messages"),
        counts["failures"],
    ]


def _pct(share: float | None) -> float | None:
    return None if share is None else 100.0 * share


def planning(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """SPIN-Bench classical planning: Plan Accuracy, N-Step and the error classes, overall and per domain.

    Table 1/2 shape: per agent over all its tasks, then per agent and domain.
    A task whose match errored produced no plan and counts as not valid, as
    SPIN-Bench counts a plan it did not get; a skipped task was never posed
    and is counted beside (:mod:`stratbench.games.spin.metrics.planning`). Plan Acc, BC,
    GS, Other and errored are shares of all tasks (they sum to 100%).
    """
    from stratbench.games.spin.metrics.planning import (  # lean: planning summaries load only for planning rows
        PAPER_RESULTS,
        PAPER_TASKS,
        action_space_by_domain,
        by_domain,
        detailed_errors,
        pearson,
        spearman,
        state_action_space_by_domain,
        summaries_by_agent,
    )
    from stratbench.games.spin.metrics.action_space import (  # lean: planning summaries load only for planning rows
        STATE_LIMIT,
    )

    summaries = summaries_by_agent(records, unscored)
    if not summaries:
        return None
    overall = []
    for agent, summary in summaries.items():
        errors = summary["errors"]
        overall.append([
            agent, "run", summary["tasks"], summary["valid"], summary["errored"], summary["skipped"],
            _pct(summary["plan_accuracy"]), summary["n_step"], _pct(errors["BC"]), _pct(errors["GS"]),
            _pct(errors["Other"]), _pct(errors["errored"]), summary["n_step_tasks"],
        ])
    overall += [[model, "SPIN-Bench Tables 1–2", PAPER_TASKS, None, None, None, *values, None, PAPER_TASKS]
                for model, values in PAPER_RESULTS.items()]
    domains = []
    unplayed: dict[tuple[str, str], int] = {}
    for agent, rows in by_domain(records, unscored).items():
        for domain, row in rows.items():
            domains.append([agent, domain, row["category"], row["tasks"], row["valid"], row["errored"],
                            row["skipped"], _pct(row["plan_accuracy"]), row["n_step"], _pct(row["BC"]),
                            _pct(row["GS"]), _pct(row["Other"]), _pct(row["errored_share"])])
            unplayed[(agent, domain)] = row["errored"]
    failures = [[agent, error, count] for agent, counts in detailed_errors(records).items()
                for error, count in counts.items()]
    failures += [[agent, "errored (no plan judged)", summary["errored"]]
                 for agent, summary in summaries.items() if summary["errored"]]
    failures.sort(key=lambda row: row[0])
    space, correlations, points = [], [], []
    for agent, rows in action_space_by_domain(records).items():
        for domain, row in rows.items():
            space.append([agent, domain, row["tasks"], unplayed.get((agent, domain), 0), _pct(row["plan_accuracy"]),
                          row["legal_actions"]])
        points.append({"name": agent, "points": [[row["legal_actions"], _pct(row["plan_accuracy"])]
                                                 for row in rows.values()]})
        xs = [row["legal_actions"] for row in rows.values()]
        ys = [row["plan_accuracy"] for row in rows.values()]
        correlations.append([agent, "legal actions per step (3a)", len(rows), pearson(xs, ys), spearman(xs, ys)])
    totals, total_points = [], []
    for agent, rows in state_action_space_by_domain(records).items():
        for domain, row in rows.items():
            totals.append([agent, domain, row["tasks"], unplayed.get((agent, domain), 0), _pct(row["plan_accuracy"]),
                           row["log10_pairs"]])
        total_points.append({"name": agent, "points": [[row["log10_pairs"], _pct(row["plan_accuracy"])]
                                                       for row in rows.values()]})
        xs = [row["log10_pairs"] for row in rows.values()]
        ys = [row["plan_accuracy"] for row in rows.values()]
        correlations.append([agent, "log10 state–action pairs (3b)", len(rows), pearson(xs, ys), spearman(xs, ys)])
    not_computed = [
        [r["sides"][0].get("agent", "?"), (r.get("metrics", {}).get("0") or {}).get("task") or r.get("variant"),
         r["metrics_not_computed"]["state_action_pairs"]]
        for r in records
        if r.get("game") == "pddl" and "state_action_pairs" in (r.get("metrics_not_computed") or {})
    ]
    return {
        "title": "Classical planning (SPIN-Bench Tables 1–2)",
        "note": "Plan Acc = valid plans / all tasks (micro-average, in %); tasks = the tasks scored plus those "
                "whose match errored: an errored task produced no plan and counts as not valid, as SPIN-Bench "
                "counts a plan it did not get (errored (%) is their share); skipped tasks were never posed and "
                "count in no denominator. N-Step = Σ C_i·S_i / N with S_i the reference plan length of task i "
                "(scored tasks without one are left out of N-Step only; errored tasks count in N with C_i = 0); "
                "BC = broken constraints (inapplicable action, unknown name, wrong arity or type), GS = every "
                "step executable but the goal not reached, Other = unreadable or missing answer; all as % of all "
                "tasks, so Plan Acc + BC + GS + Other + errored = 100.",
        "tables": [
            {"title": "All tasks", "note": "Rows of source SPIN-Bench are the paper's published numbers over its "
                                           "1,280 tasks (– where it gives no error breakdown), not this run's.",
             "columns": ["agent", "source", "tasks", "valid", "errored", "skipped", "Plan Acc (%)", "N-Step",
                         "BC (%)", "GS (%)", "Other (%)", "errored (%)", "tasks with S_i"],
             "rows": overall},
            {"title": "Per domain", "note": "Category as in SPIN-Bench's released scorer (one per domain).",
             "columns": ["agent", "domain", "category", "tasks", "valid", "errored", "skipped", "Plan Acc (%)",
                         "N-Step", "BC (%)", "GS (%)", "Other (%)", "errored (%)"],
             "rows": domains},
            {"title": "Failures in detail", "note": "Count of failed tasks per validator verdict, and of tasks "
                                                   "whose match errored before a plan was judged.",
             "columns": ["agent", "failure", "tasks"], "rows": failures},
            {"title": "Accuracy and action space per domain (SPIN-Bench Fig. 3a)",
             "note": "Legal actions per step = applicable ground actions in the states the task's reference plan "
                     "passes through, averaged over its steps, then over the domain's tasks (tasks without a "
                     "reference plan are left out). Plan Acc here is over those tasks; errored = the domain's "
                     "tasks whose match errored, left out here (they count as not valid in the tables above).",
             "columns": ["agent", "domain", "tasks", "errored", "Plan Acc (%)", "legal actions per step"],
             "rows": space,
             "chart": {"x_label": "legal actions per step (domain mean)", "y_label": "Plan Acc (%)", "lines": False,
                       "series": points}},
            {"title": "Accuracy and total state–action space per domain (SPIN-Bench Fig. 3b)",
             "note": "State–action pairs = every state reachable from the task's initial state, counted with its "
                     "applicable ground actions (exact); log10 averaged over the domain's tasks. Tasks with more "
                     f"than {STATE_LIMIT} reachable states are not enumerated and are left out, with their domain "
                     "when none is left; so are tasks whose enumeration ran past the metric budget "
                     "(--stratbench-metric-timeout), listed below the table. Errored: as in the table above.",
             "columns": ["agent", "domain", "tasks", "errored", "Plan Acc (%)", "log10 state–action pairs"],
             "rows": totals,
             **({"chart": {"x_label": "log10 state–action pairs (domain mean)", "y_label": "Plan Acc (%)",
                           "lines": False, "series": total_points}} if totals else {})},
            *([{"title": "Tasks left out of Fig. 3b: state–action space not computed",
                "note": "Their matches scored; only the count is missing, for the reason given.",
                "columns": ["agent", "task", "why"], "rows": not_computed}] if not_computed else []),
            {"title": "Correlation of domain accuracy with the action space (Fig. 3a and 3b)",
             "note": "Across the agent's domains; – when fewer than two domains or a constant column.",
             "columns": ["agent", "measure", "domains", "Pearson r", "Spearman ρ"], "rows": correlations},
        ],
    }


def probes(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """SPIN-Bench's planning probes: accuracy by setting (factual retrieval Fig. 6, spatial tracking Fig. 3c).

    Factual retrieval: one row per agent and number of mutable properties, one
    column per trajectory length. Spatial tracking: one row per agent, one
    column per number of moves. Each cell is ``accuracy % (correct/items)``,
    with the items whose match errored (counted, as not correct) or was
    skipped (not counted) beside: ``33.3 (1/3; 1 errored)``.
    """
    grids = accuracy_grid(records, unscored)
    if not grids:
        return None
    tables = []
    factual = grids.get("factual_retrieval")
    if factual:
        lengths = factual["lengths"]
        rows = [[agent, depth, *(_probe_cell(cells.get(n)) for n in lengths)]
                for (agent, depth), cells in factual["cells"].items()]
        series = [{"name": f"{agent}, {depth} properties",
                   "points": [[n, 100.0 * cell["accuracy"]] for n, cell in cells.items() if cell["items"]]}
                  for (agent, depth), cells in factual["cells"].items()]
        tables.append({"title": "Factual retrieval: accuracy by mutable properties and trajectory length",
                       "chart": {"x_label": "trajectory length (steps)", "y_label": "accuracy (%)", "series": series},
                       "note": "Report the state after the asked step of a trajectory with every transition "
                               "spelled out (SPIN-Bench C.1, Fig. 6).",
                       "columns": ["agent", "mutable properties", *(f"{n} step{'s' if n != 1 else ''}" for n in lengths)], "rows": rows})
    spatial = grids.get("spatial_tracking")
    if spatial:
        lengths = spatial["lengths"]
        rows = [[agent, *(_probe_cell(cells.get(n)) for n in lengths)] for (agent, _), cells in spatial["cells"].items()]
        series = [{"name": agent, "points": [[n, 100.0 * cell["accuracy"]] for n, cell in cells.items()
                                             if cell["items"]]}
                  for (agent, _), cells in spatial["cells"].items()]
        tables.append({"title": "Spatial tracking: accuracy by number of moves",
                       "chart": {"x_label": "moves", "y_label": "accuracy (%)", "series": series},
                       "note": "Final coordinate after a sequence of moves (SPIN-Bench §4.2, Fig. 3c).",
                       "columns": ["agent", *(f"{n} move{'s' if n != 1 else ''}" for n in lengths)], "rows": rows})
    return {
        "title": "Planning probes (SPIN-Bench)",
        "note": "Accuracy % (correct / items) per setting; a missing answer counts as wrong, and so does an "
                "item whose match errored (no answer came back: 'N errored' beside, counted in items); "
                "'N skipped' items were never asked and count in no denominator.",
        "tables": tables,
    }


def _probe_cell(cell: dict[str, Any] | None) -> str | None:
    if cell is None:
        return None
    unplayed = beside(cell)
    if not cell["items"]:
        return f"– ({unplayed})"
    share = f"{100.0 * cell['accuracy']:.1f} ({cell['correct']}/{cell['items']}"
    return f"{share}; {unplayed})" if unplayed else f"{share})"
