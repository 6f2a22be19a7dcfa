"""Writes the reports: ``report.html`` (self-contained), ``report.md``, ``results.json`` and transcript pages.

Rendering is separate from computation (:mod:`stratbench.report.analysis`).
jinja2 autoescapes every value, so strings produced by models cannot inject
markup; the pages also carry a Content-Security-Policy that forbids scripts.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import Any

from stratbench.report.svg import heatmap, rating_plot
from stratbench.results import transcript_name

__all__ = ["render_html", "render_markdown", "render_transcript", "write_reports"]

_EMPTY_MANIFEST: dict[str, Any] = {
    "packages": {}, "models": [], "scaffolds": [], "seeds": [], "cassettes": {}, "command_line": [], "run_ids": [],
}
_MD_SPECIAL = str.maketrans({"|": "\\|", "<": "&lt;", ">": "&gt;", "\n": " "})


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.2f}" if abs(value) >= 0.01 or value == 0 else f"{value:.4f}"
    return str(value)


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("stratbench.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "html.j2"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["fmt"] = _fmt
    env.filters["md"] = lambda value: str(value).translate(_MD_SPECIAL)
    # Plain JSON text (autoescaped like any other string), readable where jinja's tojson writes \u003c.
    env.filters["json_text"] = lambda value: json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return env


def _rank_key(mean: float | None, agent: str) -> tuple[float, str]:
    """Orders agents best first (a rating of exactly 0 is a rating; None sorts last), then by name."""
    return (-mean if mean is not None else math.inf, agent)


def _rating_rows(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    ratings = data.get("ratings")
    if not ratings:
        return [], []
    games = sorted(ratings.get("per_game", {}))
    elo = data.get("elo") or {}
    rows = []
    order = sorted(range(len(ratings["agents"])), key=lambda k: _rank_key(ratings["mean"][k], ratings["agents"][k]))
    for k in order:
        agent = ratings["agents"][k]
        mean, low, high = ratings["mean"][k], ratings["low"][k], ratings["high"][k]
        cells = []
        for game in games:
            per = ratings["per_game"][game]
            if agent in per["agents"] and per["mean"][per["agents"].index(agent)] is not None:
                j = per["agents"].index(agent)
                cell = f"{per['mean'][j]:+.2f}" + ("*" if per["n_matches"][j] == 0 else "")
                if per["low"][j] is not None and per["high"][j] is not None:
                    cell += f" [{per['low'][j]:+.2f}, {per['high'][j]:+.2f}]"
                cells.append(cell)
            else:
                cells.append("–")
        rows.append({
            "agent": agent,
            "overall": "–" if mean is None else f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]",
            "mean": "–" if mean is None else f"{mean:+.2f}",
            "interval": "–" if low is None else f"[{low:+.2f}, {high:+.2f}]",
            "n": ratings["n_matches"][k],
            "games": cells,
            "elo": f"{elo[agent]:.0f}" if agent in elo else "–",
        })
    return games, rows


def _score_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    scores = data["average_scores"]
    rows = []
    for agent, overall in sorted(scores["overall"].items(), key=lambda kv: -kv[1]["mean"]):
        cells = [f"{overall['mean']:.2f} ({overall['n']})"]
        for game in data["games"]:
            stats = scores["per_game"].get(game, {}).get(agent)
            cells.append("–" if stats is None else f"{stats['mean']:.2f} ({stats['n']})")
        rows.append({"agent": agent, "cells": cells})
    return rows


def _page_name(match_id: str, used: set[str]) -> str:
    """Names a match's transcript page: the transcript's file name, made unique when it was cut or clashes."""
    stem = transcript_name(match_id)[:-5]
    if len(stem) >= 180 or stem in used:
        stem = f"{stem[:160]}-{hashlib.sha256(match_id.encode('utf-8')).hexdigest()[:12]}"
    used.add(stem)
    return f"transcripts/{stem}.html"


def render_html(data: dict[str, Any]) -> str:
    """Returns the self-contained HTML report."""
    games, rows = _rating_rows(data)
    plot = rating_plot(data["ratings"]) if data.get("ratings") else ""
    win = data.get("win_probability")
    heat = ""
    if win:
        position = {row["agent"]: k for k, row in enumerate(rows)}  # best first, like the table
        order = sorted(range(len(win["agents"])), key=lambda i: (position.get(win["agents"][i], len(position)), i))
        heat = heatmap([win["agents"][i] for i in order], [[win["matrix"][i][j] for j in order] for i in order])
    used: set[str] = set()
    for match in [*data["matches"], *data.get("unscored", [])]:
        match["page"] = _page_name(match["match_id"], used)
    manifest = {**_EMPTY_MANIFEST, **(data.get("manifest") or {})}
    return _environment().get_template("report.html.j2").render(
        data=data, manifest=manifest, rating_games=games, rating_rows=rows, score_rows=_score_rows(data), plot=plot,
        heat=heat,
    )


def _md(value: Any) -> str:
    return _fmt(value).translate(_MD_SPECIAL)


def _md_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(_md(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return lines


def _md_unscored(data: dict[str, Any]) -> list[str]:
    """Returns the Markdown of the skipped and errored matches: counts per agent, then one row per match."""
    unscored = data.get("unscored") or []
    if not unscored:
        return []
    lines = ["", "### Skipped and errored matches", ""]
    lines += _md_table(["agent", "skipped", "errored", "faults"], [
        [row["agent"], row["skipped"], row["errored"],
         ", ".join(f"{fault} {n}" for fault, n in sorted(row["faults"].items())) or "–"]
        for row in data.get("unscored_by_agent", [])
    ])
    lines += [""]
    lines += _md_table(["match", "agents", "status", "fault", "reason"], [
        [m["test_id"], " vs ".join(m["agents"]), m["status"], m["fault"], m["reason"]] for m in unscored
    ])
    return lines


def render_markdown(data: dict[str, Any]) -> str:
    """Returns compact Markdown tables for a CI comment (every cell escaped)."""
    _, rating_rows = _rating_rows(data)
    lines = ["## stratbench report", "",
             f"{data['n_matches']} matches · {len(data['games'])} games · {len(data['agents'])} agents", ""]
    lines += [f"> {_md(note)}" for note in data["notes"]]
    ratings = data.get("ratings")
    if ratings:
        lines += ["", f"### Ratings ({round(ratings['level'] * 100)}% intervals, B={ratings['n_resamples']})", ""]
        lines += _md_table(["agent", "rating", "interval", "matches", "Elo"],
                           [[r["agent"], r["mean"], r["interval"], r["n"], r["elo"]] for r in rating_rows])
    lines += ["", "### Average scores", ""]
    lines += _md_table(["agent", "overall", *data["games"]], [[r["agent"], *r["cells"]] for r in _score_rows(data)])
    lines += _md_unscored(data)
    for section in data["sections"]:
        lines += ["", f"### {section['title']}", ""]
        if section.get("note"):
            lines += [_md(section["note"]), ""]
        if section["rows"]:
            lines += _md_table(section["columns"], section["rows"])
    return "\n".join(lines) + "\n"


def render_transcript(match: dict[str, Any], events: list[dict[str, Any]], board_svg: str | None = None) -> str:
    """Returns one match's transcript page."""
    return _environment().get_template("transcript.html.j2").render(match=match, events=events, board_svg=board_svg)


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_reports(
    data: dict[str, Any], directory: Path, *, transcripts_from: list[Path] | None = None,
    boards: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Writes report.html, report.md, results.json and the transcript pages into ``directory``.

    Args:
        data: The analysed report data.
        directory: Where to write.
        transcripts_from: Directories whose ``transcripts/*.json`` hold the matches' events.
        boards: Optional per-game ``fn(record_row) -> svg or None`` for transcript pages.

    Returns:
        The written files by name.
    """
    directory.mkdir(parents=True, exist_ok=True)
    html = render_html(data)
    pages = directory / "transcripts"
    pages.mkdir(exist_ok=True)
    sources = transcripts_from or [directory]
    for match in [*data["matches"], *data.get("unscored", [])]:
        if not match.get("transcript"):
            continue
        events: list[dict[str, Any]] = []
        for source in sources:
            candidate = source / match["transcript"]
            if candidate.is_file():
                try:
                    events = json.loads(candidate.read_text(encoding="utf-8")).get("events", [])
                except (OSError, ValueError):
                    events = [{"kind": "error", "t": 0, "text": f"unreadable transcript {candidate}"}]
                break
        board = None
        if boards and match["game"] in boards:
            try:
                board = boards[match["game"]](match)
            except Exception:  # noqa: BLE001 - a board picture is optional
                board = None
        _write(directory / match["page"], render_transcript(match, events, board))
    written = {
        "report.html": directory / "report.html",
        "report.md": directory / "report.md",
        "results.json": directory / "results.json",
    }
    _write(written["report.html"], html)
    _write(written["report.md"], render_markdown(data))
    _write(written["results.json"], json.dumps(data, indent=1, sort_keys=True, default=str))
    return written
