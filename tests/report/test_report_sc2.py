"""The StarCraft II report section: KD (WR) from summed values, one row per backend and level, the paper beside."""

from __future__ import annotations

import pytest

from stratbench.games.sc2.metrics import PAPER_TABLE2, PAPER_TABLE3, PAPER_TABLE4, format_kd, format_kd_wr, kd_wr
from stratbench.games.sc2.report import sc2_tables


def record(agent: str, variant: str, killed: float, lost: float, outcome: str, backend: str = "engine",
           game: str = "sc2_smac") -> dict:
    return {"game": game, "variant": variant, "sides": [{"agent": agent}, {"agent": "built-in"}],
            "metrics": {"0": {"killed_value": killed, "lost_value": lost, "outcome": outcome, "backend": backend}}}


def row(table: dict, agent: str, source: str) -> dict:
    matches = [r for r in table["rows"] if r[0] == agent and r[1] == source]
    assert len(matches) == 1, (agent, source, table["rows"])
    return dict(zip(table["columns"], matches[0]))


def test_kd_is_the_ratio_of_summed_values_and_wr_the_share_of_wins():
    records = [record("m", "2s3z", 300, 100, "win"), record("m", "2s3z", 0, 500, "loss"),
               record("m", "2s3z", 100, 0, "tie")]
    cell = kd_wr(records)[("m", "engine", "2s3z")]
    assert cell["kd"] == pytest.approx(400 / 600)  # not the mean of per-episode ratios (3, 0, Inf)
    assert (cell["wins"], cell["n"]) == (1, 3)
    assert format_kd_wr(cell) == "0.67 (33%)"


def test_format_follows_the_papers_precision():
    assert [format_kd(v) for v in (0.604, 6.634, 14.94, 58.91, 153.2, 2985.0, "Inf")] == \
        ["0.60", "6.63", "14.9", "58.9", "153", "3.0k", "Inf"]


def test_smac_maps_and_task_levels_fill_the_papers_columns_and_backends_stay_apart():
    records = [
        record("m", "3s_vs_3z", 450, 300, "win"),
        record("m", "3s_vs_3z", 150, 300, "loss"),
        record("m", "3s_vs_3z", 900, 0, "win", backend="live"),
        record("m", "pvz_task4_level1", 200, 800, "loss", game="sc2_tasks"),
        record("m", "pvz_task4_level2", 100, 1000, "loss", game="sc2_tasks"),
        record("m", "task1-level1", 350, 0, "win", game="sc2_tasks"),
        record("m", "pvz_task8_level1", 500, 1000, "tie", game="sc2_tasks"),
    ]
    table = sc2_tables(records)
    assert table["columns"][:3] == ["agent", "source", "3s_vs_3z"]
    assert table["columns"][3:11] == ["task1", "task2", "task3", "task4", "task5", "task6", "task7", "task8"]

    engine = row(table, "m", "this run (engine backend)")
    assert engine["3s_vs_3z"] == "1.00 (50%)"  # 600 killed / 600 lost; the live win is not pooled in
    assert engine["task4"] == ""  # task cells live in the level rows
    live = row(table, "m", "this run (live backend)")
    assert live["3s_vs_3z"] == "Inf (100%)"

    level1 = row(table, "m", "this run (engine backend), level 1")
    assert (level1["task1"], level1["task4"], level1["task8"], level1["3s_vs_3z"]) == \
        ("Inf (100%)", "0.25 (0%)", "0.50 (0%)", "")
    level2 = row(table, "m", "this run (engine backend), level 2")
    assert (level2["task4"], level2["task1"]) == ("0.10 (0%)", "")

    # The paper's rows, labelled as the paper's, in the same columns (task8 is in none of its tables).
    paper2 = row(table, "gpt-4o", "paper Table 2 (LLM-SMAC)")
    assert paper2["3s_vs_3z"] == "0.15 (0%)"
    paper3 = row(table, "gpt-4o", "paper Table 3 (tasks, level 1)")
    assert (paper3["task1"], paper3["task3"], paper3["task5"], paper3["task8"]) == ("2.27 (80%)", "Inf (100%)", "", "")
    paper4 = row(table, "gpt-3.5-turbo", "paper Table 4 (level3)")
    assert paper4["task7"] == "0.62 (0%)"
    assert "not results of this run" in table["note"]


def test_paper_tables_have_every_published_cell():
    assert all(len(values) == 6 for values in PAPER_TABLE2.values()) and len(PAPER_TABLE2) == 6
    assert all(len(values) == 7 for values in PAPER_TABLE3.values()) and len(PAPER_TABLE3) == 9
    assert list(PAPER_TABLE4) == ["level1", "level2", "level3"]
    assert PAPER_TABLE4["level1"] == PAPER_TABLE3["gpt-3.5-turbo"]  # Table 4's level 1 row is Table 3's gpt-3.5 row
    assert PAPER_TABLE3["llama3.1-405b"][2] == "3.0k (100%)" and PAPER_TABLE2["glm-4-plus"][0] == "0.81 (25%)"


def test_no_sc2_records_no_section():
    assert sc2_tables([{"game": "tic_tac_toe", "metrics": {"0": {"score": 1}}, "sides": [{"agent": "m"}]}]) is None
