"""The report's analysis on hand-made records: ratings, Elo, scores, win probabilities, notes, manifest."""

from __future__ import annotations

import json

import markupsafe
import pytest
from report_records import league, record, write_jsonl
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.render import render_html, render_markdown
from stratbench.games.spin.report import solver_games
from stratbench.run.results import read_records

STRENGTH = {"strong": 2.0, "middle": 0.0, "weak": -2.0}


@pytest.fixture(scope="module")
def report():
    return analyse(league(STRENGTH, matches=20, seed=1), resamples=300)


def _mean(report, agent):
    ratings = report["ratings"]
    return ratings["mean"][ratings["agents"].index(agent)]


def test_ratings_follow_strength_with_intervals_and_settings(report):
    ratings = report["ratings"]
    assert sorted(ratings["agents"]) == ["middle", "strong", "weak"]
    assert _mean(report, "strong") > _mean(report, "middle") > _mean(report, "weak")
    for k in range(3):
        assert ratings["low"][k] <= ratings["mean"][k] <= ratings["high"][k]
    assert ratings["n_resamples"] == 300 and ratings["level"] == 0.9
    assert ratings["alpha"] > 0 and ratings["ties"] == "drop" and ratings["n_failed"] == 0
    assert sorted(ratings["per_game"]) == ["connect4", "tictactoe"]
    assert report["notes"] == []


def test_elo_per_game_orders_like_the_strengths_when_llms_play():
    records = league(STRENGTH, matches=20, seed=1)
    for r in records:
        for side in r["sides"]:
            side["model"] = f"provider/{side['agent']}"
    elo = analyse(records, resamples=50)["elo_by_game"]
    assert sorted(elo["ratings"]) == ["connect4", "tictactoe"] and elo["without_llm_pairs"] == []
    for ratings in elo["ratings"].values():
        assert ratings["strong"] > ratings["middle"] > ratings["weak"]
        assert sum(ratings.values()) == pytest.approx(3000.0)  # symmetric updates keep the mean at 1000


def test_programmatic_agents_get_no_elo(report):
    assert report["elo_by_game"]["ratings"] == {}
    assert report["elo_by_game"]["without_llm_pairs"] == ["connect4", "tictactoe"]


def test_average_scores_are_the_hand_counted_means():
    share = {"score_range": [0.0, 1.0], "score_sum": 1.0}
    records = [
        {**record("m1", ("a", "b"), (1.0, 0.0), game="g1"), **share},
        {**record("m2", ("b", "a"), (0.5, 0.5), game="g1"), **share},
        {**record("m3", ("a", "b"), (0.25, 0.75), game="g2"), **share},
        {**record("m4", ("a", "a"), (0.5, 0.5), game="g2"), **share},  # self-play says nothing about a
    ]
    data = analyse(records, resamples=50)
    overall, per_game = data["average_scores"]["overall"], data["average_scores"]["per_game"]
    assert overall["a"] == {"mean": pytest.approx((1.0 + 0.5 + 0.25) / 3), "n": 3}
    assert overall["b"] == {"mean": pytest.approx((0.0 + 0.5 + 0.75) / 3), "n": 3}
    assert per_game["g1"]["a"] == {"mean": pytest.approx(0.75), "n": 2}
    assert per_game["g2"]["b"] == {"mean": pytest.approx(0.75), "n": 1}
    assert data["n_matches"] == 4 and data["games"] == ["g1", "g2"]


def test_win_probability_matrix_is_consistent_with_the_ratings(report):
    win = report["win_probability"]
    names, matrix = win["agents"], win["matrix"]
    assert sorted(names) == sorted(STRENGTH)
    s, w = names.index("strong"), names.index("weak")
    assert matrix[s][w] > 0.9 and matrix[w][s] < 0.1
    for i in range(3):
        for j in range(3):
            if i != j:
                assert matrix[i][j] + matrix[j][i] == pytest.approx(1.0)


def test_duplicate_match_ids_count_once_and_the_last_wins():
    records = [record("m1", scores=(0.0, 1.0)), record("m2"), record("m1", scores=(1.0, 0.0))]
    data = analyse(records, resamples=50)
    assert data["n_matches"] == 2
    assert data["average_scores"]["overall"]["a"]["mean"] == 1.0


