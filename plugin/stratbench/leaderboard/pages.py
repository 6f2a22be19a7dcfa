"""Writes the leaderboard site: ``index.html``, ``history.html`` and one page per model under ``models/``.

Rendering only (the content is :class:`stratbench.leaderboard.board.Board`).
jinja2 autoescapes every value; every page carries the report's
Content-Security-Policy (no script at all, no request leaves the page), so
the site works from disk (file://) and from any static host. The index leads
with one ranked list per pool; every link is relative and stays inside the
site folder (:mod:`stratbench.leaderboard.bundle` puts the runs' reports and
match pages there), so the folder is published alone.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Any

from stratbench.leaderboard.board import Board
from stratbench.leaderboard.bundle import REPORT_PAGE, bundle_reports
from stratbench.leaderboard.cost import COST_RULE
from stratbench.leaderboard.history import Line
from stratbench.leaderboard.plots import (
    interval_plot,
    interval_scale,
    runs_chart,
    time_ticks,
)
from stratbench.leaderboard.pooling import POOLING_RULE, Pool, difference_fields
from stratbench.leaderboard.runs import Run
from stratbench.report.render import section_tables
from stratbench.report.svg import table_chart
from stratbench.run.results import replace_text

__all__ = ["CSP", "model_page", "write_site"]

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""The pages' Content-Security-Policy: the report's (no script, no request to anywhere)."""
MODELS_DIR = "models"
_CHART_WIDTH = 560  # two charts side by side in the page's 1,200 px


def model_page(model: str) -> str:
    """Returns a model's page, relative to the site: ``models/<readable name>-<hash>.html``."""
    readable = re.sub(r"[^A-Za-z0-9._+-]+", "_", model).strip("_")[:80] or "model"
    return f"{MODELS_DIR}/{readable}-{hashlib.sha256(model.encode()).hexdigest()[:8]}.html"


def _environment() -> Any:
    import jinja2  # lean: jinja2 loads only when pages are written

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("stratbench.leaderboard", "templates"),
        autoescape=jinja2.select_autoescape(["html", "html.j2"], default_for_string=True),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["num"] = _num
    env.globals["csp"] = CSP
    return env


