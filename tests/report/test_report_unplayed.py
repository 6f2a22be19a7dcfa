"""Every rate in the report says over how many matches, with the errored and skipped ones beside it."""

from __future__ import annotations

import json

import pytest
from report_records import record, unscored
from stratbench.cli import _registry_sections
from stratbench.report.analysis import analyse
from stratbench.report.render import render_html, render_markdown, write_reports

PLANNER = "planner"


def _task(match_id: str, domain: str, valid: bool, reference: int | None) -> dict:
    metrics = {"0": {"valid": valid, "error_class": None if valid else "GS",
                     "error": None if valid else "goal_not_satisfied", "reference_length": reference,
                     "domain": domain, "category": "sequential"}}
    return record(match_id, (PLANNER,), (float(valid),), game="pddl", metrics=metrics)


def _planning_run() -> list[dict]:
    """One task planned (valid, S_i = 6), eight whose match errored, two skipped (never posed)."""
    errored = [unscored(f"e{k}", (PLANNER,), "errored", game="pddl", variant=f"{domain}/p0{k}")
               for k, domain in enumerate(["blocksworld"] * 4 + ["grid"] * 4)]
    skipped = [unscored(f"s{k}", (PLANNER,), "skipped", game="pddl", variant=f"grid/q{k}",
                        reason="grid/q.pddl: unified-planning cannot read it: preferences in the domain")
               for k in range(2)]
    return [_task("ok", "blocksworld", True, 6), *errored, *skipped]


def test_errored_planning_tasks_count_as_not_valid_and_skipped_ones_are_shown_beside():
    data = analyse(_planning_run(), sections=_registry_sections(), resamples=20)
    (section,) = [s for s in data["sections"] if s["name"] == "planning"]
    overall, domains, failures, *_ = section["tables"]
    # 1 valid of 9 tasks (8 errored count as not valid, as SPIN-Bench counts a plan it did not get);
    # N-Step = 6 / 9; the 2 skipped tasks are in no denominator.
    assert overall["rows"][0] == [PLANNER, "run", 9, 1, 8, 2, pytest.approx(100 / 9), pytest.approx(6 / 9),
                                  0.0, 0.0, 0.0, pytest.approx(800 / 9), 1]
    assert domains["rows"] == [
        [PLANNER, "blocksworld", "sequential", 5, 1, 4, 0, 20.0, 1.2, 0.0, 0.0, 0.0, 80.0],
        [PLANNER, "grid", "spatial", 4, 0, 4, 2, 0.0, None, 0.0, 0.0, 0.0, 100.0],
    ]
    assert failures["rows"] == [[PLANNER, "errored (no plan judged)", 8]]
    markdown = render_markdown(data)
    assert "| planner | run | 9 | 1 | 8 | 2 | 11.11 | 0.67 | 0.00 | 0.00 | 0.00 | 88.89 | 1 |" in markdown
    assert "| planner | grid | spatial | 4 | 0 | 4 | 2 | 0.00 | – | 0.00 | 0.00 | 0.00 | 100.00 |" in markdown
    html = render_html(data)
    assert ('<td class="l">planner</td><td class="">run</td><td class="">9</td><td class="">1</td>'
            '<td class="">8</td><td class="">2</td><td class="">11.11</td>') in html


