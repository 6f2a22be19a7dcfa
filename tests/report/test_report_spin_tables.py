"""The report's SPIN-Bench tables on hand-made records: per-game Elo, scores kept on their own scale, planning, probes."""

from __future__ import annotations

import math

import pytest
from report_records import record
from stratbench.cli import _registry_sections
from stratbench.report.analysis import analyse
from stratbench.report.render import render_html, render_markdown
from stratbench.games.spin.report import planning, probes

A, B, C = "m/a+direct", "m/b+direct", "m/c+cot"
MODELS = {A: "m/a", B: "m/b", C: "m/c", "random": None, "stockfish": None, "minimax": None}
# SPIN-Bench's batch Elo reaches its fixed point E = S: for one pair with S = 1.5 of 2 games,
# 2 / (1 + 10 ** (-gap / 400)) = 1.5, so the gap is 400 * log10(3); updates are symmetric, so the sum stays 2000.
HALF_GAP = 200 * math.log10(3)


def _match(match_id: str, agents: tuple[str, str], scores: tuple[float, float], game: str) -> dict:
    return record(match_id, agents, scores, game=game, models=tuple(MODELS[a] for a in agents))


def _elo_records() -> list[dict]:
    return [
        # tictactoe: A beats B once and draws once; both also meet the random baseline and the solver.
        _match("t1", (A, B), (1.0, 0.0), "tictactoe"),
        _match("t2", (B, A), (0.5, 0.5), "tictactoe"),
        _match("t3", ("random", A), (1.0, 0.0), "tictactoe"),
        _match("t4", ("random", B), (1.0, 0.0), "tictactoe"),
        _match("t5", ("minimax", A), (1.0, 0.0), "tictactoe"),
        # connect4: C beats B once and draws once.
        _match("c1", (B, C), (0.0, 1.0), "connect4"),
        _match("c2", (C, B), (0.5, 0.5), "connect4"),
        # chess: only the solver against LLMs.
        _match("h1", ("stockfish", A), (1.0, 0.0), "chess"),
        _match("h2", (B, "stockfish"), (0.0, 1.0), "chess"),
    ]


def test_elo_is_computed_per_game_from_llm_pairs_only():
    data = analyse(_elo_records(), resamples=50)
    elo = data["elo_by_game"]
    assert elo["ratings"] == {
        "connect4": {B: pytest.approx(1000 - HALF_GAP, abs=1e-6), C: pytest.approx(1000 + HALF_GAP, abs=1e-6)},
        "tictactoe": {A: pytest.approx(1000 + HALF_GAP, abs=1e-6), B: pytest.approx(1000 - HALF_GAP, abs=1e-6)},
    }
    assert elo["matches"] == {"connect4": 2, "tictactoe": 2} and elo["pairs"] == {"connect4": 1, "tictactoe": 1}
    assert elo["without_llm_pairs"] == ["chess"]
    assert data["elo"] is None  # the pooled Elo over every game and baseline is gone


def test_elo_table_says_which_matches_count_in_html_and_markdown():
    data = analyse(_elo_records(), resamples=50)
    markdown, html = render_markdown(data), render_html(data)
    for text in (markdown, html):
        assert "Internal Elo per game (SPIN-Bench's method)" in text
        assert "only matches between two different LLM agents" in text
        assert "K = 32, 1000 sweeps" in text
        assert "No LLM-vs-LLM matches (no Elo): chess." in text
    hi, lo = f"{1000 + HALF_GAP:.0f}", f"{1000 - HALF_GAP:.0f}"
    assert (hi, lo) == ("1095", "905")
    assert "| agent | connect4 | tictactoe |" in markdown
    assert f"| {A} | – | {hi} |" in markdown
    assert f"| {C} | {hi} | – |" in markdown
    assert f"| {B} | {lo} | {lo} |" in markdown
    assert "random" not in markdown.split("### Internal Elo")[1].split("###")[0]
    # The paper's Table 4 stands beside the run's, labelled as the paper's.
    assert "SPIN-Bench's published Table 4" in markdown and "| model | tictactoe | connect4 | chess |" in markdown
    assert "| o1-preview | 1263 | 1377 | 1395 |" in markdown and "| Human | 1415 | 1692 | – |" in markdown
    assert '<table id="paper-elo-table">' in html


