"""Tests for stratbench.rating.sprt: the GSPRT against the engine-testing anchors' published values."""

import math

import numpy as np
import pytest

from stratbench.rating.sprt import (
    PAIR_POINTS,
    expected_units_left,
    holm,
    llr_bounds,
    llr_expected_score,
    split_error_rate,
    sprt_counts,
    sprt_pentanomial,
    sprt_points,
    sprt_wdl,
)

# Published in Disservin/fastchess:app/tests/sprt_test.cpp (commit 74deac2), each
# `CHECK(sprt.getLLR(...) == Approx(<2 decimals>))`. fastchess writes `Stats(wins, losses, draws)`;
# here the rows are (wins, draws, losses), elo0, elo1, model, published LLR.
FASTCHESS_TRINOMIAL = [
    ((36433, 68692, 36027), 0, 2, "normalized", 0.92),      # "normalized trinomial 1"
    ((10871, 20431, 10650), -1.75, 0.25, "normalized", 2.30),  # "normalized trinomial 2"
    ((21404, 40708, 21184), 0.5, 2.5, "logistic", -1.57),   # "logistic trinomial 1"
    ((57433, 106593, 57030), 0, 2, "logistic", -2.59),      # "logistic trinomial 2"
]
# Same file; fastchess writes `Stats(LL, LD, WL, DD, WD, WW)`; here (LL, LD, WL + DD, WD, WW).
FASTCHESS_PENTANOMIAL = [
    ((365, 16618, 36029 + 200, 16974, 390), 0, 2, "normalized", 2.25),        # "normalized pentanomial 1"
    ((127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),   # "normalized pentanomial 2"
    ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),     # "logistic pentanomial 1"
    ((871, 26175, 55003 + 980, 26678, 821), 0, 2, "logistic", -4.98),         # "logistic pentanomial 2"
]


@pytest.mark.parametrize(("wdl", "elo0", "elo1", "model", "published"), FASTCHESS_TRINOMIAL)
def test_trinomial_llr_equals_fastchess_to_its_printed_precision(wdl, elo0, elo1, model, published):
    result = sprt_wdl(*wdl, elo0, elo1, elo_model=model)
    assert round(result.llr, 2) == published
    assert result.units == sum(wdl)


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "published"), FASTCHESS_PENTANOMIAL)
def test_pentanomial_llr_equals_fastchess_to_its_printed_precision(counts, elo0, elo1, model, published):
    result = sprt_pentanomial(counts, elo0, elo1, elo_model=model)
    assert round(result.llr, 2) == published
    assert result.units == sum(counts)


@pytest.mark.parametrize(("call", "published"), [
    # fastchess "normalized trinomial 3": Stats(4250, 0, 0), SPRT(0.05, 0.05, 0, 10, "normalized")
    (lambda: sprt_wdl(4250, 0, 0, 0, 10, elo_model="normalized"), 120.56),
    # fastchess "normalized pentanomial 3": Stats(0, 0, 0, 0, 0, 5550), SPRT(0.05, 0.05, 0, 5, "normalized")
    (lambda: sprt_pentanomial((0, 0, 0, 0, 5550), 0, 5, elo_model="normalized"), 111.82),
])
def test_degenerate_anchor_agrees_within_fastchess_own_tolerance(call, published):
    # Every unit scored the same: only the 0.001 pseudo-counts keep the LLR finite, and the
    # probabilities of the unseen outcomes sit next to a pole of the secular equation, where
    # fastchess's root tolerance (1e-7 in theta) moves the second decimal. Our fully converged
    # values (120.548, 111.798) agree with an independent constrained optimiser (scipy SLSQP)
    # to 1e-9; fastchess itself checks these cases with Approx(...).epsilon(0.01).
    llr = call().llr
    assert llr == pytest.approx(published, rel=5e-4)
    assert llr == pytest.approx(published, rel=0.01)


def test_trinomial_llr_equals_jw1912_gsprt_example():
    # jw1912/SPRT:README.md, "GSPRT": --wins 4307 --losses 4063 --draws 8620 --elo0 0 --elo1 3
    # -> "LLR: 2.99 (-2.94, 2.94)", "H1 Accepted".
    result = sprt_wdl(4307, 8620, 4063, 0, 3)
    assert round(result.llr, 2) == 2.99
    assert (round(result.lower, 2), round(result.upper, 2)) == (-2.94, 2.94)
    assert result.decision == "H1"