def test_a_run_whose_every_planning_task_errored_still_has_its_table(tmp_path):
    records = [unscored(f"e{k}", (PLANNER,), "errored", game="pddl", variant=f"grid/p0{k}") for k in range(3)]
    data = analyse(records, sections=_registry_sections(), resamples=20)
    (section,) = [s for s in data["sections"] if s["name"] == "planning"]
    assert section["tables"][0]["rows"][0][:12] == [PLANNER, "run", 3, 0, 3, 0, 0.0, None, 0.0, 0.0, 0.0, 100.0]
    write_reports(data, tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    (stored,) = [s for s in saved["sections"] if s["name"] == "planning"]
    assert stored["tables"][0]["rows"][0][:7] == [PLANNER, "run", 3, 0, 3, 0, 0.0]


def test_probe_cells_count_errored_items_as_wrong_and_show_skipped_ones_beside():
    def item(match_id: str, ok: bool) -> dict:
        return {**record(match_id, ("m",), (float(ok),), game="spatial_tracking", metrics={"0": {"correct": ok}}),
                "variant": "l5"}

    records = [item("a", True), item("b", False),
               unscored("c", ("m",), "errored", game="spatial_tracking", variant="l5"),
               unscored("d", ("m",), "skipped", game="spatial_tracking", variant="l5"),
               unscored("e", ("m",), "errored", game="spatial_tracking", variant="l10")]
    data = analyse(records, sections=_registry_sections(), resamples=20)
    (section,) = [s for s in data["sections"] if s["name"] == "probes"]
    (table,) = section["tables"]
    assert table["rows"] == [["m", "33.3 (1/3; 1 errored; 1 skipped)", "0.0 (0/1; 1 errored)"]]
    assert "| m | 33.3 (1/3; 1 errored; 1 skipped) | 0.0 (0/1; 1 errored) |" in render_markdown(data)


def test_the_model_overview_shows_errored_and_skipped_matches_beside_its_rates():
    records = [record("t1", ("m/a+direct", "random"), (1.0, 0.0), models=("m/a", None)),
               record("t2", ("random", "m/a+direct"), (1.0, 0.0), models=(None, "m/a")),
               unscored("t3", ("m/a+direct", "random"), "errored", game="tictactoe", models=("m/a", None)),
               unscored("t4", ("m/a+direct", "random"), "skipped", game="tictactoe", models=("m/a", None)),
               unscored("c1", ("m/a+direct", "random"), "errored", game="connect4", models=("m/a", None))]
    data = analyse(records, resamples=20)
    cells = {row["game"]: row["cells"]["m/a"] for row in data["model_overview"]["games"]}
    assert (cells["tictactoe"]["matches"], cells["tictactoe"]["errored"], cells["tictactoe"]["skipped"]) == (2, 1, 1)
    assert (cells["connect4"]["matches"], cells["connect4"]["mean_score"], cells["connect4"]["errored"]) == (0, None, 1)
    markdown = render_markdown(data)
    assert "| m/a | tictactoe | 0.50 (2; 1 errored; 1 skipped) | – | 100% (6/6) | – |" in markdown
    assert "| m/a | connect4 | – (0; 1 errored) | – | – | – |" in markdown


LLM = "openai/m+direct"


def _solver_run() -> list[dict]:
    """Tic-Tac-Toe against minimax: a draw and a loss scored, one errored, one skipped; Connect Four: one errored."""
    return [record("t1", (LLM, "minimax"), (0.5, 0.5)), record("t2", ("minimax", LLM), (1.0, 0.0)),
            unscored("t3", (LLM, "minimax"), "errored", game="tictactoe"),
            unscored("t4", ("minimax", LLM), "skipped", game="tictactoe"),
            unscored("c1", (LLM, "c4solver"), "errored", game="connect4")]


def test_games_against_solvers_rate_the_scored_games_and_count_the_others_beside():
    data = analyse(_solver_run(), sections=_registry_sections(), resamples=20)
    sections = {s["name"]: s for s in data["sections"]}
    solvers = sections["solver_games"]
    assert solvers["columns"][:7] == ["agent", "game", "matches", "errored", "skipped", "draw rate", "win rate"]
    # Draw rate over the 2 scored games; the errored game is no loss.
    assert solvers["rows"] == [[LLM, "connect4", 0, 1, 0, None, None, None, None, None, None],
                               [LLM, "tictactoe", 2, 1, 1, 0.5, 0.0, None, None, 0.0, 0.0]]
    competitive = sections["spin_table1"]["tables"][0]
    assert competitive["rows"][0] == [LLM, "run", 50.0, None, None, None, None, 2, 2, 1]
    markdown = render_markdown(data)
    assert f"| {LLM} | tictactoe | 2 | 1 | 1 | 0.50 | 0.00 | – | – | 0.00 | 0.00 |" in markdown
    assert f"| {LLM} | run | 50.00 | – | – | – | – | 2 | 2 | 1 |" in markdown
    # The score table: the mean over the scored matches, the others beside.
    assert f"| {LLM} | 0.25 (2) | 0.25 (2; 1 errored; 1 skipped) |" in markdown


def test_hanabi_diplomacy_advgame_and_gamebench_count_their_errored_and_skipped_matches():
    from stratbench.games.gamebench import GAME_IDS

    hanabi = [{**record(f"h{k}", (LLM,), (score,), game="hanabi"), "variant": "2p"}
              for k, score in enumerate((10.0, 14.0))]
    records = [*hanabi,
               unscored("h9", (LLM,), "errored", game="hanabi", variant="2p"),
               unscored("h8", (LLM,), "skipped", game="hanabi", variant="3p"),
               unscored("d1", (LLM, "random"), "errored", game="diplomacy"),
               unscored("a1", (LLM, "random"), "errored", game="battle_card"),
               unscored("g1", (LLM, "random"), "skipped", game=GAME_IDS[0])]
    data = analyse(records, sections=_registry_sections(), resamples=20)
    sections = {s["name"]: s for s in data["sections"]}
    assert sections["hanabi"]["rows"][0] == [LLM, "run", "12.0 ± 2.0 (n=2; 1 errored)", "– (n=0; 1 skipped)",
                                             None, None]
    assert sections["diplomacy"]["rows"] == [[LLM, 0, 1, 0, None, None, ""], ["random", 0, 1, 0, None, None, ""]]
    table_1, process, *_ = sections["advgame"]["tables"]
    assert table_1["rows"][0] == [LLM, *[None] * 12, 0, 1, 0]
    assert process["rows"][0] == [LLM, "BCG", 0, 1, 0, *[None] * 9]
    ratings = sections["gamebench_ratings"]
    assert [row for row in ratings["rows"] if row[1] == "this run"] == [
        [LLM, "this run", None, *[None] * 9, 0, 0, 1], ["random", "this run", None, *[None] * 9, 0, 0, 1]]
    assert sections["gamebench_categories"]["note"].endswith(f": {LLM} 0 (1 skipped); random 0 (1 skipped).")
    markdown = render_markdown(data)
    assert f"| {LLM} | run | 12.0 ± 2.0 (n=2; 1 errored) | – (n=0; 1 skipped) | – | – |" in markdown


def test_the_scaffold_tables_count_each_scaffolds_errored_and_skipped_matches():
    from stratbench.report.model_cost import model_cost
    from stratbench.report.scaffolds import scaffolds

    def played(match_id: str, scaffold: str, score: float, seed: int) -> dict:
        base = record(match_id, (f"openai/m+{scaffold}", "random"), (score, 1.0 - score), models=("openai/m", None),
                      scaffolds=(scaffold, None), seed=seed)
        return {**base, "decision_cost": [{"decisions": 3, "calls": 3, "prompt_tokens": 30, "completion_tokens": 3},
                                          None]}

    def failed(match_id: str, scaffold: str, status: str) -> dict:
        out = unscored(match_id, (f"openai/m+{scaffold}", "random"), status, game="tictactoe",
                       models=("openai/m", None))
        out["sides"][0]["scaffold"] = scaffold
        return out

    records = [played("d1", "direct", 1.0, 1), played("c1", "cot", 0.0, 1)]
    unplayed = [failed("d2", "direct", "errored"), failed("c2", "cot", "skipped"), failed("c3", "cot", "errored")]
    cost = {row[0]: row[2:5] for row in model_cost(records, unscored=unplayed)["tables"][0]["rows"]}
    assert cost == {"openai/m+cot": [1, 1, 1], "openai/m+direct": [1, 1, 0]}
    section = scaffolds(records, unscored=unplayed)
    side = {row[1]: row[2:6] for row in section["tables"][0]["rows"]}
    assert side == {"direct": [1, 1, 0, 1.0], "cot": [1, 1, 1, 0.0]}


def test_starcraft_and_negotiation_notes_count_the_episodes_and_the_matches_not_scored():
    from stratbench.games.sc2.report import sc2_tables
    from stratbench.games.spin.report import negotiation

    episode = {**record("e1", ("m",), (1.0,), game="sc2_smac", metrics={"0": {
        "killed_value": 300.0, "lost_value": 150.0, "outcome": "win", "backend": "mock"}}), "variant": "3s_vs_3z"}
    unplayed = [unscored("e2", ("m",), "errored", game="sc2_smac", variant="3s_vs_3z"),
                unscored("e3", ("m",), "skipped", game="sc2_smac", variant="2s_vs_1sc")]
    section = sc2_tables([episode], unscored=unplayed)
    assert section["rows"][0][:3] == ["m", "this run (mock backend)", "2.00 (100%)"]
    assert section["note"].endswith("(in no cell): m 2s_vs_1sc 0 (1 skipped); m 3s_vs_3z 1 (1 errored).")
    press = negotiation([], unscored=[unscored("d1", ("m", "random"), "errored", game="diplomacy")])
    assert press["note"].endswith("1 errored Diplomacy match(es) with negotiation were not scored and are in no "
                                  "count.")
