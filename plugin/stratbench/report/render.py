"""Writes the reports: ``report.html`` (self-contained), ``report.md``, ``results.json`` and transcript pages.

Rendering is separate from computation (:mod:`stratbench.report.analysis`).
jinja2 autoescapes every value, so strings produced by models cannot inject
markup; the pages also carry a Content-Security-Policy that allows no script but
the report's own, by its hash (a match page's viewer; report.html's matches table
when the run is large).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import math
import os
import sys
import threading
from importlib.resources import files
from pathlib import Path
from typing import Any

from stratbench.report.gate_section import GATE_COLUMNS, GATE_KEY_COLUMNS, gate_rows, llr_chart, unit_notes
from stratbench.report.embed import ENCODING, embed
from stratbench.report.layout import table_view
from stratbench.report.replay import (
    CUT_OFF, finish_note, pack_replay, renderer_for, replay_steps, reply_text, token_split,
)
from stratbench.report.svg import heatmap, rating_plot, table_chart
from stratbench.report.unplayed import beside
from stratbench.report.health import HEALTH_COLUMNS, health_rows, reason_lines
from stratbench.run.results import match_outcome, read_transcript, replace_text, transcript_name

HEALTH_CAPTION = (
    "Refused answers per game and agent: illegal moves, unreadable answers, answers cut by the output-token "
    "limit and fallbacks per decision, forfeits per match, and the refusals by reason. A flag marks a game where "
    "the harness, not the model, is the likely cause."
)
"""What the health section shows (stated under its heading)."""

__all__ = ["render_html", "render_markdown", "render_transcript", "section_tables", "write_reports"]

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


@functools.lru_cache(maxsize=1)
def _environment() -> Any:
    """The templates' environment, made once: each template is compiled once per process, not once per page."""
    import jinja2  # lean: jinja2 loads only when a report is written

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
    # A model call's tokens, reply (or tool calls) and how it ended, as the replay shows them.
    env.filters.update(token_split=token_split, reply_text=reply_text, finish_note=finish_note)
    env.globals["cut_off"] = CUT_OFF
    return env


def _rank_key(mean: float | None, agent: str) -> tuple[float, str]:
    """Orders agents best first (a rating of exactly 0 is a rating; None sorts last), then by name."""
    return (-mean if mean is not None else math.inf, agent)


def _rating_rows(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    ratings = data.get("ratings")
    if not ratings:
        return [], []
    games = sorted(ratings.get("per_game", {}))
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
        })
    return games, rows


