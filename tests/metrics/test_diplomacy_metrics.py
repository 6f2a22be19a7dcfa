"""Diplomacy metrics: order classification and success, supply centers, basic skill, aggregates."""

from __future__ import annotations

import json

import pytest

from stratbench.games.spin.metrics.diplomacy import (
    basic_skill,
    classify,
    order_outcomes,
    order_success,
    rate,
    summary_rows,
    supply_centers_over_time,
)

ENTRY = {
    "phase": "F1901M",
    "type": "M",
    "units": {"FRANCE": ["A BUR", "A MAR", "F MAO"], "GERMANY": ["A MUN", "A RUH"], "ITALY": ["A PIE"]},
    "orders": {
        "FRANCE": ["A BUR - MUN", "A MAR S A BUR - MUN", "F MAO - SPA/NC"],
        "GERMANY": ["A MUN H", "A RUH S A MUN"],
        "ITALY": ["A PIE S A RUH - BUR"],
    },
    "results": {"A BUR": ["bounce"], "A MAR": [], "F MAO": [], "A MUN": [], "A RUH": [], "A PIE": ["void"]},
}


def test_classify_orders():
    assert [classify(o) for o in ("A PAR - BUR", "A PAR - BUR VIA", "F BRE S A PAR", "F ENG C A LON - BRE",
                                  "A PAR H", "A PAR R GAS", "A PAR D", "F BRE B", "WAIVE")] == [
        "move", "move", "support", "convoy", "hold", "retreat", "disband", "build", "waive"]


def test_order_outcomes_follow_spin_bench_definitions():
    france = order_outcomes(ENTRY, "FRANCE")
    assert france["move"] == [1, 2]  # the attack on MUN bounced, the move to SPA succeeded
    assert france["attack"] == [0, 1]  # only MUN held a foreign unit
    assert france["support_self"] == [1, 1] and france["support_others"] == [0, 0]
    germany = order_outcomes(ENTRY, "GERMANY")
    assert germany["hold"] == [1, 1] and germany["support_self"] == [1, 1]
    italy = order_outcomes(ENTRY, "ITALY")
    assert italy["support_others"] == [0, 1]  # supporting a German unit; the support was void


def test_rate_is_none_without_orders():
    assert rate(0, 0) is None and rate(3, 4) == 0.75


def _record(agent_sides, metrics, game="diplomacy", match_id="m"):
    sides = [{"agent": a, "players": [i]} for i, a in enumerate(agent_sides)]
    return {"game": game, "match_id": match_id, "sides": sides, "metrics": {str(p): v for p, v in metrics.items()}}


def _power(sc, moves=(0, 0), won=False, years=None, sc_by_phase=None, cr=0):
    orders = {k: {"success": 0, "total": 0, "rate": None} for k in ("attack", "support_self", "support_others")}
    orders["move"] = {"success": moves[0], "total": moves[1], "rate": rate(*moves)}
    return {"supply_centers": sc, "controlled_regions": cr, "orders": orders, "won": won, "years_to_win": years,
            "sc_by_phase": sc_by_phase or {}}


def test_aggregates_sum_the_powers_an_agent_controls():
    one = _record(["llm", "llm", "hold"], {
        0: _power(5, (2, 3), sc_by_phase={"F1901M": 4, "S1901M": 3, "W1901A": 5}, cr=8),
        1: _power(4, (1, 1), sc_by_phase={"F1901M": 4, "S1901M": 3, "W1901A": 4}, cr=6),
        2: _power(3, sc_by_phase={"F1901M": 3, "S1901M": 3, "W1901A": 3}, cr=3)})
    two = _record(["llm", "hold", "hold"], {
        0: _power(18, (5, 5), won=True, years=6, sc_by_phase={"F1901M": 4, "S1901M": 3, "W1901A": 4}, cr=20),
        1: _power(3), 2: _power(3)}, game="diplomacy-nopress", match_id="n")
    records = [one, two, {"game": "hanabi", "sides": [{"agent": "llm", "players": [0]}], "metrics": {}}]
    success = order_success(records, "llm")
    assert success["move"] == {"success": 8, "total": 9, "rate": 8 / 9}
    assert success["attack"] == {"success": 0, "total": 0, "rate": None}
    assert supply_centers_over_time(records, "llm") == {"S1901M": 4.5, "F1901M": 6.0, "W1901A": 6.5}
    assert list(supply_centers_over_time(records, "llm")) == ["S1901M", "F1901M", "W1901A"]
    skill = basic_skill(records, "llm")
    summary = (skill["matches"], skill["wins"], skill["mean_years_to_win"], skill["mean_supply_centers"])
    assert summary == (2, 1, 6, 13.5)
    rows = {row["agent"]: row for row in summary_rows(records)}
    assert rows["llm"]["mean_supply_centers"] == 13.5 and rows["llm"]["mean_controlled_regions"] == 17
    assert rows["hold"]["matches"] == 2


def test_diplomacy_metrics_replay_a_played_match():
    pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")
    from stratbench.core.runner import MatchOutcome
    from stratbench.games.spin.diplomacy import POWERS, Diplomacy
    from stratbench.games.spin.metrics.diplomacy import diplomacy_metrics

    def joint(given):
        return {p: "orders: " + json.dumps({"orders": {POWERS[p]: given.get(POWERS[p], [])}}) for p in range(7)}

    history = [
        joint({"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]}),
        joint({"FRANCE": ["F MAO - POR", "A SPA H", "A PAR - BUR"]}),
        {2: "orders: " + json.dumps({"orders": ["A MAR B", "F BRE B", "banana"]})},
    ]
    outcome = MatchOutcome([], "", 3, {}, {}, {}, None, history, 0.0)
    metrics = diplomacy_metrics(Diplomacy("to1901"), outcome, 0)
    france = metrics[2]
    assert france["supply_centers"] == 5 and france["sc_by_phase"] == {"S1901M": 3, "F1901M": 5, "W1901A": 5}
    assert france["orders"]["move"] == {"success": 4, "total": 5, "rate": 0.8}  # PAR - BUR bounced in spring
    assert france["hold_orders"] == 1 and france["orders_dropped"] == 1
    assert france["won"] is False and france["years_to_win"] is None
    assert metrics[3]["orders"]["move"] == {"success": 0, "total": 1, "rate": 0.0}
    assert metrics[3]["orders"]["attack"]["total"] == 0  # BUR was empty at the start of the phase
