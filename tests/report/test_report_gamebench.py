"""The report's GameBench tables: Table 3's categories with mean scores, Table 1's per-game ratings."""

from __future__ import annotations

import pytest
from report_records import record
from stratbench.games.gamebench import EXTRA_CATEGORIES, GAME_IDS, REASONING_CATEGORIES
from stratbench.report.analysis import analyse
from stratbench.report.render import render_markdown
from stratbench.report.sections import gamebench_categories

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
    assert section["columns"] == ["category", "games", "GameBench games", "played here", "model", "random"]
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
