"""Tests for stratbench.rating.bradley_terry on hand-made data."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratbench.rating import MatchResult, average_scores, fit, win_probability_matrix


def _m(a, b, sa, sb, game="g"):
    return MatchResult(game, (a, b), (sa, sb))


def _wins(winner, loser, n, game="g"):
    return [_m(winner, loser, 1.0, 0.0, game) for _ in range(n)]


def test_transitive_three_agents_are_ordered_and_centred():
    matches = (
        _wins("a", "b", 3) + _wins("b", "a", 1)
        + _wins("b", "c", 3) + _wins("c", "b", 1)
        + _wins("a", "c", 3) + _wins("c", "a", 1)
    )
    r = fit(matches)
    assert r["a"] > r["b"] > r["c"]
    assert abs(sum(r.values())) < 1e-9
    assert list(r) == ["a", "b", "c"]


def test_two_agents_recover_log_odds():
    r = fit(_wins("a", "b", 3) + _wins("b", "a", 1), alpha=1e-9)
    assert r["a"] - r["b"] == pytest.approx(math.log(3), abs=1e-6)


def test_fractional_scores_act_as_weights():
    fractional = [_m("a", "b", 0.7, 0.3) for _ in range(10)]
    counted = _wins("a", "b", 7) + _wins("b", "a", 3)
    assert fit(fractional) == pytest.approx(fit(counted), abs=1e-9)
    assert fit(fractional, alpha=1e-9)["a"] - fit(fractional, alpha=1e-9)["b"] == pytest.approx(
        math.log(7 / 3), abs=1e-6
    )


def test_tie_policies_differ_as_documented():
    decisive = _wins("a", "b", 2) + _wins("b", "a", 1)
    ties = [_m("a", "b", 0.5, 0.5) for _ in range(4)] + [_m("b", "a", 0.0, 0.0)]
    dropped = fit(decisive + ties, ties="drop", alpha=1e-9)
    halved = fit(decisive + ties, ties="half", alpha=1e-9)
    # drop: ties carry no information, as if they were never played
    assert dropped == pytest.approx(fit(decisive, alpha=1e-9), abs=1e-9)
    # half: 5 ties add 2.5 wins each way -> odds (2 + 2.5) / (1 + 2.5)
    assert halved["a"] - halved["b"] == pytest.approx(math.log(4.5 / 3.5), abs=1e-6)
    assert 0 < halved["a"] - halved["b"] < dropped["a"] - dropped["b"]


def test_only_exactly_equal_scores_are_ties():
    near = [_m("a", "b", 0.5000001, 0.4999999) for _ in range(4)]
    assert fit(near, ties="drop")["a"] > 0  # not dropped: a (tiny) weighted win each


@pytest.mark.parametrize("alpha", [0.0, -0.01, float("nan")])
def test_non_positive_alpha_is_rejected(alpha):
    with pytest.raises(ValueError, match="alpha"):
        fit(_wins("a", "b", 1), alpha=alpha)


def test_unknown_tie_policy_is_rejected():
    with pytest.raises(ValueError, match="ties"):
        fit(_wins("a", "b", 1), ties="win")


def test_agent_that_never_lost_still_fits():
    matches = _wins("a", "b", 5) + _wins("a", "c", 5) + _wins("b", "c", 2) + _wins("c", "b", 1)
    r = fit(matches)
    assert all(math.isfinite(v) for v in r.values())
    assert r["a"] > r["b"] > r["c"]


def test_agent_without_matches_gets_a_prior_rating():
    r = fit(_wins("a", "b", 2) + _wins("b", "a", 1), agents=["a", "b", "z"])
    assert list(r) == ["a", "b", "z"]
    assert math.isfinite(r["z"])


def test_agents_must_cover_the_matches():
    with pytest.raises(ValueError, match="not in `agents`"):
        fit(_wins("a", "b", 1), agents=["a"])


def test_scores_outside_unit_interval_are_rejected():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fit([_m("a", "b", 3.0, 1.0)])


def test_matches_with_more_sides_and_self_play_are_ignored():
    base = _wins("a", "b", 2) + _wins("b", "a", 1)
    extra = [
        MatchResult("g", ("a", "b", "c"), (0.0, 1.0, 0.0)),
        MatchResult("g", ("a",), (1.0,)),
        _m("b", "b", 1.0, 0.0),
    ]
    assert fit(base + extra, agents=["a", "b"]) == pytest.approx(fit(base), abs=1e-12)


def test_fit_needs_two_agents():
    with pytest.raises(ValueError, match="two agents"):
        fit([MatchResult("g", ("a", "b", "c"), (1.0, 0.0, 0.0))])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("abcd"),
            st.sampled_from("abcd"),
            st.sampled_from([0.0, 0.25, 0.5, 1.0]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.randoms(use_true_random=False),
)
def test_fit_ignores_match_order_and_seat_order(raw, rnd):
    matches = [_m(a, b, s, 1.0 - s) for a, b, s in raw]
    shuffled = [(_m(m.agents[1], m.agents[0], m.scores[1], m.scores[0])) for m in matches]
    rnd.shuffle(shuffled)
    agents = list("abcd")
    assert fit(shuffled, agents=agents) == pytest.approx(fit(matches, agents=agents), abs=1e-7)


def test_win_probability_matrix_follows_bradley_terry():
    ratings = {"x": 0.0, "y": math.log(3.0), "z": -1.0}
    agents, p = win_probability_matrix(ratings)
    assert agents == ("x", "y", "z")
    assert p[1, 0] == pytest.approx(0.75)
    assert p[0, 1] == pytest.approx(0.25)
    np.testing.assert_allclose(np.diag(p), 0.5)
    np.testing.assert_allclose(p + p.T, 1.0)
    r = np.array([0.0, math.log(3.0), -1.0])
    np.testing.assert_allclose(p, np.exp(r)[:, None] / (np.exp(r)[:, None] + np.exp(r)[None, :]))


def test_average_scores_overall_and_per_game():
    matches = [
        _m("a", "b", 1.0, 0.0, "g1"),
        _m("a", "b", 0.5, 0.5, "g1"),
        _m("b", "c", 0.25, 0.75, "g2"),
        MatchResult("g2", ("a", "b", "c"), (1.0, 0.0, 0.0)),
    ]
    avg = average_scores(matches)
    assert avg.overall["a"] == (pytest.approx(2.5 / 3), 3)
    assert avg.overall["b"] == (pytest.approx(0.75 / 4), 4)
    assert avg.overall["c"] == (pytest.approx(0.375), 2)
    assert list(avg.per_game) == ["g1", "g2"]
    assert avg.per_game["g1"] == {"a": (0.75, 2), "b": (0.25, 2)}
    assert "c" not in avg.per_game["g1"]
    assert avg.per_game["g2"]["c"].n == 2