@pytest.mark.parametrize(("wdl", "model", "estimate", "error"), [
    # Disservin/fastchess:app/tests/elo_test.cpp "EloWDL 1": Stats(76 W, 89 L, 123 D), nElo -20.76 +/- 40.13
    ((76, 123, 89), "normalized", -20.76, 40.13),
    # "EloWDL 2": Stats(136 W, 96 L, 111 D): Elo 40.70 +/- 30.43, nElo 49.77 +/- 36.77
    ((136, 111, 96), "logistic", 40.70, 30.43),
    ((136, 111, 96), "normalized", 49.77, 36.77),
    # "EloWDL 3": Stats(34 W, 356 L, 0 D): nElo -508.44 +/- 34.48
    ((34, 0, 356), "normalized", -508.44, 34.48),
])
def test_trinomial_elo_estimate_equals_fastchess(wdl, model, estimate, error):
    result = sprt_wdl(*wdl, -5, 5, elo_model=model)
    assert round(result.estimate, 2) == estimate
    assert round((result.interval[1] - result.interval[0]) / 2, 2) == error
    assert result.interval[0] < result.estimate < result.interval[1]


@pytest.mark.parametrize(("counts", "model", "estimate", "error"), [
    # Disservin/fastchess:app/tests/elo_test.cpp "EloPentanomial 1": Stats(LL 34, LD 54, WL 31, DD 32, WD 64, WW 75)
    ((34, 54, 63, 64, 75), "logistic", 55.58, 27.65),
    ((34, 54, 63, 64, 75), "normalized", 57.94, 28.28),
    # "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334)
    ((332, 433, 498, 333, 334), "logistic", -8.64, 10.33),
    ((332, 433, 498, 333, 334), "normalized", -9.17, 10.96),
    # "EloPentanomial 3": Stats(7895, 8757, 5485, 200, 568, 9999)
    ((7895, 8757, 5685, 568, 9999), "logistic", -21.04, 2.95),
    ((7895, 8757, 5685, 568, 9999), "normalized", -19.01, 2.65),
])
def test_pentanomial_elo_estimate_equals_fastchess(counts, model, estimate, error):
    result = sprt_pentanomial(counts, -5, 5, elo_model=model)
    assert round(result.estimate, 2) == estimate
    assert round((result.interval[1] - result.interval[0]) / 2, 2) == error


def test_bounds_are_walds():
    assert llr_bounds() == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert llr_bounds(0.01, 0.1) == pytest.approx((math.log(0.1 / 0.99), math.log(0.9 / 0.01)))


def test_llr_is_the_constrained_multinomial_likelihood_ratio():
    # Two outcomes (0 and 1): the only distribution with mean s is Bernoulli(s), so the GSPRT
    # is the plain SPRT: LLR = k ln(s1 / s0) + (n - k) ln((1 - s1) / (1 - s0)).
    k, n, s0, s1 = 37, 60, 0.45, 0.55
    expected = k * math.log(s1 / s0) + (n - k) * math.log((1 - s1) / (1 - s0))
    assert sprt_counts((n - k, k), (0.0, 1.0), s0, s1).llr == pytest.approx(expected, rel=1e-12)


def test_the_approximation_agrees_near_the_hypotheses():
    # Van den Bergh's approximation LLR ~ N (s1 - s0)(2 xbar - s0 - s1) / (2 var) agrees with the
    # exact value to about 1% when the bounds are close to the observed score.
    counts = np.array([871, 26175, 55983, 26678, 821])
    phat = counts / counts.sum()
    mean = (phat * np.array(PAIR_POINTS)).sum()
    var = (phat * (np.array(PAIR_POINTS) - mean) ** 2).sum()
    s0, s1 = 1 / (1 + 10 ** (-0 / 400)), 1 / (1 + 10 ** (-2 / 400))
    approx = counts.sum() * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt_pentanomial(counts, 0, 2).llr == pytest.approx(approx, rel=0.01)


