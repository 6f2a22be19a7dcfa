"""Tests for stratbench.rating.table (plain-text rendering)."""

import math

from stratbench.rating import (
    MatchResult,
    RatingSummary,
    average_scores,
    render_ratings_table,
    render_scores_table,
)


def _summary(agents, mean, n_matches, game=None, per_game=None, n_failed=0, warning=None):
    return RatingSummary(
        agents=tuple(agents),
        mean=tuple(mean),
        low=tuple(m - 0.5 for m in mean),
        high=tuple(m + 0.5 for m in mean),
        median=tuple(mean),
        n_matches=tuple(n_matches),
        n_resamples=100,
        n_failed=n_failed,
        alpha=0.01,
        ties="drop",
        level=0.9,
        mode="default",
        seed=0,
        game=game,
        per_game=per_game or {},
        warning=warning,
    )


def _example():
    chess = _summary(["a", "b"], [0.25, -0.25], [4, 4], game="chess", n_failed=3)
    go = _summary(["a", "b", "c"], [1.0, 0.0, -1.0], [0, 2, 2], game="go")
    per_game = {"go": go, "chess": chess}
    return _summary(["a", "b", "c"], [-0.1, 0.6, -0.5], [4, 6, 2], per_game=per_game)


def test_rows_sorted_by_mean_and_columns_by_game():
    text = render_ratings_table(_example())
    lines = text.splitlines()
    assert lines[0].split() == ["Agent", "Overall", "chess", "go"]
    assert [line.split()[0] for line in lines[2:5]] == ["b", "a", "c"]
    assert lines[2].split() == ["b", "0.60", "-0.25", "0.00"]
    assert lines[4].split() == ["c", "-0.50", "-", "-1.00"]  # c did not play chess


def test_prior_only_cells_are_starred_and_explained():
    text = render_ratings_table(_example())
    assert "1.00*" in text
    assert "prior (alpha) only" in text


def test_intervals_are_optional():
    assert "[" not in render_ratings_table(_example())
    text = render_ratings_table(_example(), intervals=True)
    assert "0.60 [0.10, 1.10]" in text


def test_footer_reports_settings_and_failures():
    text = render_ratings_table(_example())
    assert "mean of 100" in text and "5th-95th" in text and "alpha=0.01" in text
    assert "chess: 3 of 100 resamples failed." in text


def test_warning_and_nan_are_shown():
    s = _summary(["a", "b"], [math.nan, math.nan], [1, 1], warning="2 of 2 resamples failed")
    text = render_ratings_table(s)
    assert "nan" in text and "warning: 2 of 2 resamples failed" in text


def test_scores_table_marks_missing_games():
    avg = average_scores(
        [MatchResult("go", ("a", "b"), (1.0, 0.0)), MatchResult("chess", ("a", "c"), (0.25, 0.75))]
    )
    lines = render_scores_table(avg).splitlines()
    assert lines[0].split() == ["Agent", "Overall", "chess", "go"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert list(rows) == ["c", "a", "b"]
    assert rows["b"].split() == ["b", "0.00", "(1)", "-", "0.00", "(1)"]
    assert "0.62 (2)" in rows["a"]