def test_match_rows_keep_what_the_match_table_shows():
    data = analyse([record("suite.py::t[a-vs-b-s3]", seed=3, transcript="transcripts/x.json")], resamples=20)
    (row,) = data["matches"]
    assert row["match_id"] == "suite.py::t[a-vs-b-s3]" and row["test_id"] == "a-vs-b-s3"
    assert row["agents"] == ["a", "b"] and row["scores"] == [1.0, 0.0] and row["seed"] == 3
    assert row["transcript"] == "transcripts/x.json"
    json.dumps(data)  # builtins only


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        ([], "No match results"),
        ([record("m1", ("a", "a"), (0.5, 0.5)), record("m2", ("a", "a"), (1.0, 0.0))],
         "need two-sided matches between at least two different agents"),
        ([{**record("m1"), "sides": [{"agent": "solo", "players": [0, 1]}], "scores": [0.7]}],
         "need two-sided matches between at least two different agents"),
        ([record("m1", ("a", "b"), (1.0, 0.0), game="chess"), *league({"a": 1.0, "b": 0.0}, games=("go",))],
         "Game chess has 1 two-sided match"),
        ([record("m1", ("a", "b")), record("m2", ("b", "a")), record("m3", ("c", "d")), record("m4", ("d", "c"))],
         "The comparison graph is disconnected (a, b; c, d)"),
        ([record("m1", scores=(0.5, 0.5)), record("m2", scores=(0.5, 0.5))], "All 2 two-sided matches are ties"),
        ([record("m1"), {"match_id": "m2", "game": "g", "sides": "oops", "scores": [1]}],
         "1 malformed record(s) left out"),
    ],
    ids=["empty", "single-agent", "one-sided", "one-match-game", "disconnected", "all-ties", "malformed"],
)
def test_bad_input_gives_a_note_and_a_report(records, expected):
    data = analyse(records, resamples=50, sections={"solver_games": solver_games})
    assert any(expected in note for note in data["notes"]), data["notes"]
    html, markdown = render_html(data), render_markdown(data)  # no manifest given: still renders
    note = next(note for note in data["notes"] if expected in note)
    assert f'<div class="note">{markupsafe.escape(note)}</div>' in html
    assert "stratbench report" in markdown and expected.split("(")[0] in markdown
    json.dumps(data)


def test_single_agent_still_gets_average_scores():
    data = analyse([record("m1", ("a", "a"), (0.5, 0.5)),
                    {**record("m2"), "sides": [{"agent": "a", "players": [0]}], "scores": [0.7]}], resamples=20)
    assert data["ratings"] is None and data["elo"] is None and data["win_probability"] is None
    assert data["average_scores"]["per_game"]["tictactoe"]["a"] == {"mean": pytest.approx(0.7), "n": 1}
    assert data["average_scores"]["overall"] == {}  # a one-sided score is no win share


def test_disconnected_groups_are_still_rated():
    records = [record("m1", ("a", "b")), record("m2", ("b", "a"), (0.0, 1.0)),
               record("m3", ("c", "d")), record("m4", ("c", "d"), (1.0, 0.0))]
    data = analyse(records, resamples=50)
    assert sorted(data["ratings"]["agents"]) == ["a", "b", "c", "d"]


def test_a_truncated_results_file_loses_only_its_last_line(tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", league(STRENGTH, games=("g",), matches=3))
    text = path.read_text()
    path.write_text(text + text.splitlines()[0][:40])  # a run killed mid-write
    records = read_records(path)
    assert len(records) == 9
    data = analyse(records, resamples=50)
    assert data["n_matches"] == 9 and data["ratings"] is not None


def test_a_broken_section_becomes_a_note():
    def broken(records):
        raise KeyError("illegal")

    data = analyse([record("m1"), record("m2", ("b", "a"))], resamples=20,
                   sections={"broken": broken, "solver_games": solver_games})
    assert any(note.startswith("Report section broken failed: KeyError") for note in data["notes"])


def test_manifest_lists_versions_models_scaffolds_seeds_cassettes_and_command():
    records = [
        record("m1", ("openai/gpt-4o+cot", "minimax"), seed=3, models=("openai/gpt-4o", None),
               scaffolds=("cot", None), cassette={"path": "cassettes/a.yaml", "sha256": "ab" * 32}),
        record("m2", ("anthropic/claude+direct", "minimax"), seed=1, models=("anthropic/claude", None),
               scaffolds=("direct", None), cassette={"path": "cassettes/b.yaml", "sha256": "cd" * 32},
               run_id="run-2"),
        record("m3", ("random", "minimax"), seed=3, versions={"litellm": "9.9"}),
    ]
    manifest = manifest_for(records, command=["pytest", "suites", "--model", "openai/gpt-4o"],
                            versions={"python": "3.11.7"})
    assert manifest["packages"] == {"python": "3.11.7", "litellm": "1.106.2", "pytest-stratbench": "0.1.0"}
    assert manifest["models"] == ["anthropic/claude", "openai/gpt-4o"]
    assert manifest["scaffolds"] == ["cot", "direct"]
    assert manifest["seeds"] == [1, 3]
    assert manifest["cassettes"] == {"cassettes/a.yaml": "ab" * 32, "cassettes/b.yaml": "cd" * 32}
    assert manifest["command_line"] == ["pytest", "suites", "--model", "openai/gpt-4o"]
    assert manifest["run_ids"] == ["run-1", "run-2"]
    data = analyse(records, resamples=20, manifest=manifest)
    assert data["manifest"] == manifest
    assert "openai/gpt-4o" in render_html(data) and "pytest suites --model openai/gpt-4o" in render_html(data)


def test_solver_section_counts_draws_and_move_quality():
    metrics = {"1": {"moves": 4, "optimal_move_share": 0.5, "top3_share": 1.0}}
    records = [
        record("m1", ("minimax", "llm"), (0.5, 0.5), subject=1, metrics=metrics),
        record("m2", ("minimax", "llm"), (1.0, 0.0), subject=1, metrics=metrics),
        record("m3", ("llm", "random"), (1.0, 0.0)),  # not against the solver
    ]
    section = solver_games(records)
    (row,) = section["rows"]
    columns = dict(zip(section["columns"], row))
    assert columns["agent"] == "llm" and columns["matches"] == 2
    assert columns["draw rate"] == 0.5 and columns["win rate"] == 0.0
    assert columns["top-1 moves"] == 0.5 and columns["top-3 moves"] == 1.0
