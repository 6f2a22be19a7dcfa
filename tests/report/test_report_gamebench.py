"""The report's GameBench tables: Table 3's categories with mean scores, Table 1's per-game ratings."""

from __future__ import annotations

import pytest
from report_records import record
from stratbench.games.gamebench import EXTRA_CATEGORIES, GAME_IDS, REASONING_CATEGORIES
from stratbench.games.gamebench.published import PUBLISHED_TABLE_1, TABLE_1_COLUMNS
from stratbench.games.gamebench.report import gamebench_categories, gamebench_ratings
from stratbench.rating import bootstrap
from stratbench.report.analysis import analyse, to_match_results
from stratbench.report.render import render_markdown

TABLE_3_TOTALS = {"Abstract Strategy": 6, "Non-Deterministic": 3, "Hidden Information": 3,
                  "Language Communication": 4, "Social Deduction": 2, "Cooperation": 4}
"""GameBench Table 3's "Total" column."""

STRONG_IN = {"air_land_sea", "hive", "santorini", "codenames", "pit"}
"""Games in which the model wins every match below (it loses the others)."""


def _records():
    """Two matches per GameBench game between model and random, plus one Boxing bout each."""
    out = []
    for game in GAME_IDS:
        won = game in STRONG_IN
        for seed in range(2):
            scores = (1.0, 0.0) if won else (0.0, 1.0)
            out.append(record(f"suites/gamebench/test_{game}.py::t[model-vs-random-s{seed}]", ("model", "random"),
                              scores, game=game, seed=seed))
    out.append(record("suites/gamebench/test_atari_boxing.py::t[model-20s-s0]", ("model",), (0.6,),
                      game="atari_boxing"))
    out.append(record("suites/gamebench/test_atari_boxing.py::t[random-20s-s0]", ("random",), (0.45,),
                      game="atari_boxing"))
    return out


def test_the_categories_are_table_3_and_cover_all_nine_games():
    assert {c: len(g) for c, g in REASONING_CATEGORIES.items()} == TABLE_3_TOTALS
    assert {g for games in REASONING_CATEGORIES.values() for g in games} == set(GAME_IDS)
    assert len(GAME_IDS) == 9
    assert all("atari_boxing" not in games for games in REASONING_CATEGORIES.values())
    assert list(EXTRA_CATEGORIES.values()) == [("atari_boxing",)]


def test_every_category_row_has_each_agents_mean_over_its_games():
    section = gamebench_categories(_records())
    assert section["columns"] == ["category", "games (paper)", "GameBench games (paper)", "played here",
                                  "model", "random"]
    rows = {row[0]: row for row in section["rows"]}
    assert list(rows) == [*REASONING_CATEGORIES, *EXTRA_CATEGORIES]
    for category, games in REASONING_CATEGORIES.items():
        category_row = rows[category]
        assert category_row[1] == TABLE_3_TOTALS[category]
        assert category_row[3] == ", ".join(games)  # every game of the category was played
        expected = sum(1.0 for g in games if g in STRONG_IN) / len(games)
        assert category_row[4] == pytest.approx(expected)
        assert category_row[5] == pytest.approx(1.0 - expected)
    # Abstract Strategy: the model wins ALS, Hive, Santorini, Codenames and loses Arctic Scavengers, Sea Battle.
    assert rows["Abstract Strategy"][4] == pytest.approx(4 / 6)
    assert rows["Real-time (not in Table 3)"][4:] == [pytest.approx(0.6), pytest.approx(0.45)]
    assert "Atari Boxing is in no Table 3 category" in section["note"]


def test_without_boxing_there_is_no_real_time_row_or_note():
    section = gamebench_categories([r for r in _records() if r["game"] != "atari_boxing"])
    assert [row[0] for row in section["rows"]] == list(REASONING_CATEGORIES)
    assert "Boxing" not in section["note"]


def test_the_ratings_have_table_1_columns_for_all_nine_games_and_the_report_shows_both_tables():
    data = analyse(_records(), sections={"gamebench_categories": gamebench_categories}, resamples=50)
    per_game = data["ratings"]["per_game"]
    assert sorted(per_game) == sorted(GAME_IDS)  # Boxing has one side: scored, not rated
    for game, summary in per_game.items():
        rating = dict(zip(summary["agents"], summary["mean"]))
        assert (rating["model"] > rating["random"]) == (game in STRONG_IN)
    assert data["average_scores"]["per_game"]["atari_boxing"]["model"]["mean"] == pytest.approx(0.6)
    markdown = render_markdown(data)
    for game in GAME_IDS:
        assert game in markdown
    assert "GameBench reasoning categories (Table 3) and mean scores" in markdown
    assert "| Real-time (not in Table 3) | 1 | atari_boxing | atari_boxing |" in markdown


