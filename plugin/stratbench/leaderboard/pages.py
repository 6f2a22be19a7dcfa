"""Writes the leaderboard site: ``index.html``, ``history.html`` and one page per model under ``models/``.

Rendering only (the content is :class:`stratbench.leaderboard.board.Board`).
jinja2 autoescapes every value; every page carries the report's
Content-Security-Policy (no script at all, no request leaves the page), so
the site works from disk (file://) and from any static host. Links into a
run's ``report.html`` and match pages are relative to the page linking.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Any

from stratbench.leaderboard.board import Board
from stratbench.leaderboard.cost import COST_RULE
from stratbench.leaderboard.plots import runs_chart
from stratbench.leaderboard.pooling import POOLING_RULE
from stratbench.leaderboard.runs import Run
from stratbench.report.render import section_tables
from stratbench.report.svg import table_chart
from stratbench.run.results import replace_text

__all__ = ["CSP", "model_page", "write_site"]

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""The pages' Content-Security-Policy: the report's (no script, no request to anywhere)."""
MODELS_DIR = "models"


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


def _rating_cell(ratings: dict[str, Any] | None, agent: str, game: str | None = None) -> str:
    """``+0.12 [-0.30, +0.55] (n)`` for an agent overall or in one game; ``–`` where it has none."""
    if not ratings:
        return "–"
    source = ratings if game is None else (ratings.get("per_game") or {}).get(game)
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


def _pool_rows(board: Board) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The index table: its pool headers (name, runs, games) and one row per agent, best pooled rating first."""
    headers = []
    for pool in board.pools:
        data = board.pooled[pool.name]
        games = sorted((data.get("ratings") or {}).get("per_game", {})) or data.get("games", [])
        headers.append({"pool": pool, "games": games, "matches": data["n_matches"]})
    protocols: dict[str, set[str]] = {}
    for run in board.runs:
        for record in run.records:
            for side in record["sides"]:
                protocols.setdefault(side["agent"], set()).add(str(record.get("protocol") or "default"))

    def best(agent: str) -> tuple[float, str]:
        for pool in board.pools:
            ratings = board.pooled[pool.name].get("ratings")
            if ratings and agent in ratings["agents"] and ratings["mean"][ratings["agents"].index(agent)] is not None:
                return -ratings["mean"][ratings["agents"].index(agent)], agent
        return math.inf, agent

    rows = []
    for agent in sorted(board.agents, key=best):
        model = board.model_of_agent[agent]
        cells = []
        for header in headers:
            ratings = board.pooled[header["pool"].name].get("ratings")
            cells.append(_rating_cell(ratings, agent))
            cells += [_rating_cell(ratings, agent, game) for game in header["games"]]
        rows.append({"agent": agent, "model": model, "page": model_page(model),
                     "protocols": sorted(protocols.get(agent, {"default"})), "cells": cells})
    return headers, rows


def _notes(data: dict[str, Any]) -> list[str]:
    """A pool's analysis notes, pointing at the runs' reports for what the leaderboard does not list."""
    return [note.replace("they are listed under 'Skipped and errored matches'", "each run's report lists them")
            for note in data.get("notes", [])]


def _link(target: Path, page_dir: Path) -> str:
    """A relative link from a page in ``page_dir`` to ``target`` (``/`` separated, for file:// and hosts)."""
    return Path(os.path.relpath(target.resolve(), page_dir.resolve())).as_posix()


def _run_rows(board: Board, page_dir: Path) -> list[dict[str, Any]]:
    pool_of = {run.label: pool.name for pool in board.pools for run in pool.runs}
    rows = []
    for run in board.runs:
        rows.append({
            "run": run, "pool": pool_of[run.label],
            "report": _link(run.report_dir / "report.html", page_dir) if run.report_dir else None,
            "stratbench": run.version("pytest-stratbench"), "litellm": run.version("litellm"),
            "matches": len(run.scored), "unscored": len(run.records) - len(run.scored),
        })
    return rows


def _line_charts(board: Board, lines: list[Any]) -> list[dict[str, Any]]:
    runs = [(run.label, run.date) for run in board.runs]
    charts = []
    for line in lines:
        rating = runs_chart([{"name": line.name, "points": [
            {"index": p["index"], "y": p["rating"], "low": p["low"], "high": p["high"]} for p in line.points]}],
            runs, y_label="rating (each run alone)", title=f"{line.name}: rating by run")
        scores = runs_chart([{"name": game, "points": [
            {"index": p["index"], "y": p["games"].get(game)} for p in line.points]} for game in line.games],
            runs, y_label="mean score", title=f"{line.name}: mean score per game by run")
        charts.append({"line": line, "rating": rating, "scores": scores, "runs": len(line.points),
                       "page": model_page(board.model_of_agent.get(line.agents[-1], line.agents[-1]))})
    return charts


def _model_matches(run: Run, agents: list[str], page_dir: Path) -> list[dict[str, Any]]:
    rows = []
    for record in run.records:
        names = [side["agent"] for side in record["sides"]]
        if not set(names) & set(agents):
            continue
        page = run.pages.get(str(record["match_id"]))
        rows.append({
            "test_id": record.get("test_id", record["match_id"]), "game": record.get("game"),
            "agents": names, "scores": record.get("scores") or [], "status": record.get("status", "scored"),
            "link": _link(run.report_dir / page, page_dir) if run.report_dir and page else None,
        })
    return rows


def write_site(board: Board, out: Path) -> dict[str, Path]:
    """Writes index.html, history.html and models/*.html into ``out``; returns the written files by name."""
    env = _environment()
    models_dir = out / MODELS_DIR
    models_dir.mkdir(parents=True, exist_ok=True)
    headers, rows = _pool_rows(board)
    written: dict[str, Path] = {}
    index = env.get_template("index.html.j2").render(
        board=board, headers=headers, rows=rows, pooling_rule=POOLING_RULE, cost_rule=COST_RULE,
        runs=_run_rows(board, out), tables=section_tables, num=_num, page=model_page, chart=table_chart,
        notes=_notes,
    )
    written["index.html"] = _write(out / "index.html", index)
    history = env.get_template("history.html.j2").render(
        board=board, charts=_line_charts(board, board.lines), page=model_page)
    written["history.html"] = _write(out / "history.html", history)
    model_run_rows = _run_rows(board, models_dir)  # links relative to models/
    for model, agents in board.models.items():
        lines = [line for line in board.lines if set(line.agents) & set(agents)]
        runs = [row for row in model_run_rows
                if any(side["agent"] in agents for r in row["run"].records for side in r["sides"])]
        page = env.get_template("model.html.j2").render(
            board=board, model=model, agents=agents, charts=_line_charts(board, lines), runs=runs,
            matches={row["run"].label: _model_matches(row["run"], agents, models_dir) for row in runs},
            ratings=[(pool, {agent: _rating_cell(board.pooled[pool.name].get("ratings"), agent) for agent in agents})
                     for pool in board.pools],
        )
        name = model_page(model)
        written[name] = _write(out / name, page)
    return written


def _write(path: Path, text: str) -> Path:
    replace_text(path, text)
    return path