def test_the_papers_elo_table_shows_only_the_papers_games_this_run_played():
    records = [r for r in _elo_records() if r["game"] == "connect4"]
    data = analyse(records, resamples=50)
    markdown = render_markdown(data)
    assert "| model | connect4 |" in markdown and "| o1-preview | 1377 |" in markdown
    other = [dict(r, game="pit") for r in records]
    markdown, html = render_markdown(analyse(other, resamples=50)), render_html(analyse(other, resamples=50))
    assert "### Internal Elo per game" in markdown  # the method applies to any two-sided game
    assert "SPIN-Bench's published Table 4" not in markdown and 'id="paper-elo-table"' not in html


def _diplomacy(match_id: str, centres: tuple[float, ...]) -> dict:
    agents = ("hold",) * 6 + ("random-orders",)
    return record(match_id, agents, centres, game="diplomacy")


def test_overall_average_never_mixes_supply_centres_with_win_shares():
    records = [
        record("t1", ("random", "minimax"), (0.0, 1.0)),
        record("t2", ("minimax", "random"), (0.5, 0.5)),
        _diplomacy("d1", (4, 5, 3, 5, 3, 4, 0)),
        record("h1", ("hanabi-rules",), (15.0,), game="hanabi"),
    ]
    data = analyse(records, resamples=50)
    scores = data["average_scores"]
    assert scores["overall_games"] == ["tictactoe"]
    assert scores["overall"] == {"minimax": {"mean": pytest.approx(0.75), "n": 2},
                                 "random": {"mean": pytest.approx(0.25), "n": 2}}
    assert scores["scales"]["diplomacy"] == {"range": [0.0, 34.0], "sum": None}
    assert scores["scales"]["hanabi"] == {"range": [0.0, 25.0], "sum": None}
    assert scores["per_game"]["diplomacy"]["hold"] == {"mean": pytest.approx(24 / 6), "n": 6}
    assert scores["per_game"]["diplomacy"]["random-orders"] == {"mean": 0.0, "n": 1}
    markdown = render_markdown(data)
    assert "| agent | overall (win shares) | diplomacy (0–34) | hanabi (0–25) | tictactoe |" in markdown
    assert "| hold | – | 4.00 (6) | – | – |" in markdown
    assert "| minimax | 0.75 (2) | – | – | 0.75 (2) |" in markdown
    assert "here: tictactoe" in markdown
    assert "diplomacy (0–34)" in render_html(data)


def test_scales_carried_by_records_decide_what_is_averaged():
    share = {"score_range": [0, 1], "score_sum": 1}
    records = [
        {**record("a1", ("x", "y"), (1.0, 0.0), game="own_share"), **share},
        {**record("b1", ("x", "y"), (9.0, 1.0), game="own_points"), "score_range": [0, 10], "score_sum": 10},
        {**record("c1", ("x", "y"), (1.0, 0.0), game="own_mixed"), **share},
        {**record("c2", ("x", "y"), (0.0, 1.0), game="own_mixed"), "score_range": [0, 2], "score_sum": 1},
        record("u1", ("x", "y"), (1.0, 0.0), game="unknown_game"),
    ]
    data = analyse(records, resamples=50)
    scores = data["average_scores"]
    assert scores["overall_games"] == ["own_share"]
    assert scores["overall"]["x"] == {"mean": 1.0, "n": 1}
    assert scores["scales"]["unknown_game"] is None
    assert "Game own_mixed: its records give 2 different score scales; it is left out of the overall average." \
        in data["notes"]
    assert "unknown_game (scale unknown)" in render_markdown(data)