def _num(value: Any, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _rating_cell(ratings: dict[str, Any] | None, agent: str, game: str) -> str:
    """``+0.12 [-0.30, +0.55] (n)`` for an agent in one game; ``–`` where it has none."""
    source = ((ratings or {}).get("per_game") or {}).get(game)
    if not source or agent not in source["agents"]:
        return "–"
    k = source["agents"].index(agent)
    mean, low, high = source["mean"][k], source["low"][k], source["high"][k]
    if mean is None:
        return "–"
    text = f"{mean:+.2f}"
    if low is not None and high is not None:
        text += f" [{low:+.2f}, {high:+.2f}]"
    return f"{text} ({source['n_matches'][k]})"


def _interval(row: dict[str, Any]) -> str:
    """``[-0.30, +0.55]``, or ``–`` without an interval."""
    if row["low"] is None or row["high"] is None:
        return "–"
    return f"[{row['low']:+.2f}, {row['high']:+.2f}]"


def _ranked_rows(board: Board, pool: Pool) -> list[dict[str, Any]]:
    """A pool's ranked list as the tables show it: each row with its model page, interval and inline plot."""
    rows = board.rankings[pool.name]
    scale = interval_scale(rows)
    return [{**row, "page": model_page(board.model_of_agent.get(row["agent"], row["agent"])),
             "interval": _interval(row), "plot": interval_plot(row["mean"], row["low"], row["high"], scale)}
            for row in rows]


def _pool_sections(board: Board) -> list[dict[str, Any]]:
    """One section per pool: its ranked list, the per-game ratings of the same agents, what it left unrated,
    its analysis notes and the earlier pools it stands apart from."""
    sections = []
    for pool in board.pools:
        data = board.pooled[pool.name]
        ratings = data.get("ratings")
        rows = _ranked_rows(board, pool)
        games = sorted((ratings or {}).get("per_game", {})) or data.get("games", [])
        ranked = {row["agent"] for row in rows}
        played = sorted({side["agent"] for run in pool.runs for r in run.records for side in r["sides"]})
        notes = _notes(data)
        if ratings and ratings.get("warning"):
            notes.insert(0, str(ratings["warning"]))
        sections.append({
            "pool": pool, "anchor": _anchor(pool), "rows": rows, "games": games, "matches": data["n_matches"],
            "level": round((ratings or {}).get("level", 0.9) * 100),
            "per_game": [{"agent": row["agent"], "cells": [_rating_cell(ratings, row["agent"], game)
                                                           for game in games]} for row in rows],
            "unrated": [agent for agent in played if agent not in ranked], "notes": notes,
            "apart_from": [earlier for earlier, _ in pool.apart],
        })
    return sections


def _anchor(pool: Pool) -> str:
    return pool.name.replace(" ", "-")


def _differences(board: Board) -> dict[str, Any]:
    """The pools' differences, folded: one short line (the fields that differ) and every phrase inside."""
    apart = [{"pool": pool, "earlier": earlier, "why": why} for pool in board.pools for earlier, why in pool.apart]
    return {"apart": apart, "fields": difference_fields([phrase for item in apart for phrase in item["why"]])}


def _notes(data: dict[str, Any]) -> list[str]:
    """A pool's analysis notes, pointing at the runs' reports for what the leaderboard does not list."""
    return [note.replace("they are listed under 'Skipped and errored matches'", "each run's report lists them")
            for note in data.get("notes", [])]


def _link(target: Path, page_dir: Path) -> str:
    """A relative link from a page in ``page_dir`` to ``target`` (``/`` separated, for file:// and hosts)."""
    return Path(os.path.relpath(target.resolve(), page_dir.resolve())).as_posix()


def _run_rows(board: Board, reports: dict[str, Path], page_dir: Path) -> list[dict[str, Any]]:
    pool_of = {run.label: pool.name for pool in board.pools for run in pool.runs}
    rows = []
    for run in board.runs:
        folder = reports.get(run.label)
        rows.append({
            "run": run, "pool": pool_of[run.label],
            "report": _link(folder / REPORT_PAGE, page_dir) if folder else None,
            "stratbench": run.version("pytest-stratbench"), "litellm": run.version("litellm"),
            "matches": len(run.scored), "unscored": len(run.records) - len(run.scored),
        })
    return rows


def _run_axis(board: Board) -> list[tuple[str, str]]:
    """Every run as ``(label, tick)`` for the history charts' x axis (ticks distinct)."""
    return list(zip([run.label for run in board.runs], time_ticks([run.started for run in board.runs]),
                    strict=True))


def _line_charts(board: Board, lines: list[Line], axis: list[tuple[str, str]],
                 prefix: str = "") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The charts of the lines with a history (two runs or more, each chart drawn only where one of its series
    has two points), and the lines with none yet (one run), each with its model page (``prefix`` before it)."""
    charts, single = [], []
    for line in lines:
        page = prefix + model_page(board.model_of_agent.get(line.agents[-1], line.agents[-1]))
        if len(line.points) < 2:
            single.append({"line": line, "page": page})
            continue
        rating = runs_chart([{"name": line.name, "points": [
            {"index": p["index"], "y": p["rating"], "low": p["low"], "high": p["high"]} for p in line.points]}],
            axis, y_label="rating (each run alone)", title=f"{line.name}: rating by run", width=_CHART_WIDTH)
        scores = runs_chart([{"name": game, "points": [
            {"index": p["index"], "y": p["games"].get(game)} for p in line.points]} for game in line.games],
            axis, y_label="mean score", title=f"{line.name}: mean score per game by run", width=_CHART_WIDTH)
        if rating or scores:
            charts.append({"line": line, "rating": rating, "scores": scores, "runs": len(line.points), "page": page})
        else:
            single.append({"line": line, "page": page})
    return charts, single


def _model_ratings(board: Board, agents: list[str]) -> list[dict[str, Any]]:
    """A model's agents in every pool that rated them: the pool's rows, with its rank among the pool's agents."""
    found = []
    for pool in board.pools:
        rows = _ranked_rows(board, pool)
        found += [{**row, "pool": pool, "of": len(rows), "anchor": _anchor(pool)}
                  for row in rows if row["agent"] in agents]
    return found


def _model_matches(run: Run, agents: list[str], folder: Path | None, page_dir: Path) -> list[dict[str, Any]]:
    rows = []
    for record in run.records:
        names = [side["agent"] for side in record["sides"]]
        if not set(names) & set(agents):
            continue
        page = run.pages.get(str(record["match_id"]))
        rows.append({
            "test_id": record.get("test_id", record["match_id"]), "game": record.get("game"),
            "agents": names, "scores": record.get("scores") or [], "status": record.get("status", "scored"),
            "link": _link(folder / page, page_dir) if folder and page else None,
        })
    return rows


def write_site(board: Board, out: Path) -> dict[str, Path]:
    """Writes index.html, history.html and models/*.html into ``out``, with the runs' reports and match pages the
    pages link (:func:`stratbench.leaderboard.bundle.bundle_reports`); returns the written pages by name."""
    env = _environment()
    models_dir = out / MODELS_DIR
    models_dir.mkdir(parents=True, exist_ok=True)
    reports = bundle_reports(board.runs, out)
    axis = _run_axis(board)
    written: dict[str, Path] = {}
    index = env.get_template("index.html.j2").render(
        board=board, pools=_pool_sections(board), differences=_differences(board), pooling_rule=POOLING_RULE,
        cost_rule=COST_RULE, runs=_run_rows(board, reports, out), tables=section_tables, num=_num, page=model_page,
        chart=table_chart,
    )
    written["index.html"] = _write(out / "index.html", index)
    charts, single = _line_charts(board, board.lines, axis)
    history = env.get_template("history.html.j2").render(board=board, charts=charts, single=single)
    written["history.html"] = _write(out / "history.html", history)
    model_run_rows = _run_rows(board, reports, models_dir)  # links relative to models/
    for model, agents in board.models.items():
        lines = [line for line in board.lines if set(line.agents) & set(agents)]
        runs = [row for row in model_run_rows
                if any(side["agent"] in agents for r in row["run"].records for side in r["sides"])]
        charts, single = _line_charts(board, lines, axis, prefix="../")
        page = env.get_template("model.html.j2").render(
            board=board, model=model, agents=agents, charts=charts, single=single, runs=runs,
            matches={row["run"].label: _model_matches(row["run"], agents, reports.get(row["run"].label), models_dir)
                     for row in runs},
            ratings=_model_ratings(board, agents),
        )
        name = model_page(model)
        written[name] = _write(out / name, page)
    return written


def _write(path: Path, text: str) -> Path:
    replace_text(path, text)
    return path
