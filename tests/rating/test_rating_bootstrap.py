"""Tests for stratbench.rating.bootstrap (both modes) and its resampling engine."""

import json
import math
import random
from collections import Counter

import choix
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratbench.rating import MatchResult, RatingSummary, bootstrap, fit
from stratbench.rating._ilsr import _ilsr_batch
from stratbench.rating._pairwise import _contributions, _matrix
from stratbench.rating._resample import _assemble, _pool


def _m(a, b, sa, sb, game="g"):
    return MatchResult(game, (a, b), (sa, sb))


def _wins(winner, loser, n, game="g"):
    return [_m(winner, loser, 1.0, 0.0, game) for _ in range(n)]


def _league():
    """Returns a small two-game data set with a clear order a > b > c."""
    out = []
    for game in ("g1", "g2"):
        out += _wins("a", "b", 6, game) + _wins("b", "a", 2, game)
        out += _wins("b", "c", 6, game) + _wins("c", "b", 2, game)
        out += _wins("a", "c", 7, game) + _wins("c", "a", 1, game)
        out += [_m("a", "c", 0.5, 0.5, game), _m("b", "c", 0.6, 0.4, game)]
    return out


def test_summary_shapes_order_and_intervals():
    s = bootstrap(_league(), n_resamples=300, seed=1)
    assert isinstance(s, RatingSummary)
    assert s.agents == ("a", "b", "c")
    assert s.n_resamples == 300 and s.n_failed == 0 and s.warning is None
    assert s.mode == "default" and s.ties == "drop" and s.level == 0.9
    assert s.mean[0] > s.mean[1] > s.mean[2]
    assert abs(sum(s.mean)) < 1e-9
    for lo, med, hi in zip(s.low, s.median, s.high):
        assert lo <= med <= hi
    assert s.n_matches == (34, 34, 36)  # c also played the tie and the 0.6/0.4 match
    assert list(s.per_game) == ["g1", "g2"]
    assert s.per_game["g1"].game == "g1" and s.per_game["g1"].n_resamples == 300
    assert s.interval("a") == (s.low[0], s.high[0])
    assert s.ratings == dict(zip(s.agents, s.mean))


def test_mean_is_close_to_the_full_data_fit():
    matches = _league() * 5
    s = bootstrap(matches, n_resamples=500, per_game=False)
    full = fit(matches)
    for agent, mean in s.ratings.items():
        assert mean == pytest.approx(full[agent], abs=0.1)


def test_seed_makes_it_reproducible():
    a = bootstrap(_league(), n_resamples=100, seed=7)
    b = bootstrap(_league(), n_resamples=100, seed=7)
    c = bootstrap(_league(), n_resamples=100, seed=8)
    assert a == b
    assert a.mean != c.mean


def test_wider_level_gives_wider_interval():
    wide = bootstrap(_league(), n_resamples=400, level=0.9, per_game=False)
    narrow = bootstrap(_league(), n_resamples=400, level=0.5, per_game=False)
    assert wide.mean == narrow.mean
    for k in range(3):
        assert wide.low[k] <= narrow.low[k] <= narrow.high[k] <= wide.high[k]


def test_games_are_balanced_not_matches():
    # 90 matches of game "big" say a >> b; 10 matches of game "small" say b >> a.
    big = _wins("a", "b", 81, "big") + _wins("b", "a", 9, "big")
    small = _wins("b", "a", 9, "small") + _wins("a", "b", 1, "small")
    s = bootstrap(big + small, n_resamples=2000, per_game=False)
    unweighted = fit(big + small)
    assert unweighted["a"] - unweighted["b"] > 1.0
    assert abs(s.ratings["a"] - s.ratings["b"]) < 0.3  # each game carries half the mass