def test_self_play_is_left_out_of_the_category_means():
    records = _records() + [
        record(f"suites/gamebench/test_codenames.py::t[random-vs-random-s{seed}]", ("random", "random"), (1.0, 0.0),
               game="codenames", seed=seed) for seed in range(3)
    ]
    rows = {row[0]: row for row in gamebench_categories(records)["rows"]}
    # Language Communication: the model wins Codenames and Pit and loses AYT and TRB, so random has 2 wins of 4.
    assert rows["Language Communication"][5] == pytest.approx(2 / 4)
    self_play_only = gamebench_categories([r for r in records if r["game"] == "codenames"
                                           and r["sides"][0]["agent"] == r["sides"][1]["agent"]])
    assert self_play_only["columns"][4:] == []
    assert all(row[3] == "–" for row in self_play_only["rows"])


def test_a_game_played_only_in_self_play_is_labelled_so_in_the_average_scores():
    records = [r for r in _records() if r["game"] != "codenames"] + [
        record("suites/gamebench/test_codenames.py::t[random-vs-random-s0]", ("random", "random"), (1.0, 0.0),
               game="codenames"),
    ]
    markdown = render_markdown(analyse(records, resamples=20))
    assert "| codenames (self-play only) |" in markdown
    assert "scale unknown" not in markdown


def test_table_1_from_a_run_rates_each_game_as_gamebench_did_beside_the_papers_rows():
    section = gamebench_ratings(_records())
    assert section["title"] == "GameBench ratings (Table 1)"
    assert section["columns"] == ["agent", "source", "Overall", "ALS", "ARC", "AYT", "CN", "HV", "PT", "SN", "TRB",
                                  "SB", "matches", "errored", "skipped"]
    run = {row[0]: row for row in section["rows"] if row[1] == "this run"}
    assert sorted(run) == ["model", "random"]
    assert run["model"][-3:] == [18, 0, 0]  # the 18 rated matches (2 per game), none errored or skipped
    abbreviations = dict(TABLE_1_COLUMNS)
    for column, abbreviation in enumerate(section["columns"][3:-3], start=3):
        model, random_ = run["model"][column], run["random"][column]
        assert (model > random_) == (abbreviations[abbreviation] in STRONG_IN)
        assert model == pytest.approx(-random_)  # two agents, centred on their mean
    # Overall: 5 of 9 games won, each game weighted alike, so the model rates above random.
    assert run["model"][2] > 0 > run["random"][2]
    # Boxing (one side) has no column; it is not rated.
    paper_rows = [row for row in section["rows"] if row[1] == "paper (Table 1)"]
    assert [row[0] for row in paper_rows] == list(PUBLISHED_TABLE_1)
    gpt4 = next(row for row in paper_rows if row[0] == "GPT-4")
    assert gpt4[2] == -0.89 and gpt4[section["columns"].index("SB")] == -7.38  # GPT-4 lost all its Sea Battles
    human = next(row for row in paper_rows if row[0] == "Human")
    assert human[section["columns"].index("ALS")] == "1.26*" and human[section["columns"].index("SN")] == 3.63
    assert "alpha = 0.001" in section["note"] and "B = 1000" in section["note"]


def test_table_1_matches_gamebench_mode_ratings_and_leaves_unplayed_cells_empty():
    records = [r for r in _records() if r["game"] != "pit"]
    section = gamebench_ratings(records)
    run = {row[0]: row for row in section["rows"] if row[1] == "this run"}
    pit = section["columns"].index("PT")
    assert run["model"][pit] is None and run["random"][pit] is None
    expected = bootstrap(to_match_results([r for r in records if r["game"] != "atari_boxing"]), mode="gamebench")
    assert expected.alpha == 0.001 and expected.n_resamples == 1000
    assert run["model"][2] == pytest.approx(expected.ratings["model"])
    assert run["model"][section["columns"].index("SN")] == pytest.approx(
        expected.per_game["santorini"].ratings["model"])


def test_table_1_published_rows_are_the_corrected_table_of_the_replication_test():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "rating" / "test_rating_gamebench_replication.py"
    spec = importlib.util.spec_from_file_location("gamebench_replication", path)
    replication = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(replication)
    TABLE_1 = replication.TABLE_1  # noqa: N806 - the replication test's name

    names = dict(zip(PUBLISHED_TABLE_1, TABLE_1, strict=True))
    for published, ours in names.items():
        assert PUBLISHED_TABLE_1[published] == TABLE_1[ours]


def test_the_report_labels_table_1_with_its_protocol_and_has_no_table_without_gamebench_matches():
    data = analyse(_records(), sections={"gamebench_ratings": gamebench_ratings}, resamples=50)
    (section,) = data["sections"]
    assert section["title"] == "GameBench ratings (Table 1) · default protocol"
    markdown = render_markdown(data)
    assert "GameBench ratings (Table 1) · default protocol" in markdown
    assert "| GPT-4 | paper (Table 1) | -0.89 |" in markdown
    assert gamebench_ratings([r for r in _records() if r["game"] == "atari_boxing"]) is None


def test_table_1_of_a_run_with_self_play_only_shows_the_papers_rows_and_says_why():
    records = [record(f"suites/gamebench/test_hive.py::t[random-vs-random-s{seed}]", ("random", "random"),
                      (0.5, 0.5), game="hive", seed=seed) for seed in range(2)]
    section = gamebench_ratings(records)
    assert [row[1] for row in section["rows"]] == ["paper (Table 1)"] * 7
    assert section["note"].startswith("This run has no GameBench match between two different agents to rate")