def _task(match_id: str, agent: str, domain: str, valid: bool, error_class: str | None, error: str | None,
          reference: int | None, legal: float | None = None, pairs: int | None = None) -> dict:
    metrics = {"0": {"valid": valid, "error_class": error_class, "error": error, "reference_length": reference,
                     "domain": domain, "category": "spatial" if domain == "grid" else "sequential",
                     "legal_actions_per_step": legal, "state_action_pairs": pairs}}
    return record(match_id, (agent,), (1.0 if valid else 0.0,), game="pddl", metrics=metrics)


PLANNING = [
    _task("p1", A, "blocksworld", True, None, None, 10, 2.0, 10),
    _task("p2", A, "blocksworld", False, "GS", "goal_not_satisfied", 30, 4.0, 1000),
    _task("p3", A, "grid", False, "BC", "inapplicable_action", 4, 10.0, 100000),
    _task("p4", A, "grid", False, "Other", "parse_error", None),
    _task("p5", B, "grid", True, None, None, 6, 6.0, 100),
]


def test_planning_section_has_hand_computed_plan_accuracy_n_step_and_error_classes():
    section = planning(PLANNING)
    overall, domains, failures, space, totals, correlation = section["tables"]
    assert overall["columns"] == ["agent", "source", "tasks", "valid", "errored", "skipped", "Plan Acc (%)",
                                  "N-Step", "BC (%)", "GS (%)", "Other (%)", "errored (%)", "tasks with S_i"]
    # A: 1 valid of 4; N-Step = 10 / 3 (p4 has no reference length); each error class 1 of 4.
    assert overall["rows"][:2] == [
        [A, "run", 4, 1, 0, 0, 25.0, pytest.approx(10 / 3), 25.0, 25.0, 25.0, 0.0, 3],
        [B, "run", 1, 1, 0, 0, 100.0, 6.0, 0.0, 0.0, 0.0, 0.0, 1],
    ]
    for row in overall["rows"][:2]:
        assert sum(row[k] for k in (6, 8, 9, 10, 11)) == pytest.approx(100.0)
    paper = {row[0]: row for row in overall["rows"][2:]}
    assert paper["o1"] == ["o1", "SPIN-Bench Tables 1–2", 1280, None, None, None, 58.59, 16.09, 17.97, 17.89, 5.55,
                           None, 1280]
    assert paper["o4-mini"][8:11] == [None, None, None] and len(paper) == 11
    assert domains["rows"] == [
        [A, "blocksworld", "sequential", 2, 1, 0, 0, 50.0, 5.0, 0.0, 50.0, 0.0, 0.0],
        [A, "grid", "spatial", 2, 0, 0, 0, 0.0, 0.0, 50.0, 0.0, 50.0, 0.0],
        [B, "grid", "spatial", 1, 1, 0, 0, 100.0, 6.0, 0.0, 0.0, 0.0, 0.0],
    ]
    assert failures["rows"] == [[A, "goal_not_satisfied", 1], [A, "inapplicable_action", 1], [A, "parse_error", 1]]
    # Fig. 3a: p4 has no action-space size, so A's grid domain is p3 alone.
    assert space["rows"] == [[A, "blocksworld", 2, 0, 50.0, 3.0], [A, "grid", 1, 0, 0.0, 10.0],
                             [B, "grid", 1, 0, 100.0, 6.0]]
    # Fig. 3b: log10 pairs per domain (p4 has no count): A blocksworld (1 + 3) / 2 = 2, A grid 5, B grid 2.
    assert totals["rows"] == [[A, "blocksworld", 2, 0, 50.0, 2.0], [A, "grid", 1, 0, 0.0, 5.0],
                              [B, "grid", 1, 0, 100.0, 2.0]]
    assert totals["chart"]["series"] == [{"name": A, "points": [[2.0, 50.0], [5.0, 0.0]]},
                                         {"name": B, "points": [[2.0, 100.0]]}]
    assert correlation["rows"] == [
        [A, "legal actions per step (3a)", 2, pytest.approx(-1.0), pytest.approx(-1.0)],
        [B, "legal actions per step (3a)", 1, None, None],
        [A, "log10 state–action pairs (3b)", 2, pytest.approx(-1.0), pytest.approx(-1.0)],
        [B, "log10 state–action pairs (3b)", 1, None, None],
    ]
    assert planning([record("t1")]) is None