def _elo_rows(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Returns the games with an internal Elo and one row per rated agent (best first in its first game)."""
    by_game = (data.get("elo_by_game") or {}).get("ratings") or {}
    games = sorted(by_game)
    agents = sorted({a for ratings in by_game.values() for a in ratings},
                    key=lambda a: (*(-by_game[g].get(a, -math.inf) for g in games), a))
    rows = [{"agent": a, "cells": [f"{by_game[g][a]:.0f}" if a in by_game[g] else "–" for g in games]}
            for a in agents]
    return games, rows


def _paper_elo_rows(data: dict[str, Any] | None = None) -> tuple[list[str], list[list[Any]]]:
    """Returns SPIN-Bench's published Table 4 as games and rows, to show beside the run's Elo: only its games
    this run played (none: no rows)."""
    from stratbench.rating.elo import PAPER_TABLE_4  # lean: the rating stack (numpy, scipy, choix)

    info = (data or {}).get("elo_by_game") or {}
    played = set(info.get("ratings") or {}) | set(info.get("matches") or {}) | set(info.get("without_llm_pairs") or [])
    games = [g for g in ("tictactoe", "connect4", "chess") if data is None or g in played]
    if not games:
        return [], []
    return games, [[model, *(values[g] for g in games)] for model, values in PAPER_TABLE_4.items()]


PAPER_ELO_CAPTION = ("SPIN-Bench's published Table 4 (the paper's numbers from its own 14 LLMs and a human, "
                     "10 games per pair in Tic-Tac-Toe and Connect Four, 4 in chess; not this run).")


def _has_elo_table(data: dict[str, Any]) -> bool:
    """Tells whether the run has two-sided games, so the Elo table (or the reason it is empty) belongs in it."""
    info = data.get("elo_by_game") or {}
    return bool(info.get("ratings") or info.get("without_llm_pairs"))


def _elo_caption(data: dict[str, Any]) -> str:
    info = data.get("elo_by_game") or {}
    parts = [info.get("rule", "")]
    counts = ", ".join(f"{g}: {info['matches'][g]} matches in {info['pairs'][g]} pairs" for g in info.get("matches", {}))
    if counts:
        parts.append(f"From {counts}.")
    if info.get("without_llm_pairs"):
        parts.append(f"No LLM-vs-LLM matches (no Elo): {', '.join(info['without_llm_pairs'])}.")
    return " ".join(p for p in parts if p)


OVERVIEW_CAPTION = (
    "Per model (scaffolds pooled) and game: the mean score of the model's side (scored matches in brackets, "
    "with the model's errored and skipped matches beside: they have no answers or score to count), and legal "
    "moves and unreadable replies as shares of all answers (counts in brackets)."
)


def _share(part: int | None, whole: int) -> str:
    if part is None or not whole:
        return "–"
    return f"{100 * part / whole:.0f}% ({part}/{whole})"


OVERVIEW_COLUMNS = ["model", "game", "score", "score range", "legal", "format errors"]
"""The models-at-a-glance table: a row per model and game, so two or three models fit a window's width."""


def _overview_table(data: dict[str, Any]) -> dict[str, Any] | None:
    """Returns the models-at-a-glance table (a section table, see :func:`table_view`): per model a row for each
    game it played and, after two games or more, one over all of them; None when no model played."""
    overview = data.get("model_overview")
    if not overview:
        return None
    rows = []
    for model in overview["models"]:
        played = [(row, row["cells"][model]) for row in overview["games"] if model in row["cells"]]
        total: dict[str, int | None] = {"answers": 0, "legal": 0, "format_errors": 0}
        for row, cell in played:
            span = row.get("score_range")
            unplayed = beside(cell)
            score = "–" if cell["mean_score"] is None else f"{cell['mean_score']:.2f}"
            rows.append([model, row["game"], f"{score} ({cell['matches']}{'; ' + unplayed if unplayed else ''})",
                         "–" if not span else f"{float(span[0]):g}–{float(span[1]):g}",
                         _share(cell["legal"], cell["answers"]), _share(cell["format_errors"], cell["answers"])])
            total["answers"] += cell["answers"]
            total["legal"] += cell["legal"]
            total["format_errors"] = (None if cell["format_errors"] is None or total["format_errors"] is None
                                      else total["format_errors"] + cell["format_errors"])
        if len(played) > 1:
            rows.append([model, "all games", "–", "–", _share(total["legal"], total["answers"]),
                         _share(total["format_errors"], total["answers"])])
    return {"columns": OVERVIEW_COLUMNS, "rows": rows, "label_columns": ["model", "game"],
            "key_columns": OVERVIEW_COLUMNS[2:]}


def _score_header(data: dict[str, Any]) -> list[str]:
    """Names the score columns: win-share games plainly, other games with their score range."""
    scores = data["average_scores"]
    overall_games = set(scores.get("overall_games", data["games"]))
    header = ["overall (win shares)"]
    for game in data["games"]:
        scale = (scores.get("scales") or {}).get(game)
        if game in overall_games:
            header.append(game)
        elif game not in scores.get("per_game", {game: None}):
            header.append(f"{game} (self-play only)")
        elif scale is None:
            header.append(f"{game} (scale unknown)")
        else:
            low, high = scale["range"]
            header.append(f"{game} ({float(low):g}–{float(high):g})")
    return header


def _score_caption(data: dict[str, Any]) -> str:
    scores = data["average_scores"]
    rule = scores.get("rule", "")
    games = scores.get("overall_games")
    shown = ", ".join(games) if games else "none of this run's games"
    return (f"Mean score per side and match (scored matches in brackets, with the agent's errored and skipped "
            f"matches of the game beside: they are in no mean); {rule}; here: {shown}. Self-play is left out.")


def _score_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    scores = data["average_scores"]
    agents = sorted({a for per in scores["per_game"].values() for a in per},
                    key=lambda a: (-scores["overall"][a]["mean"] if a in scores["overall"] else math.inf, a))
    unplayed = data.get("unscored_by_agent_game") or {}
    rows = []
    for agent in agents:
        overall = scores["overall"].get(agent)
        cells = ["–" if overall is None else f"{overall['mean']:.2f} ({overall['n']})"]
        for game in data["games"]:
            stats = scores["per_game"].get(game, {}).get(agent)
            others = beside(unplayed.get(agent, {}).get(game))
            if stats is None:
                cells.append(f"– (0; {others})" if others else "–")
            else:
                cells.append(f"{stats['mean']:.2f} ({stats['n']}{'; ' + others if others else ''})")
        rows.append({"agent": agent, "cells": cells})
    return rows


def section_tables(section: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns a section's tables: its ``tables`` list, or the section itself as one table (with its layout's
    ``label_columns`` and ``key_columns``, :mod:`stratbench.report.layout`)."""
    if section.get("tables"):
        return list(section["tables"])
    layout = {key: section[key] for key in ("label_columns", "key_columns") if key in section}
    return [{"title": None, "columns": section.get("columns", []), "rows": section.get("rows", []), "note": None,
             **layout}]


def _section_views(section: dict[str, Any]) -> list[dict[str, Any]]:
    """A section's tables laid out for the page: key columns first, the rest folded (:func:`table_view`)."""
    return [table_view(table) for table in section_tables(section)]


def _page_name(match_id: str, used: set[str]) -> str:
    """Names a match's transcript page: the transcript's file name, made unique when it was cut or clashes."""
    stem = transcript_name(match_id)[:-5]
    if len(stem) >= 180 or stem in used:
        stem = f"{stem[:160]}-{hashlib.sha256(match_id.encode('utf-8')).hexdigest()[:12]}"
    used.add(stem)
    return f"transcripts/{stem}.html"


MATCH_ROWS_PER_GROUP = 500
"""Rows of the matches table under one fold: a game's matches, cut into folds of this many."""
MATCH_ROWS_OPEN = 500
"""Matches in a run up to which the matches table is plain rows in open folds. A larger run's rows ride
in the page compressed and its script draws a fold's rows when it is opened (report.html opens in well
under a second at 5,000 matches)."""


def _match_groups(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The matches table's folds: per game (in order of first appearance), at most
    :data:`MATCH_ROWS_PER_GROUP` rows each, open when the run is small."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for match in matches:
        by_game.setdefault(str(match.get("game")), []).append(match)
    groups = []
    for game, rows in by_game.items():
        for start in range(0, len(rows), MATCH_ROWS_PER_GROUP):
            part = rows[start:start + MATCH_ROWS_PER_GROUP]
            span = (f"{len(rows)} match{'es' if len(rows) != 1 else ''}" if len(part) == len(rows)
                    else f"matches {start + 1}–{start + len(part)} of {len(rows)}")
            groups.append({"title": f"{game}: {span}", "rows": part, "open": len(matches) <= MATCH_ROWS_OPEN})
    return groups


def _match_cells(match: dict[str, Any]) -> list[Any]:
    """A matches-table row as the page's script draws it: page (or None), then the cells' texts."""
    return [match["page"] if match.get("transcript") else None, str(match.get("test_id")),
            " vs ".join(map(str, match.get("agents") or [])), " / ".join(_fmt(s) for s in match.get("scores") or []),
            match_outcome(match), _fmt(match.get("turns")),
            "/".join(map(str, match["illegal"])) if match.get("illegal") else "", _fmt(match.get("tokens")),
            _fmt(match.get("cost_usd"))]


def _match_rows(groups: list[dict[str, Any]]) -> dict[str, str] | None:
    """The compressed rows of a large run's matches table, with the script that draws them (None: a small run)."""
    if not groups or groups[0]["open"]:
        return None
    script = files("stratbench.report").joinpath("templates/matches.js").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    rows = [[_match_cells(m) for m in group["rows"]] for group in groups]
    return {"data": embed(json.dumps(rows, ensure_ascii=False, separators=(",", ":"))), "encoding": ENCODING,
            "script": script, "script_hash": f"sha256-{digest}"}


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
        match["outcome"] = match_outcome(match)
    manifest = {**_EMPTY_MANIFEST, **(data.get("manifest") or {})}
    elo_games, elo_rows = _elo_rows(data)
    groups = _match_groups(data["matches"])
    overview = _overview_table(data)
    return _environment().get_template("report.html.j2").render(
        data=data, manifest=manifest, rating_games=games, rating_rows=rows, score_rows=_score_rows(data), plot=plot,
        heat=heat, score_header=_score_header(data), score_caption=_score_caption(data), elo_games=elo_games,
        elo_rows=elo_rows, elo_caption=_elo_caption(data), tables=_section_views, has_elo=_has_elo_table(data),
        chart=table_chart, paper_elo=_paper_elo_rows(data), paper_elo_caption=PAPER_ELO_CAPTION,
        overview=table_view(overview) if overview else None, overview_caption=OVERVIEW_CAPTION,
        gate_columns=GATE_COLUMNS, gate_key_columns=GATE_KEY_COLUMNS, gate_rows=gate_rows(data.get("gate") or {}),
        gate_unit_notes=unit_notes(data.get("gate") or {}),
        gate_charts=[llr_chart(t) for t in (data.get("gate") or {}).get("tests", [])],
        match_groups=groups, match_rows=_match_rows(groups),
        health=data.get("health"), health_columns=HEALTH_COLUMNS,
        health_rows=health_rows(data["health"]) if data.get("health") else [],
        health_reasons=reason_lines(data["health"]) if data.get("health") else [], health_caption=HEALTH_CAPTION,
    )


def _md(value: Any) -> str:
    return _fmt(value).translate(_MD_SPECIAL)


def _md_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(_md(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return lines


def _md_view(view: dict[str, Any]) -> list[str]:
    """A laid-out table (:func:`table_view`) as Markdown: its headline table, then its detail table folded in a
    ``<details>`` block, as report.html shows them."""
    lines = _md_table(view["columns"], view["rows"])
    detail = view["detail"]
    if detail:
        lines += ["", f"<details><summary>{_md(detail['summary'])}</summary>", ""]
        lines += _md_table(detail["columns"], detail["rows"]) + ["", "</details>"]
    return lines


def _md_gate(gate: dict[str, Any] | None) -> list[str]:
    """Returns the Markdown lines of the gate section (none without gate data)."""
    if not gate:
        return []
    lines = ["", f"### Regression gate: {gate['decision']}", "", _md(gate["error_control"]), ""]
    lines += _md_table(GATE_COLUMNS, gate_rows(gate))
    lines += [f"> {_md(note)}" for note in unit_notes(gate)]
    if gate.get("next"):
        lines += ["", f"**Next:** {_md(gate['next'])}"]
    lines += [f"> {_md(note)}" for note in gate.get("notes", [])]
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


def _md_health(health: dict[str, Any] | None) -> list[str]:
    """Returns the Markdown of the harness health section (none without health data or rows)."""
    if not health or not health["rows"]:
        return []
    lines = ["", "### Harness health", "", _md(HEALTH_CAPTION), ""]
    lines += _md_table(HEALTH_COLUMNS, health_rows(health))
    flags = [f"- **flag {_md(f['kind'])}**: {_md(f['message'])}" for f in health["flags"]]
    lines += ["", *(flags or ["No flags: nothing points at the harness rather than the models."])]
    reasons = reason_lines(health)
    if reasons:
        lines += ["", "Most common rejected answers:", ""] + [f"- {_md(line)}" for line in reasons]
    lines += [f"> {_md(note)}" for note in health["notes"]]
    return lines


def render_markdown(data: dict[str, Any]) -> str:
    """Returns compact Markdown tables for a CI comment (every cell escaped)."""
    _, rating_rows = _rating_rows(data)
    lines = ["## stratbench report", "",
             f"{data['n_matches']} matches · {len(data['games'])} games · {len(data['agents'])} agents · "
             f"protocol: {', '.join(data.get('protocols') or ['default'])}", ""]
    lines += [f"> {_md(note)}" for note in data["notes"]]
    overview = _overview_table(data)
    if overview:
        lines += ["", "### Models at a glance", "", _md(OVERVIEW_CAPTION), ""]
        lines += _md_view(table_view(overview))
    ratings = data.get("ratings")
    if ratings:
        lines += ["", f"### Ratings ({round(ratings['level'] * 100)}% intervals, B={ratings['n_resamples']})", ""]
        lines += _md_table(["agent", "rating", "interval", "matches"],
                           [[r["agent"], r["mean"], r["interval"], r["n"]] for r in rating_rows])
    elo_games, elo_rows = _elo_rows(data)
    if _has_elo_table(data):
        lines += ["", "### Internal Elo per game (SPIN-Bench's method)", "", _md(_elo_caption(data)), ""]
        if elo_rows:
            lines += _md_table(["agent", *elo_games], [[r["agent"], *r["cells"]] for r in elo_rows]) + [""]
        paper_games, paper_rows = _paper_elo_rows(data)
        if paper_rows:
            lines += [_md(PAPER_ELO_CAPTION), ""] + _md_table(["model", *paper_games], paper_rows)
    lines += ["", "### Average scores", "", _md(_score_caption(data)), ""]
    lines += _md_table(["agent", *_score_header(data)], [[r["agent"], *r["cells"]] for r in _score_rows(data)])
    lines += _md_gate(data.get("gate"))
    lines += _md_health(data.get("health"))
    lines += _md_unscored(data)
    for section in data["sections"]:
        lines += ["", f"### {section['title']}", ""]
        if section.get("note"):
            lines += [_md(section["note"]), ""]
        for table in _section_views(section):
            if table["title"]:
                lines += [f"#### {_md(table['title'])}", ""]
            if table["note"]:
                lines += [_md(table["note"]), ""]
            if table["rows"]:
                lines += _md_view(table) + [""]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=1)
def _replay_script() -> tuple[str, str]:
    """The viewer's script and its CSP hash (only that script may run on a transcript page)."""
    script = files("stratbench.report").joinpath("templates/replay.js").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return script, f"sha256-{digest}"


def final_board(events: list[dict[str, Any]], renderer: Any) -> str | None:
    """The match's last ``board`` snapshot drawn by the game's board renderer (None without either)."""
    boards = [event.get("board") for event in events if event.get("kind") == "board"]
    if renderer is None or not boards or not isinstance(boards[-1], dict):
        return None
    try:
        return renderer(boards[-1])
    except Exception:  # noqa: BLE001 - the final picture is optional; the replay shows the same board as text
        return None


def _repeated_messages(events: list[dict[str, Any]]) -> dict[int, int]:
    """For each model call (by its place among the listed events), how many of its first messages are its
    player's previous call's: a conversation re-sends them every call, the list shows them once."""
    previous: dict[Any, list[Any]] = {}
    repeated: dict[int, int] = {}
    listed = [event for event in events if event.get("kind") != "board"]
    for place, event in enumerate(listed):
        if event.get("kind") != "llm_call" or not isinstance(event.get("messages"), list):
            continue
        messages, before = event["messages"], previous.get(event.get("player"), [])
        same = 0
        while same < min(len(messages), len(before)) and messages[same] == before[same]:
            same += 1
        if same:
            repeated[place] = same
        previous[event.get("player")] = messages
    return repeated


FINAL_BOARD_INLINE_LIMIT = 64_000
"""Characters of a final board drawn at the top of a match page; a larger one (a map) is the replay's last step."""


def render_transcript(
    match: dict[str, Any], events: list[dict[str, Any]], board_svg: str | None = None,
    renderers: dict[str, Any] | None = None,
) -> str:
    """Returns one match's transcript page: the step-by-step replay, then every event (folded).

    The replay (:func:`~stratbench.report.replay.pack_replay`: each distinct
    board once) and the list of events ride in the page compressed
    (:mod:`stratbench.report.embed`); the page's script unpacks them, drawing
    one step at a time and the list of events when it is opened.

    Args:
        match: The match's report row.
        events: Its transcript events.
        board_svg: The final board picture, if any.
        renderers: Board renderers by game (``Registry.board_renderers``) for the replay.
    """
    environment = _environment()
    replay = None
    if events:
        script, script_hash = _replay_script()
        data = pack_replay(replay_steps(events, renderer_for(match.get("game", ""), renderers), match.get("seats")))
        listed = environment.get_template("transcript_events.html.j2").render(
            events=events, cut_off=CUT_OFF, repeated=_repeated_messages(events))
        replay = {"data": embed(json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)),
                  "events": embed(listed), "encoding": ENCODING, "script": script, "script_hash": script_hash}
    large = board_svg is not None and len(board_svg) > FINAL_BOARD_INLINE_LIMIT
    return environment.get_template("transcript.html.j2").render(
        match=match, events=events, board_svg=None if large else board_svg, board_shown_in_replay=large,
        replay=replay)


def _other_forms(path: Path) -> list[Path]:
    """The same transcript under its other name: ``x.json`` written compressed is ``x.json.gz``, and back."""
    if path.name.endswith(".json.gz"):
        return [path.with_name(path.name[:-3])]
    return [path.with_name(path.name + ".gz")] if path.name.endswith(".json") else []


PARALLEL_PAGES_FROM = 1000
"""Match pages from which they are written by several processes (one per CPU, at most 4)."""


class _PageJob:
    """Writes match pages: reads each match's transcript and renders its page."""

    def __init__(self, directory: Path, sources: list[Path], renderers: dict[str, Any]) -> None:
        self.directory, self.sources, self.renderers = directory, sources, renderers

    def events(self, match: dict[str, Any]) -> list[dict[str, Any]]:
        for source in self.sources:
            candidate = source / match["transcript"]
            found = next((c for c in (candidate, *_other_forms(candidate)) if c.is_file()), None)
            if found is not None:
                try:
                    return list(read_transcript(found).get("events", []))
                except (OSError, ValueError, EOFError) as error:
                    print(f"warning: unreadable transcript {found} ({error}): the page of {match['match_id']} shows "
                          "no moves", file=sys.stderr)  # said where the report is written, not only on its page
                    return [{"kind": "error", "t": 0, "text": f"unreadable transcript {found}"}]
        return []

    def write(self, match: dict[str, Any]) -> None:
        events = self.events(match)
        board = final_board(events, renderer_for(match["game"], self.renderers))
        replace_text(self.directory / match["page"], render_transcript(match, events, board, self.renderers))


def _page_workers(pages: int) -> int:
    """Forked page writers for a large run: one per CPU (at most 4), and none while another thread runs (a
    fork copies locks other threads may hold: a session's HTTP or xdist threads), so pages are then written
    here, one after another."""
    if pages < PARALLEL_PAGES_FROM or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


_JOB: dict[str, Any] = {}
"""The page job a forked worker inherits (renderers may be closures, which cannot be pickled)."""


def _write_chunk(indexes: list[int]) -> int:
    job, todo = _JOB["job"], _JOB["todo"]
    for index in indexes:
        job.write(todo[index])
    return len(indexes)


def _write_pages_in_parallel(job: _PageJob, todo: list[dict[str, Any]], workers: int) -> None:
    """Splits the pages among forked processes; each inherits the job and writes its share (the pool's exit
    stops every worker)."""
    import multiprocessing  # lean: only a run of PARALLEL_PAGES_FROM pages or more forks page writers

    _JOB.update(job=job, todo=todo)
    try:
        chunks = [list(range(k, len(todo), workers * 8)) for k in range(workers * 8)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            written = sum(pool.map(_write_chunk, chunks))
        if written != len(todo):
            raise RuntimeError(f"wrote {written} of {len(todo)} match pages")
    finally:
        _JOB.clear()


def write_reports(
    data: dict[str, Any], directory: Path, *, transcripts_from: list[Path] | None = None,
    renderers: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Writes report.html, report.md, results.json and the transcript pages into ``directory``.

    Args:
        data: The analysed report data.
        directory: Where to write.
        transcripts_from: Directories whose ``transcripts/`` hold the matches' events (``.json`` or
            ``.json.gz``).
        renderers: Board renderers by game for the replay viewer (``Registry.board_renderers``); None: text
            boards only.

    Returns:
        The written files by name.
    """
    renderers = renderers or {}
    directory.mkdir(parents=True, exist_ok=True)
    html = render_html(data)
    pages = directory / "transcripts"
    pages.mkdir(exist_ok=True)
    todo = [match for match in [*data["matches"], *data.get("unscored", [])] if match.get("transcript")]
    job = _PageJob(directory, transcripts_from or [directory], renderers)
    workers = _page_workers(len(todo))
    if workers > 1:
        _write_pages_in_parallel(job, todo, workers)
    else:
        for match in todo:
            job.write(match)
    written = {
        "report.html": directory / "report.html",
        "report.md": directory / "report.md",
        "results.json": directory / "results.json",
    }
    replace_text(written["report.html"], html)
    replace_text(written["report.md"], render_markdown(data))
    replace_text(written["results.json"], json.dumps(data, indent=1, sort_keys=True, default=str))
    return written