def test_per_game_rates_only_that_games_players():
    matches = _wins("a", "b", 3, "g1") + _wins("b", "a", 1, "g1") + _wins("c", "d", 2, "g2")
    matches += _wins("d", "c", 2, "g2")
    s = bootstrap(matches, n_resamples=50)
    assert s.agents == ("a", "b", "c", "d")
    assert s.per_game["g1"].agents == ("a", "b")
    assert s.per_game["g2"].agents == ("c", "d")
    assert s.per_game["g2"].n_matches == (4, 4)
    assert bootstrap(matches, n_resamples=50, per_game=False).per_game == {}


def test_failing_resamples_are_counted_not_dropped(monkeypatch):
    real = choix.ilsr_pairwise_dense
    calls = []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) % 2 == 0:
            raise RuntimeError("Did not converge after 100 iterations")
        return real(*args, **kwargs)

    monkeypatch.setattr(choix, "ilsr_pairwise_dense", flaky)
    s = bootstrap(_league(), n_resamples=40, per_game=False, engine="choix")
    assert s.n_resamples == 40 and s.n_failed == 20
    assert "20 of 40 resamples failed" in s.warning
    assert all(math.isfinite(v) for v in s.mean)


def test_all_failing_gives_nan_and_a_warning():
    s = bootstrap(_league(), n_resamples=20, per_game=False, max_iter=1)
    assert s.n_failed == 20
    assert all(math.isnan(v) for v in s.mean)
    assert s.warning and "20 of 20" in s.warning
    assert s.to_dict()["mean"] == [None, None, None]


def test_to_dict_has_builtin_types_only():
    d = bootstrap(_league(), n_resamples=30).to_dict()
    json.dumps(d, allow_nan=False)

    def walk(x):
        assert type(x) in (dict, list, str, int, float, bool, type(None)), type(x)
        if isinstance(x, dict):
            for k, v in x.items():
                assert type(k) is str
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(d)
    assert d["per_game"]["g1"]["game"] == "g1"


def test_batch_engine_matches_choix_engine():
    kwargs = dict(n_resamples=60, seed=3, alpha=0.001)
    batch = bootstrap(_league(), engine="batch", **kwargs)
    slow = bootstrap(_league(), engine="choix", **kwargs)
    np.testing.assert_allclose(batch.mean, slow.mean, atol=1e-9)
    np.testing.assert_allclose(batch.per_game["g2"].high, slow.per_game["g2"].high, atol=1e-9)


def test_vectorised_ilsr_matches_choix_on_hard_matrices():
    rng = np.random.default_rng(0)
    mats = rng.poisson(1.0, size=(40, 6, 6)).astype(float)
    mats[:, np.arange(6), np.arange(6)] = 0
    mats[:10, :, 0] = 0.0  # agent 0 never lost
    mats[10:20, 5, :] = 0.0  # agent 5 never won
    mats[20:25] = 0.0  # no data at all
    mats[25:30] *= rng.random((5, 6, 6))  # fractional weights
    for alpha in (0.001, 0.1):
        params, unresolved = _ilsr_batch(mats, alpha)
        assert not unresolved.any()
        ref = np.stack([choix.ilsr_pairwise_dense(m, alpha=alpha) for m in mats])
        np.testing.assert_allclose(params, ref, atol=1e-9)


def test_vectorised_ilsr_reports_non_convergence():
    mats = np.ones((3, 4, 4))
    params, unresolved = _ilsr_batch(mats, 0.01, max_iter=1)
    assert unresolved.all() and np.isnan(params).all()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([0.0, 0.3, 0.5, 1.0])),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from(["drop", "half"]),
    st.integers(0, 2**32 - 1),
)
def test_count_assembly_equals_summing_drawn_matches(raw, ties, seed):
    agents = "abcd"
    matches = [_m(agents[i], agents[j], s, 1.0 - s) for i, j, s in raw]
    index = {a: k for k, a in enumerate(agents)}
    pool = _pool(matches, index, ties)
    rows = _contributions(matches, index, ties)
    draws = np.random.default_rng(seed).integers(0, len(matches), size=(5, len(matches)))
    counts = np.stack([np.bincount(pool.category[d], minlength=pool.n_categories) for d in draws])
    expected = np.stack([_matrix(rows[d], 4) for d in draws])
    np.testing.assert_allclose(_assemble(pool, counts), expected, atol=1e-12)