def test_no_units_is_llr_zero_continue_and_nan_estimate():
    for result in (sprt_wdl(0, 0, 0, -10, 0), sprt_pentanomial((0,) * 5, -10, 0, elo_model="normalized"),
                   sprt_points([], 0.45, 0.5)):
        assert (result.llr, result.decision, result.units) == (0.0, "continue", 0)
        assert math.isnan(result.estimate) and all(math.isnan(x) for x in result.interval)
        assert expected_units_left(result) is None


@pytest.mark.parametrize("model", ["logistic", "normalized"])
@pytest.mark.parametrize("counts", [(0, 0, 40, 0, 0), (40, 0, 0, 0, 0), (0, 0, 0, 0, 40), (0, 0, 0, 1, 0)])
def test_identical_units_give_a_finite_llr(counts, model):
    result = sprt_pentanomial(counts, -10, 0, elo_model=model)
    assert math.isfinite(result.llr) and math.isfinite(result.estimate)
    assert result.decision in ("H0", "H1", "continue")


def test_all_even_pairs_pass_a_non_regression_test_eventually():
    # Every pair even (a double draw or a win-loss pair): the mean is exactly 1/2 = H1's.
    assert sprt_pentanomial((0, 0, 50, 0, 0), -10, 0).decision == "continue"
    assert sprt_pentanomial((0, 0, 200, 0, 0), -10, 0).decision == "H1"
    assert sprt_pentanomial((200, 0, 0, 0, 0), -10, 0).decision == "H0"


def test_llr_grows_with_evidence_and_flips_with_the_sides():
    win = sprt_pentanomial((5, 10, 20, 20, 10), -10, 0)
    loss = sprt_pentanomial((10, 20, 20, 10, 5), -10, 0)
    assert win.llr > 0 > loss.llr
    assert sprt_pentanomial((10, 20, 40, 40, 20), -10, 0).llr == pytest.approx(2 * win.llr, rel=1e-3)


def test_points_test_equals_counts_on_its_grid():
    grid = np.linspace(0, 1, 11)
    rng = np.random.default_rng(3)
    values = rng.choice(grid, size=80, p=np.full(11, 1 / 11))
    by_points = sprt_points(list(values), 0.45, 0.5, support=grid)
    counts = [int(np.count_nonzero(np.isclose(values, g))) for g in grid]
    assert by_points.llr == pytest.approx(sprt_counts(counts, grid, 0.45, 0.5).llr, rel=1e-12)
    assert by_points.llr == pytest.approx(float(llr_expected_score(np.array([counts]), grid, 0.45, 0.5)[0]))
    assert by_points.estimate == pytest.approx(values.mean())
    assert 0 <= by_points.interval[0] < by_points.estimate < by_points.interval[1] <= 1


def test_points_test_on_wdl_points_is_the_trinomial_test():
    s0, s1 = 1 / (1 + 10 ** (10 / 400)), 0.5
    points = [1.0] * 30 + [0.5] * 40 + [0.0] * 35
    assert sprt_points(points, s0, s1).llr == pytest.approx(sprt_wdl(30, 40, 35, -10, 0).llr, rel=1e-12)


def test_batched_llr_equals_one_at_a_time():
    rng = np.random.default_rng(0)
    counts = rng.multinomial(60, [0.1, 0.2, 0.4, 0.2, 0.1], size=50)
    counts[0] = 0
    batch = llr_expected_score(counts, PAIR_POINTS, 0.48, 0.5)
    single = [sprt_counts(row, PAIR_POINTS, 0.48, 0.5).llr for row in counts]
    assert batch == pytest.approx(single, rel=1e-10, abs=1e-12)
    assert batch[0] == 0.0


def test_decision_follows_the_bounds():
    assert sprt_wdl(4307, 8620, 4063, 0, 3).decision == "H1"
    assert sprt_pentanomial((871, 26175, 55983, 26678, 821), 0, 2).decision == "H0"
    assert sprt_wdl(36433, 68692, 36027, 0, 2, elo_model="normalized").decision == "continue"
    # a wider alpha narrows the upper bound: 0.92 is not enough at 0.05, enough at 0.45
    assert sprt_wdl(36433, 68692, 36027, 0, 2, alpha=0.45, beta=0.45, elo_model="normalized").decision == "H1"


