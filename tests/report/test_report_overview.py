"""The report's first table: each model's legal-move rate, format-error rate and score per game."""

from __future__ import annotations

import json
import re

from report_records import record

from stratbench.report.analysis import analyse
from stratbench.report.render import render_html, render_markdown, write_reports

BASE = "local/gemma3-270m"
INSTRUCT = "local/qwen2.5-coder-0.5b"


def _played(match_id, model, scaffold, score, *, game="tictactoe", decisions=3, illegal=0, format_errors=0,
            fallbacks=0, metrics=None, score_range=(0.0, 1.0)):
    r = record(f"suites/t.py::t[{match_id}]", (f"{model}+{scaffold}", "minimax"), (score, 1.0 - score), game=game,
               models=(model, None), scaffolds=(scaffold, None), metrics=metrics)
    r.update(decisions=[decisions, decisions], illegal=[illegal, 0], fallbacks=[fallbacks, 0],
             format_errors=None if format_errors is None else [format_errors, 0], score_range=list(score_range))
    return r


def _records():
    return [
        # The base model: 3 decisions, 10 rejected answers (9 unreadable), 2 decisions left to the fallback.
        _played("g-direct", BASE, "direct", 0.0, decisions=3, illegal=10, format_errors=9, fallbacks=2),
        _played("g-cot", BASE, "cot", 0.5, decisions=4, illegal=2, format_errors=2, fallbacks=0),
        # The instruct model: every answer legal under direct, one illegal cell under cot.
        _played("q-direct", INSTRUCT, "direct", 0.0, decisions=3),
        _played("q-cot", INSTRUCT, "cot", 0.5, decisions=4, illegal=1, format_errors=0),
        # A plan game: one answer, accepted by the runner, that the validator could not read.
        _played("q-plan", INSTRUCT, "direct", 0.0, game="pddl", decisions=1,
                metrics={"0": {"error": "parse_error", "valid": False}}),
    ]


def test_rates_and_scores_per_model_and_game():
    overview = analyse(_records(), resamples=50)["model_overview"]
    assert overview["models"] == [BASE, INSTRUCT]
    by_game = {row["game"]: row["cells"] for row in overview["games"]}
    base = by_game["tictactoe"][BASE]
    # answers = (3 - 2 + 10) + (4 - 0 + 2) = 17; legal = 1 + 4 = 5; unreadable = 11
    assert (base["matches"], base["answers"], base["legal"], base["format_errors"]) == (2, 17, 5, 11)
    assert base["legal_rate"] == 5 / 17 and base["format_error_rate"] == 11 / 17
    assert base["mean_score"] == 0.25
    instruct = by_game["tictactoe"][INSTRUCT]
    assert (instruct["answers"], instruct["legal"], instruct["format_errors"]) == (8, 7, 0)
    assert instruct["legal_rate"] == 7 / 8 and instruct["format_error_rate"] == 0.0
    plan = by_game["pddl"][INSTRUCT]
    assert (plan["answers"], plan["legal"], plan["format_errors"], plan["legal_rate"]) == (1, 0, 1, 0.0)
    assert BASE not in by_game["pddl"]
    assert all(cell["legal"] + cell["format_errors"] <= cell["answers"]
               for cells in by_game.values() for cell in cells.values())


def test_records_without_format_counts_show_the_rate_as_unknown():
    overview = analyse([_played("old", BASE, "direct", 1.0, illegal=2, format_errors=None)], resamples=50)
    cell = overview["model_overview"]["games"][0]["cells"][BASE]
    assert cell["format_errors"] is None and cell["format_error_rate"] is None
    assert cell["legal_rate"] == 3 / 5


def test_no_model_no_table():
    data = analyse([record("suites/t.py::t[x]")], resamples=50)
    assert data["model_overview"] is None
    assert "Models at a glance" not in render_markdown(data)
    assert 'id="model-overview"' not in render_html(data)


def test_the_table_comes_first_in_markdown_html_and_json(tmp_path):
    data = analyse(_records(), resamples=50)
    markdown = render_markdown(data)
    assert markdown.index("### Models at a glance") < markdown.index("### Ratings")
    lines = markdown.splitlines()
    start = lines.index("### Models at a glance") + 4
    # one row per model and game (key columns first: model, game, score), each model's games together; a model
    # that played two games or more gets a row over all of them
    assert lines[start:start + 6] == [
        "| model | game | score | score range | legal | format errors |",
        "|---|---|---|---|---|---|",
        f"| {BASE} | tictactoe | 0.25 (2) | 0–1 | 29% (5/17) | 65% (11/17) |",
        f"| {INSTRUCT} | pddl | 0.00 (1) | 0–1 | 0% (0/1) | 100% (1/1) |",
        f"| {INSTRUCT} | tictactoe | 0.25 (2) | 0–1 | 88% (7/8) | 0% (0/8) |",
        f"| {INSTRUCT} | all games | – | – | 78% (7/9) | 11% (1/9) |",
    ]
    assert lines[start + 6] == ""
    html = render_html(data)
    assert html.index('id="model-overview"') < html.index('id="ratings"')
    assert '<td class="">88% (7/8)</td>' in html
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", html[html.index('id="model-overview"'):html.index("</table>")])
    assert headers == ["model", "game", "score", "score range", "legal", "format errors"]
    write_reports(data, tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["model_overview"]["games"][1]["cells"][INSTRUCT]["legal"] == 7
