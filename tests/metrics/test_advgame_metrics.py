"""AdvGameBench metrics on hand-made traces, every value worked out in the comments."""

import math

import pytest

from stratbench.metrics import advgame as m


def _round(won, cost, strategy, revises=False, value=0.0, budget=20):
    return m.Round(won=won, cost=cost, budget=budget, strategy={"units": [strategy]},
                   violation=cost > budget, revises_after=revises, value=value)


# The side revises after rounds 1, 3, 5, 7 (order "first").
#   r1 L A (rev) Φ-5 | r2 W B Φ3 | r3 L B (rev) Φ-2 | r4 L C 22 over Φ-4 | r5 L C 22 over (rev) Φ-6
#   r6 W D Φ2 | r7 L D (rev) Φ-1 | r8 L D Φ-3
TRACE = (
    _round(False, 18, "A", True, -5), _round(True, 19, "B", False, 3),
    _round(False, 19, "B", True, -2), _round(False, 22, "C", False, -4),
    _round(False, 22, "C", True, -6), _round(True, 20, "D", False, 2),
    _round(False, 20, "D", True, -1), _round(False, 20, "D", False, -3),
)


def test_paper_core_metrics_on_a_hand_made_trace():
    assert m.win_rate(TRACE) == 2 / 8
    # Negative feedback at all 4 revision turns; the strategy changed after 3 of them (not after r7).
    assert m.over_correction_rate_paper(TRACE) == 3 / 4
    # Revisions A->B (loss to win), B->C (still lost, now over budget), C->D (violation gone, win): 2 of 3.
    assert m.correction_success_rate_paper(TRACE) == 2 / 3
    # Wins at indices 1 and 5 of 0..7: sum (x - 3.5) y = -2.5 + 1.5 = -1; sum (x - 3.5)^2 = 42.
    assert m.improvement_slope(TRACE) == pytest.approx(-1 / 42)
    assert m.over_budget_rate(TRACE) == 2 / 8
    assert m.initial_win(TRACE) == 0.0


def test_released_metrics_keep_the_rounds_after_own_revisions_and_count_cost_changes():
    kept = m.kept_rounds_released(TRACE, "first")
    assert [r.cost for r in kept] == [19, 22, 20, 20]  # rounds 2, 4, 6, 8
    released = m.released_metrics(kept)
    assert released["win_rate"] == 0.5
    assert released["correction_rate"] == 2 / 3  # 19->22, 22->20 changed, 20->20 not
    assert released["correction_success_rate"] == 1 / 2  # the change into r6 won, into r4 did not
    # wins 1, 0, 1, 0 on x 0..3: sum (x - 1.5)(y - 0.5) = -1, sum (x - 1.5)^2 = 5.
    assert released["improvement_slope"] == pytest.approx(-0.2)
    assert released["over_budget_ratio"] == 1 / 4
    assert m.correction_rate_released(TRACE, "first") == 2 / 3
    assert [r.cost for r in m.kept_rounds_released(TRACE, "second")] == [19, 22, 20]  # rounds 3, 5, 7


def test_paper_and_released_orr_disagree_where_the_definitions_do():
    # Same cost, new strategy after a loss: the paper counts a revision, the released code does not.
    trace = (_round(False, 10, "A", True), _round(False, 10, "B", False), _round(False, 10, "B", True),
             _round(True, 10, "B"))
    assert m.over_correction_rate_paper(trace) == 1 / 2
    assert m.correction_rate_released(trace, "first") == 0.0


def test_released_metrics_of_nothing_are_zero_as_released_and_paper_ratios_are_nan():
    assert m.released_metrics([]) == dict.fromkeys(m.RELEASED_KEYS, 0.0)
    assert math.isnan(m.win_rate([]))
    assert math.isnan(m.over_correction_rate_paper((_round(True, 1, "A", True), _round(True, 1, "A"))))


def test_released_aggregation_concatenates_opponents_and_averages_role_order_groups():
    def match(costs, role="human", order="first", won=True):
        # Four rounds; kept (order first) are rounds 2 and 4.
        rounds = tuple(_round(won, c, f"s{c}", revises=(i % 2 == 0)) for i, c in enumerate(costs))
        return m.MatchTrace(rounds=rounds, role=role, order=order)

    vs_a, vs_b = match([5, 10, 10, 12]), match([5, 12, 12, 15])
    # Kept costs concatenated: 10, 12, 12, 15: two changes out of three steps (one across the opponents'
    # boundary would be a third if costs differed there; 12 -> 12 does not).
    assert m.aggregate_released([vs_a, vs_b])["correction_rate"] == 2 / 3
    other_group = match([1, 1, 1, 1], role="demon", won=False)
    both = m.aggregate_released([vs_a, vs_b, other_group])
    assert both["correction_rate"] == (2 / 3 + 0.0) / 2
    assert both["win_rate"] == (1.0 + 0.0) / 2