def test_more_sided_matches_are_counted_as_ignored():
    extra = [MatchResult("g1", ("a", "b", "c"), (1.0, 0.0, 0.0))]
    s = bootstrap(_league() + extra, n_resamples=20)
    plain = bootstrap(_league(), n_resamples=20)
    assert s.n_ignored == 1 and plain.n_ignored == 0
    assert s.mean == plain.mean and s.n_matches == plain.n_matches


@pytest.mark.parametrize(
    "kwargs",
    [
        {"alpha": 0.0},
        {"alpha": -1.0},
        {"ties": "win"},
        {"mode": "arena"},
        {"engine": "gpu"},
        {"level": 1.0},
        {"n_resamples": 0},
    ],
)
def test_invalid_options_are_rejected(kwargs):
    with pytest.raises(ValueError):
        bootstrap(_league(), **kwargs)


def test_no_two_sided_matches_is_an_error():
    with pytest.raises(ValueError, match="two-sided"):
        bootstrap([MatchResult("g", ("a", "b", "c"), (1.0, 0.0, 0.0))])


# --- GameBench mode -------------------------------------------------------------------------


def _gamebench_reference(matches, agents, n_resamples, seed, alpha):
    """Replays GameBench's procedure the slow, obvious way (match objects, one fit each)."""
    rng = random.Random(seed)
    index = {a: i for i, a in enumerate(agents)}

    def fit_sample(sample):
        mat = np.zeros((len(agents), len(agents)))
        for m in sample:
            (a, b), (sa, sb) = m.agents, m.scores
            if sa != sb:
                mat[index[a], index[b]] += sa
                mat[index[b], index[a]] += sb
        return choix.ilsr_pairwise_dense(mat, alpha=alpha)

    result = {}
    for game in sorted({m.game for m in matches}):
        subset = [m for m in matches if m.game == game]
        result[game] = np.mean(
            [fit_sample(rng.choices(subset, k=len(subset))) for _ in range(n_resamples)], axis=0
        )
    counts = Counter(m.game for m in matches)
    weights = [1 / counts[m.game] for m in matches]
    for _ in range(2):  # the second pass overwrites the first
        result["all"] = np.mean(
            [
                fit_sample(rng.choices(matches, k=len(matches), weights=weights))
                for _ in range(n_resamples)
            ],
            axis=0,
        )
    return result


def test_gamebench_mode_replays_the_reference_random_stream():
    matches = _league() + _wins("d", "a", 1, "g3") + _wins("c", "d", 2, "g3")
    agents = ("a", "b", "c", "d")
    ref = _gamebench_reference(matches, agents, n_resamples=15, seed=0, alpha=0.001)
    s = bootstrap(matches, mode="gamebench", n_resamples=15, agents=agents)
    assert (s.mode, s.alpha, s.ties, s.seed) == ("gamebench", 0.001, "drop", 0)
    np.testing.assert_allclose(s.mean, ref["all"], atol=1e-9)
    for game in ("g1", "g2", "g3"):
        assert s.per_game[game].agents == agents  # every fit rates every agent
        np.testing.assert_allclose(s.per_game[game].mean, ref[game], atol=1e-9)
    assert s.per_game["g3"].n_matches == (1, 0, 2, 3)


def test_gamebench_mode_per_game_false_keeps_the_overall_stream():
    full = bootstrap(_league(), mode="gamebench", n_resamples=10)
    lean = bootstrap(_league(), mode="gamebench", n_resamples=10, per_game=False)
    assert lean.per_game == {}
    assert lean.mean == full.mean


def test_gamebench_mode_orders_agents_like_gamebench():
    matches = [_m("gpt-4", "random", 1.0, 0.0), _m("zeta", "human", 0.0, 1.0)]
    s = bootstrap(matches, mode="gamebench", n_resamples=5, per_game=False)
    assert s.agents == ("random", "human", "gpt-4", "zeta")