def test_planning_and_probe_sections_appear_in_both_reports():
    probe_records = [
        record("f1", (A,), (1.0,), game="factual_retrieval", metrics={"0": {"correct": True, "length": 1,
                                                                            "difficulty": 2}}),
        record("f2", (A,), (0.0,), game="factual_retrieval", metrics={"0": {"correct": False, "length": 1,
                                                                            "difficulty": 2}}),
        record("f3", (A,), (1.0,), game="factual_retrieval", metrics={"0": {"correct": True, "length": 10,
                                                                            "difficulty": 4}}),
    ]
    data = analyse(PLANNING + probe_records, sections=_registry_sections(), resamples=50)
    markdown, html = render_markdown(data), render_html(data)
    assert "### Classical planning (SPIN-Bench Tables 1–2)" in markdown
    assert f"| {A} | run | 4 | 1 | 0 | 0 | 25.00 | 3.33 | 25.00 | 25.00 | 25.00 | 0.00 | 3 |" in markdown
    assert "| o1 | SPIN-Bench Tables 1–2 | 1280 | – | – | – | 58.59 | 16.09 | 17.97 | 17.89 | 5.55 | – | 1280 |" \
        in markdown
    assert f"| {A} | grid | spatial | 2 | 0 | 0 | 0 | 0.00 | 0.00 | 50.00 | 0.00 | 50.00 | 0.00 |" in markdown
    assert "### Planning probes (SPIN-Bench)" in markdown
    assert "| agent | mutable properties | 1 step | 10 steps |" in markdown
    assert f"| {A} | 2 | 50.0 (1/2) | – |" in markdown
    assert f"| {A} | 4 | – | 100.0 (1/1) |" in markdown
    assert '<h2 id="section-planning">Classical planning (SPIN-Bench Tables 1–2) · default protocol</h2>' in html
    assert '<h2 id="section-probes">Planning probes (SPIN-Bench) · default protocol</h2>' in html
    assert '<td class="">25.00</td><td class="">3.33</td>' in html
    assert "<script" not in html.lower()


def test_probe_section_reads_the_setting_from_the_variant_when_metrics_lack_it():
    records = [
        {**record(f"s{k}", (B,), (float(ok),), game="spatial_tracking", metrics={"0": {"correct": ok}}),
         "variant": variant}
        for k, (variant, ok) in enumerate([("l5", True), ("l5", False), ("l10", False)])
    ]
    (table,) = probes(records)["tables"]
    assert table["columns"] == ["agent", "5 moves", "10 moves"]
    assert table["rows"] == [[B, "50.0 (1/2)", "0.0 (0/1)"]]


def test_planning_and_probe_charts_are_inline_svg_with_escaped_labels():
    evil = "<script>x</script>"
    records = [_task("p1", evil, "blocksworld", True, None, None, 10, 2.0),
               _task("p2", evil, "grid", False, "GS", "goal_not_satisfied", 8, 10.0)]
    records += [{**record(f"s{k}", (evil,), (float(ok),), game="spatial_tracking", metrics={"0": {"correct": ok}}),
                 "variant": variant} for k, (variant, ok) in enumerate([("l5", True), ("l10", False)])]
    html = render_html(analyse(records, sections=_registry_sections(), resamples=20))
    assert html.count('<svg class="xy-chart"') == 2
    assert "<script" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    chart = html.split('<svg class="xy-chart"')[2].split("</svg>")[0]  # spatial: accuracy 100 at 5 moves, 0 at 10
    assert "<title>&lt;script&gt;x&lt;/script&gt;: (5, 100)</title>" in chart
    assert "<title>&lt;script&gt;x&lt;/script&gt;: (10, 0)</title>" in chart
    assert "<polyline" in chart
    scatter = html.split('<svg class="xy-chart"')[1].split("</svg>")[0]  # Fig. 3a: points, no lines
    assert "<polyline" not in scatter and ": (2, 100)</title>" in scatter and ": (10, 0)</title>" in scatter
