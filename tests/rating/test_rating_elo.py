"""Tests for stratbench.rating.elo (SPIN-Bench's iterated Elo)."""

import random

import pytest

from stratbench.rating import MatchResult, elo, pair_records


def _m(a, b, sa, sb):
    return MatchResult("g", (a, b), (sa, sb))


HAND = (
    [_m("a", "b", 1, 0), _m("b", "a", 0, 1), _m("b", "a", 1, 0), _m("a", "b", 0.5, 0.5)]
    + [_m("c", "a", 1, 0)]
    + [_m("b", "c", 1, 0) for _ in range(3)]
)


def test_pair_records_count_wins_and_draws_by_sorted_pair():
    assert pair_records(HAND) == {
        ("a", "b"): (2, 1, 1),
        ("a", "c"): (0, 1, 0),
        ("b", "c"): (3, 0, 0),
    }


def test_one_sweep_matches_hand_computation():
    # (a,b) 2-1-1 at 1000/1000: E_a = 4/2 = 2, S_a = 2.5 -> a = 1016, b = 984.
    # (a,c) 0-1-0 at 1016/1000: E_a = 1/(1 + 10**(-16/400)) = 0.523009 -> a = 999.2637,
    #   c = 1016.7363.
    # (b,c) 3-0-0 at 984/1016.7363: E_b = 3/(1 + 10**(32.7363/400)) = 1.359134
    #   -> b = 984 + 32 * 1.640866 = 1036.5093, c = 1016.7363 - 52.5093 = 964.2270.
    r = elo(HAND, sweeps=1)
    assert r == pytest.approx({"a": 999.2637, "b": 1036.5093, "c": 964.2270}, abs=1e-3)


def test_draws_only_keep_initial_ratings():
    r = elo([_m("a", "b", 0.5, 0.5), _m("b", "c", 0, 0)], initial=1200)
    assert r == {"a": 1200.0, "b": 1200.0, "c": 1200.0}


def test_updates_are_zero_sum_and_order_reflects_strength():
    matches = [_m("a", "b", 1, 0)] * 7 + [_m("b", "a", 1, 0)] * 3 + [_m("b", "c", 1, 0)] * 6
    matches += [_m("c", "b", 1, 0)] * 4
    r = elo(matches)
    assert sum(r.values()) == pytest.approx(3000.0)
    assert r["a"] > r["b"] > r["c"]


def test_result_does_not_depend_on_match_order():
    shuffled = list(HAND)
    random.Random(1).shuffle(shuffled)
    assert elo(shuffled, sweeps=50) == elo(HAND, sweeps=50)


def test_only_two_sided_matches_count():
    extra = [MatchResult("g", ("a", "b", "c"), (1, 0, 0)), _m("a", "a", 1, 0)]
    assert elo(HAND + extra, sweeps=10) == elo(HAND, sweeps=10)
    assert elo([]) == {}