def test_expected_units_left_is_a_plausible_remaining_count():
    assert expected_units_left(sprt_wdl(4307, 8620, 4063, 0, 3)) == 0.0
    # at 100 even pairs the LLR (2.91) is just under the bound and rises ~0.029 a pair
    left = expected_units_left(sprt_pentanomial((0, 0, 100, 0, 0), -10, 0))
    assert 0.5 < left < 3
    # a score midway between the hypotheses: zero drift, (x - a)(b - x) / variance
    middle = sprt_pentanomial((10, 20, 40, 20, 10), -20, 20)
    assert middle.drift == pytest.approx(0, abs=1e-9)
    assert expected_units_left(middle) == pytest.approx(
        (middle.llr - middle.lower) * (middle.upper - middle.llr) / middle.spread, rel=1e-3)


@pytest.mark.slow
def test_expected_units_left_matches_simulation():
    # From 20 pairs of evidence, a test drifting towards H0 at the true score of its H0.
    rng = np.random.default_rng(5)
    p = np.array([0.05, 0.25, 0.4, 0.2, 0.1])
    start = np.round(p * 20).astype(int)
    predicted = expected_units_left(sprt_counts(start, PAIR_POINTS, 0.48, 0.5))
    draws = rng.multinomial(1, p, size=(250, 2500))
    counts = start + np.cumsum(draws, axis=1)
    llr = llr_expected_score(counts, PAIR_POINTS, 0.48, 0.5)
    lower, upper = llr_bounds()
    decided = (llr <= lower) | (llr >= upper)
    assert decided.any(axis=1).all()
    steps = decided.argmax(axis=1) + 1
    assert predicted == pytest.approx(steps.mean(), rel=0.2)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: sprt_wdl(-1, 0, 0, -10, 0), "counts: expected finite numbers >= 0"),
    (lambda: sprt_wdl(1, 0, 0, 0, 0), "elo0, elo1: expected finite numbers with elo0 < elo1, got 0.0, 0.0"),
    (lambda: sprt_wdl(1, 0, 0, "x", 0), "elo0: expected a finite number, got 'x'"),
    (lambda: sprt_wdl(1, 0, 0, -10, math.inf), "elo1: expected a finite number, got inf"),
    (lambda: sprt_counts((1, 2), (0.0,), 0.4, 0.5), "points: expected at least two ascending points in [0, 1]"),
    (lambda: sprt_counts((1, 2), (0.5, 0.2), 0.4, 0.5), "points: expected at least two ascending points in [0, 1]"),
    (lambda: sprt_counts((1, 2), (0.0, 1.0), None, 0.5), "s0: expected a finite number, got None"),
    (lambda: sprt_wdl(1, 0, 0, -10, 0, alpha=0.5), "alpha: expected a number in (0, 0.5), got 0.5"),
    (lambda: sprt_wdl(1, 0, 0, -10, 0, beta=0), "beta: expected a number in (0, 0.5), got 0"),
    (lambda: sprt_wdl(1, 0, 0, -10, 0, elo_model="bayes"), "elo_model: expected one of logistic, normalized"),
    (lambda: sprt_pentanomial((1, 2, 3), -10, 0), "pentanomial counts: expected 5 numbers"),
    (lambda: sprt_pentanomial(("a", 2, 3, 4, 5), -10, 0), "counts: expected numbers"),
    (lambda: sprt_pentanomial((1, 2, 3, 4, 5), -1000, 0, elo_model="normalized"), "elo0, elo1: normalized Elo"),
    (lambda: sprt_points([1.5], 0.4, 0.5), "points: every unit score must be a number in [0, 1]"),
    (lambda: sprt_points([0.5], 0.5, 0.4), "s0, s1: expected 0 < s0 < s1 < 1"),
])
def test_malformed_arguments_raise_value_error_naming_the_argument(call, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]").replace("+", r"\+")):
        call()


def test_error_control_helpers():
    assert split_error_rate(0.05, 4) == pytest.approx(0.0125)
    with pytest.raises(ValueError, match="tests"):
        split_error_rate(0.05, 0)
    assert holm([0.01, 0.04, 0.03, 0.2]) == [True, False, False, False]
    assert holm([0.01, 0.015, 0.02, 0.04]) == [True, True, True, True]   # 0.0125, 0.0167, 0.025, 0.05
    assert holm([]) == []