def test_paper_aggregation_pools_counts_over_matches():
    short = (_round(False, 10, "A", True, -1), _round(True, 10, "B", False, 2))
    pooled = m.aggregate_paper([m.MatchTrace(TRACE, initial_violations=(True, False)),
                                m.MatchTrace(short, initial_violations=(False,))])
    assert pooled["win_rate"] == 3 / 10
    assert pooled["over_correction_rate"] == 4 / 5
    assert pooled["correction_success_rate"] == 3 / 4
    assert pooled["initial_win"] == 0.0
    assert pooled["rule_violation_rate"] == 1 / 3
    assert pooled["constructive_rate"] == pytest.approx(3 / 4)  # Φ rose after A->B, C->D and the short match's A->B
    # One fit on x = 1..8 and 1..2, y = wins at x 2, 6 and 2.
    xs, ys = list(range(1, 9)) + [1, 2], [0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
    assert pooled["improvement_slope"] == pytest.approx(m.ols_slope(ys, xs))


def test_constructive_rate_counts_only_revisions_after_negative_feedback():
    assert m.constructive_rate([TRACE]) == pytest.approx(2 / 3)  # Φ -5 -> 3 up, -2 -> -4 down, -6 -> 2 up


def test_strategy_similarity_parts():
    before, after = {"invaders": [{"name": "A"}]}, {"invaders": [{"name": "B"}]}
    assert m.strategy_similarity(before, before) == pytest.approx(1.0)
    # structural 0 (names differ), semantic: tokens {invaders, name, a} vs {invaders, name, b}: 2/3;
    # functional 0 (no entry in common).
    assert m.strategy_similarity(before, after) == pytest.approx((0 + 2 / 3 + 0) / 3)
    assert m.strategy_similarity(before, after, weights=(0, 1, 0)) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="MASR weights must be non-negative and sum to 1"):
        m.strategy_similarity(before, after, weights=(1, 1, 0))


def test_mean_similarity_after_negative_uses_only_those_revisions():
    # The three revisions after negative feedback each swap the one entry {"units": ["A"]} -> ["B"]:
    # names differ (0), tokens {units, a} vs {units, b} have cosine 1/2, no entry in common (0): 1/6 each.
    assert m.mean_similarity_after_negative([TRACE]) == pytest.approx(1 / 6)


def test_first_mover_advantage_and_rule_violation_rate():
    pairs = [("first", 1.0), ("first", 0.0), ("second", 0.25), ("second", float("nan"))]
    assert m.first_mover_advantage(pairs) == pytest.approx(0.25)
    assert m.rule_violation_rate([True, False, False, True]) == 0.5


def test_average_over_games_is_a_plain_mean_without_nans():
    averaged = m.average_over_games({"td": {"wr": 0.2, "csr": float("nan")}, "bc": {"wr": 0.6, "csr": 0.5}})
    assert averaged == {"csr": 0.5, "wr": pytest.approx(0.4)}


def test_ols_slope_matches_a_known_line():
    assert m.ols_slope([1, 3, 5, 7]) == pytest.approx(2.0)
    assert m.ols_slope([4]) == 0.0


def test_radar_axes_keep_rates_invert_orr_obr_and_min_max_the_slope():
    def metrics(wr, csr, slope, orr, obr):
        return {"win_rate": wr, "correction_success_rate": csr, "improvement_slope": slope,
                "over_correction_rate": orr, "over_budget_rate": obr}

    axes = m.radar_axes({"a": metrics(0.7, 0.8, 0.04, 0.25, 0.0), "b": metrics(0.3, float("nan"), -0.01, 0.8, 0.5),
                         "c": metrics(0.5, 0.5, 0.0, float("nan"), 0.1)})
    assert axes["a"] == {"WR": 0.7, "CSR": 0.8, "slope": 1.0, "1-ORR": 0.75, "1-OBR": 1.0}
    assert axes["b"] == {"WR": 0.3, "CSR": 0.0, "slope": 0.0, "1-ORR": pytest.approx(0.2), "1-OBR": 0.5}
    assert axes["c"]["slope"] == pytest.approx(0.2) and axes["c"]["1-ORR"] == 0.0
    assert m.radar_axes({"only": metrics(1, 1, 0.3, 0, 0)})["only"]["slope"] == 0.5
    assert tuple(axes["a"]) == m.RADAR_AXES
