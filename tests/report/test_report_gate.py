"""The regression gate on synthetic data: three answers, paired matches, normalized scores, error control."""

from __future__ import annotations

import random
import statistics

import pytest
from report_records import league
from stratbench.rating.sprt import llr_bounds
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.gate import (
    FAIL,
    INCONCLUSIVE,
    PASS,
    BaselineError,
    GateSettings,
    NothingCompared,
    check,
    decide,
    head_to_head,
    rating_drop,
    validate_report,
)

BASE = {"llm": 1.0, "minimax": 2.0, "random": -1.5}


def _run(strength, *, seed, matches=20, rename=None, versions=None):
    records = league(strength, matches=matches, seed=seed)
    if rename:
        for r in records:
            for side in r["sides"]:
                side["agent"] = rename.get(side["agent"], side["agent"])
            for old, new in rename.items():
                r["match_id"] = r["match_id"].replace(f"[{old}-", f"[{new}-")
    if versions:
        for r in records:
            r["versions"] = versions
    return analyse(records, resamples=100, manifest=manifest_for(records))


@pytest.fixture(scope="module")
def baseline():
    return _run(BASE, seed=1, matches=60)


def _row(agent, score, seed, *, game="tictactoe", opponent="opp", scale=(0.0, 1.0), cost=0.0, test="t"):
    high = scale[1]
    return {"match_id": f"{test}[{agent}-vs-{opponent}-s{seed}]", "game": game, "agents": [agent, opponent],
            "scores": [score, high + scale[0] - score], "seed": seed, "variant": None, "subject": 0,
            "score_range": list(scale), "cost_usd": cost}


def _report(rows):
    return {"agents": sorted({a for r in rows for a in r["agents"]}), "matches": rows}


# ---- finding 1: nothing compared is an error, never a pass

def test_unrelated_runs_compare_nothing(baseline):
    other = _run({"newcomer": 0.0, "other": 0.0}, seed=1)
    with pytest.raises(NothingCompared, match="no agent under test appears in both runs"):
        check(other, baseline)


def test_an_empty_baseline_compares_nothing(baseline):
    with pytest.raises(NothingCompared, match="no agent under test appears in both runs"):
        check(baseline, {"agents": [], "matches": []})


def test_shared_agents_without_shared_matches_compare_nothing():
    now = _report([_row("x", 1.0, k) for k in range(5)])
    before = _report([_row("x", 1.0, k + 100) for k in range(5)])
    with pytest.raises(NothingCompared, match="share no match"):
        check(now, before)


# ---- finding 2: a third answer, with the pairs (and cost) still needed

def test_a_few_matches_with_a_small_drop_are_inconclusive_with_an_estimate_and_its_cost():
    rng = random.Random(3)
    before = _report([_row("x", rng.choice([0.0, 1.0]), k, cost=0.02) for k in range(12)])
    now = _report([_row("x", rng.choice([0.0, 1.0]), k, cost=0.02) for k in range(12)])
    result = check(now, before)
    assert result.decision == INCONCLUSIVE and not result.failed
    (test,) = result.tests
    assert test.pairs == 12 and test.decision == INCONCLUSIVE and test.more_pairs >= 1
    assert test.more_cost == pytest.approx(0.02 * test.more_pairs)
    line = result.explain().splitlines()
    assert line[0] == "stratbench gate: INCONCLUSIVE (not yet decided)"
    assert line[1].startswith("  more  x: tictactoe: LLR ")
    assert line[1].endswith(f"; about {test.more_pairs} more unit(s) (about ${0.02 * test.more_pairs:.2f})")
    # what to run next, in one line: the units left are one match each (a baseline without --pairs)
    assert line[-1] == (f"  next  the same command with --gate-until-decided --budget {test.more_pairs} (one process, "
                        f"without -n; --resume keeps what this run played): about {test.more_pairs} more match(es) "
                        "on average")


def test_without_costs_the_estimate_names_no_price():
    before = _report([_row("x", float(k % 2), k) for k in range(6)])
    now = _report([_row("x", float((k + 1) % 2), k) for k in range(6)])
    (test,) = check(now, before).tests
    assert test.decision == INCONCLUSIVE and test.more_cost is None and "$" not in test.line()


# ---- finding 3: scores normalized by each game's range before anything is compared

def test_a_wide_game_is_normalized_by_its_score_range_not_pooled():
    # 25-point game: the new agent loses 1 point of 25 on every seed (4% of the range, under the 10% margin);
    # tictactoe: unchanged. Pooled raw scores would read as a drop of -0.5 per match.
    before = _report([_row("x", 20.0, k, game="wide", scale=(0.0, 25.0)) for k in range(40)]
                     + [_row("x", 0.5, k) for k in range(40)])
    now = _report([_row("x", 19.0, k, game="wide", scale=(0.0, 25.0)) for k in range(40)]
                  + [_row("x", 0.5, k) for k in range(40)])
    result = check(now, before)
    wide = next(t for t in result.tests if t.game == "wide")
    assert wide.model == "points" and wide.unit == "score"
    assert wide.estimate == pytest.approx(-1 / 25)
    assert wide.decision != FAIL and not result.failed
    ttt = next(t for t in result.tests if t.game == "tictactoe")
    assert ttt.model == "difference" and ttt.score_difference == 0.0 and ttt.all_equal


# ---- finding 4: error control over games and agents

def test_bonferroni_splits_the_error_rates_over_every_game_and_agent(baseline):
    result = check(_run(BASE, seed=4, matches=60), baseline)
    k = len(result.tests)
    assert k == 4  # llm and minimax (the subjects) x tictactoe, connect4
    lower, upper = llr_bounds(0.05 / k, 0.05 / k)
    assert all(t.lower == pytest.approx(lower) and t.upper == pytest.approx(upper) for t in result.tests)
    assert result.error_control().startswith(f"Bonferroni over {k} test(s): each at alpha 0.0125, beta 0.0125")
    assert f"  note  Bonferroni over {k} test(s)" in result.explain()


def test_the_gate_passes_only_when_every_test_passed():
    now = _report([_row("x", 1.0, k) for k in range(200)] + [_row("x", 1.0, k, game="connect4") for k in range(2)])
    before = _report([_row("x", 1.0, k) for k in range(200)] + [_row("x", 1.0, k, game="connect4") for k in range(2)])
    result = check(now, before)
    decisions = {t.game: t.decision for t in result.tests}
    assert decisions == {"tictactoe": PASS, "connect4": INCONCLUSIVE}
    assert result.decision == INCONCLUSIVE


# ---- finding 5: few matches raise no more false alarms than the stated rate

@pytest.mark.parametrize("matches", [2, 3, 5, 10])
def test_equal_agents_on_few_matches_fail_no_more_often_than_beta(matches):
    rng = random.Random(matches)
    gates, failed = 300, 0
    for _ in range(gates):
        before = _report([_row("x", rng.choice([0.0, 1.0]), k) for k in range(matches)])
        now = _report([_row("x", rng.choice([0.0, 1.0]), k) for k in range(matches)])
        failed += check(now, before).failed
    assert failed / gates <= 0.05 + 0.02  # the bootstrap it replaces failed 6.8% at 2 matches, 11.8% at 3


@pytest.mark.slow
def test_the_per_game_decision_keeps_its_false_alarm_rate_on_coin_flips():
    rng = random.Random(0)
    settings, gates, failed = GateSettings(), 1000, 0
    for _ in range(gates):
        # pentanomial pair scores of two equal agents: each match a coin flip for the new and the old
        units = [1 + rng.choice([0.0, 1.0]) - rng.choice([0.0, 1.0]) for _ in range(rng.choice([2, 3, 5, 8, 20, 40]))]
        result, path, _ = decide(units, True, settings)
        failed += result.decision == "H0"
    assert failed / gates <= settings.beta + 0.01


def test_the_decision_stops_at_the_first_bound_crossed():
    units = [0.0] * 30 + [2.0] * 60  # collapses first, recovers later: the sequential answer is fail
    result, path, decided_at = decide(units, True, GateSettings())
    assert result.decision == "H0" and decided_at == len(path) < 30
    assert path[-1] <= result.lower < path[-2]


# ---- finding 6: a wrong-shape baseline is one line naming the field

@pytest.mark.parametrize(("data", "message"), [
    ({"matches": "x", "agents": 5}, "base.json: 'matches' is not a list"),
    ([1, 2], "base.json: not a stratbench results.json (a JSON object), got list"),
    ({"agents": []}, "base.json: not a stratbench results.json (no 'matches')"),
    ({"matches": [], "agents": 5}, "base.json: 'agents' is not a list of agent labels"),
    ({"matches": [{"match_id": "m", "game": "g", "agents": ["a"]}]}, "base.json: matches[0]: no 'scores'"),
    ({"matches": [7]}, "base.json: matches[0]: not an object"),
    ({"matches": [{"match_id": "m", "game": "g", "agents": ["a", "b"], "scores": [1]}]},
     "base.json: matches[0]: 'scores' is not a list of finite numbers, one per agent"),
    ({"matches": [{**_row("a", 1.0, 0), "score_range": [1, 0]}]},
     "base.json: matches[0]: 'score_range' is not [low, high]"),
])
def test_a_wrong_shape_report_is_one_line_naming_the_field(data, message):
    with pytest.raises(BaselineError) as raised:
        validate_report(data, "base.json")
    assert str(raised.value) == message


def test_a_rendered_report_has_the_right_shape(baseline):
    validate_report(baseline, "results.json")


# ---- answers in both directions, the agent map, head to head

def test_a_collapse_fails_and_an_unchanged_deterministic_agent_passes():
    before = _report([_row("x", 1.0, k) for k in range(200)])
    collapsed = check(_report([_row("x", 0.0, k) for k in range(200)]), before)
    assert collapsed.decision == FAIL and collapsed.tests[0].decided_at < 30
    assert collapsed.explain().splitlines()[0] == "stratbench gate: FAILED"
    assert collapsed.explain().splitlines()[1].startswith("  FAIL  x: tictactoe: LLR -")
    same = check(_report([_row("x", 1.0, k) for k in range(200)]), before)
    # every unit equal (the same score as before): the evidence of no drop grows by about (0.2036)^2 / 2 per unit,
    # the default -50 normalized Elo as a t-value of a one-game unit, so the test passes after some 140 units
    assert same.decision == PASS and same.explain().splitlines()[0] == "stratbench gate: passed"
    (test,) = same.tests
    assert 120 <= test.decided_at <= 160 and test.all_equal and "all" in test.line() and "[" not in test.line()


def test_an_agent_map_pairs_the_renamed_models_matches(baseline):
    worse = _run({**BASE, "llm": -1.5}, seed=2, matches=60, rename={"llm": "llm-v2"})
    mapped = check(worse, baseline, GateSettings(agent_map={"llm-v2": "llm"}))
    assert {(t.agent, t.base_agent, t.game) for t in mapped.tests} == {
        ("llm-v2", "llm", "connect4"), ("llm-v2", "llm", "tictactoe")}
    assert all(t.pairs == 120 and t.incomplete == 0 for t in mapped.tests)  # 2 opponents x 60 seeds
    assert mapped.decision == FAIL and all(t.decided_at < 120 for t in mapped.tests)
    assert all(f"after {t.decided_at} of 120 unit(s)" in t.line() for t in mapped.tests)


def test_unknown_baseline_agents_in_the_map_are_notes(baseline):
    current = _run(BASE, seed=3)
    result = check(current, baseline, GateSettings(agent_map={"llm": "llm", "newcomer": "ghost"}))
    assert "this run has no agent under test 'newcomer'; not compared" in result.warnings


def test_a_litellm_version_change_only_warns(baseline):
    upgraded = _run(BASE, seed=3, versions={"litellm": "1.200.0", "pytest-stratbench": "0.1.0"})
    result = check(upgraded, baseline)
    assert "litellm 1.106.2 -> 1.200.0" in result.warnings
    assert "  note  litellm 1.106.2 -> 1.200.0" in result.explain()


def test_incomplete_pairs_are_counted_not_used():
    before = _report([_row("x", 1.0, k) for k in range(10)])
    now = _report([_row("x", 1.0, k) for k in range(7)] + [_row("x", 0.0, 50)])
    (test,) = check(now, before).tests
    assert test.pairs == 7 and test.incomplete == 1  # seed 50 has no twin; seeds 7-9 were not played here
    assert "; 1 incomplete unit(s) not used (1 without a twin in the baseline)" in test.line()


def _h2h(new_scores_first, new_scores_second):
    rows = []
    for k, (a, b) in enumerate(zip(new_scores_first, new_scores_second)):
        rows.append({"match_id": f"t[new-vs-old-s{2 * k}]", "game": "tictactoe", "agents": ["new", "old"],
                     "scores": [a, 1 - a], "seed": 2 * k, "subject": 0, "score_range": [0, 1]})
        rows.append({"match_id": f"t[new-vs-old-s{2 * k + 1}]", "game": "tictactoe", "agents": ["old", "new"],
                     "scores": [1 - b, b], "seed": 2 * k + 1, "subject": 1, "score_range": [0, 1]})
    return _report(rows)


def test_head_to_head_pairs_the_two_seatings_into_pentanomial_pairs():
    result = head_to_head(_h2h([1.0] * 20, [0.5] * 20), GateSettings(agent_map={"new": "old"}))
    (test,) = result.tests
    assert test.pairing == "head-to-head" and test.model == "pentanomial" and test.decision == PASS
    assert test.estimate > 0
    lost = head_to_head(_h2h([0.0] * 30, [0.5] * 30), GateSettings(agent_map={"new": "old"}))
    assert lost.decision == FAIL
    report = _h2h([1.0] * 3, [0.5] * 3)
    report["matches"].pop()  # seed 5 lost its partner
    (partial,) = head_to_head(report, GateSettings(agent_map={"new": "old"})).tests
    assert partial.pairs == 2 and partial.incomplete == 1


def test_head_to_head_without_a_match_between_them_compares_nothing():
    with pytest.raises(NothingCompared, match="no mapped pair of agents played each other"):
        head_to_head(_report([_row("new", 1.0, 0)]), GateSettings(agent_map={"new": "old"}))


def test_the_gate_data_for_results_json_is_plain_builtins():
    import json

    before = _report([_row("x", 1.0, k) for k in range(30)])
    data = check(_report([_row("x", 0.0, k) for k in range(30)]), before).to_dict()
    json.dumps(data)
    assert data["decision"] == FAIL and data["tests"][0]["llr_path"][0] < 0
    assert data["settings"] == {"elo0": -50.0, "elo1": 0.0, "alpha": 0.05, "beta": 0.05,
                                "elo_model": "normalized", "score_margin": 0.1}


def _ratings(agent, low, mean, high):
    return {"agents": [agent], "ratings": {"agents": [agent], "low": [low], "mean": [mean], "high": [high]},
            "matches": []}


@pytest.mark.parametrize(
    ("now", "tolerance", "noted"),
    [
        ((-1.0, -0.8, -0.6), 0.0, True),  # entirely below [0, 1]
        ((-0.5, 0.2, 0.4), 0.0, False),  # overlapping
        ((-1.0, -0.8, -0.6), 0.7, False),  # within the tolerance
    ],
)
def test_rating_drop_is_a_note_comparing_intervals_with_a_tolerance(now, tolerance, noted):
    message = rating_drop(_ratings("x", *now), _ratings("x", 0.0, 0.5, 1.0), "x", "x", tolerance)
    assert (message is not None) == noted


def test_the_report_shows_each_test_with_its_llr_path_between_the_bounds():
    from stratbench.report.render import render_html, render_markdown

    before = _report([_row("x", 1.0, k) for k in range(30)] + [_row("x", 20.0, k, game="wide", scale=(0.0, 25.0))
                                                               for k in range(3)])
    now = _report([_row("x", 0.0, k) for k in range(30)] + [_row("x", 19.0 + k % 2, k, game="wide", scale=(0.0, 25.0))
                                                            for k in range(3)])
    records = league({"a": 0.0, "b": 0.0}, games=("tictactoe",), matches=2)
    data = analyse(records, resamples=20)
    gate = check(now, before)
    data["gate"] = gate.to_dict()
    ttt = next(t for t in gate.tests if t.game == "tictactoe")
    wide = next(t for t in gate.tests if t.game == "wide")
    assert wide.seed_spread == pytest.approx(statistics.stdev([-1 / 25, 0.0, -1 / 25]))  # spread across the 3 seeds
    html = render_html(data)
    assert '<h2 id="gate">Regression gate: fail</h2>' in html and '<table id="gate-table">' in html
    assert html.count('<svg class="xy-chart"') == 2 and "fail below -3.66" in html and "pass above +3.66" in html
    assert f"<td class=\"l\">{ttt.decided_at} of 30</td>" in html
    markdown = render_markdown(data)
    assert "### Regression gate: fail" in markdown
    wide_row = next(line for line in markdown.splitlines() if line.startswith("| x | x | wide |"))
    assert "| inconclusive | 3 |" in wide_row and f"{wide.estimate:+.3g} score" in wide_row


def test_a_score_outside_its_declared_range_is_clipped_not_a_crash():
    rows = lambda scores: _report([_row("x", s, k, game="g", scale=(0.0, 10.0)) for k, s in enumerate(scores)])  # noqa: E731
    (test,) = check(rows([30.0, -5.0, 4.0]), rows([0.0, 20.0, 4.0])).tests
    assert test.estimate == pytest.approx(0.0)  # +1 (clipped from +3), -1 (clipped from -2.5), 0


@pytest.mark.parametrize("elo_model", ["logistic", "normalized"])
def test_the_llr_path_equals_the_sequential_test_on_each_prefix(elo_model):
    from stratbench.rating.sprt import sprt_pentanomial, sprt_points

    rng = random.Random(5)
    settings = GateSettings(elo_model=elo_model, elo0=-100.0)
    pairs = [rng.choice([0.0, 0.5, 1.0, 1.0, 1.5, 2.0]) for _ in range(25)]
    _, path, _ = decide(pairs, True, settings)
    for n in (1, 7, len(path)):
        counts = [sum(1 for u in pairs[:n] if u == k / 2) for k in range(5)]
        expected = sprt_pentanomial(counts, -100.0, 0.0, elo_model=elo_model).llr
        assert path[n - 1] == pytest.approx(expected, rel=1e-9, abs=1e-9)
    points = [rng.choice([0.3, 0.45, 0.5, 0.55, 0.6]) for _ in range(25)]
    _, path, _ = decide(points, False, settings)
    for n in (1, 9, len(path)):
        assert path[n - 1] == pytest.approx(sprt_points(points[:n], 0.45, 0.5).llr, rel=1e-9, abs=1e-9)


def test_a_memorisation_probe_never_pairs_with_its_original_under_an_agent_map():
    from stratbench.report.analysis import analyse
    from stratbench.report.gate import _unit_key, rows_from_records

    original = {"match_id": "t[new-vs-opp-s0]", "game": "tictactoe", "sides": [{"agent": "new"}, {"agent": "opp"}],
                "scores": [1.0, 0.0], "seed": 0, "variant": None, "subject": 0, "status": "scored",
                "game_options": {}}
    probe = {**original, "match_id": "t[new-vs-opp-s0-obf-mystery-s7]", "scores": [0.0, 1.0],
             "game_options": {"obfuscation": "mystery:7", "obfuscation_tag": "obf-mystery-s7"}}
    rows = rows_from_records([original, probe])["matches"]
    keys = {_unit_key(row, "new", {"new": "old"}) for row in rows}
    assert len(keys) == 2 and {row.get("renaming") for row in rows} == {None, "obf-mystery-s7"}
    analysed = {row["match_id"]: row for row in analyse([original, probe], resamples=10)["matches"]}
    assert analysed["t[new-vs-opp-s0-obf-mystery-s7]"]["renaming"] == "obf-mystery-s7"
    assert "renaming" not in analysed["t[new-vs-opp-s0]"]


# ---- issue 46: units that are exchangeable, the map names the candidate only, faults are charged

def _seated(agent, opponent, score, seed, seat, *, test="t", game="tictactoe"):
    """A row of ``agent`` (the subject) in ``seat``, scoring ``score``."""
    agents = [agent, opponent] if seat == 0 else [opponent, agent]
    scores = [score, 1 - score] if seat == 0 else [1 - score, score]
    tag = "" if seat == 0 else "-second"
    return {"match_id": f"{test}[{agent}-vs-{opponent}{tag}-s{seed}]", "game": game, "agents": agents,
            "scores": scores, "seed": seed, "variant": None, "subject": seat, "score_range": [0.0, 1.0]}


def test_a_collapse_fails_although_the_baseline_draws_sit_in_one_seating():
    # The finding's baseline: 60 random-vs-minimax matches seated "half" (seeds 0-29 random second, 30-59 first),
    # draws at seeds 16 and 30-57; then every game lost. In seed order the first 27 units look unchanged.
    draws = {16, *range(30, 58)}
    seat = {k: 1 if k < 30 else 0 for k in range(60)}
    before = _report([_seated("random", "minimax", 0.5 if k in draws else 0.0, k, seat[k]) for k in range(60)])
    now = _report([_seated("random", "minimax", 0.0, k, seat[k]) for k in range(60)])
    result = check(now, before)
    (test,) = result.tests
    assert result.decision == FAIL and test.pairs == 60 and test.model == "difference" and test.games == 1
    assert -0.5 < test.score_difference < -0.1  # over the units up to the decision: about 29 of 60 lost a draw
    assert "; score difference per game -0." in test.line() and "normalized Elo" in test.line()


def test_units_hold_both_seatings_and_pair_whatever_each_run_s_matches():
    # both runs with --pairs: the candidate played 4 seeds, the baseline 40; every seed of the candidate pairs
    before = _report([_seated("x", "opp", 0.5, k, seat) for k in range(40) for seat in (0, 1)])
    now = _report([_seated("x", "opp", 0.5, k, seat) for k in range(4) for seat in (0, 1)])
    (test,) = check(now, before).tests
    assert (test.pairs, test.incomplete, test.games) == (4, 0, 2)
    # a unit of both seatings: the difference is the mean over its two games
    now = _report([_seated("x", "opp", 0.0 if seat else 0.5, k, seat) for k in range(4) for seat in (0, 1)])
    (test,) = check(now, before).tests
    assert test.score_difference == pytest.approx(-0.25)
    # a baseline without --pairs ("half" with --matches 40: seeds 0-19 second) against a 4-match run (0-1 second,
    # 2-3 first): the seeds it played in the other seating are named, never compared across seatings
    legacy = _report([_seated("x", "opp", 0.5, k, 1 if k < 20 else 0) for k in range(40)])
    small = _report([_seated("x", "opp", 0.5, k, 1 if k < 2 else 0) for k in range(4)])
    (test,) = check(small, legacy).tests
    assert (test.pairs, test.incomplete, test.games) == (2, 2, 1)
    assert "2 in a seating the baseline did not play: record the baseline with --pairs" in test.line()


def test_the_units_come_in_an_order_unrelated_to_seeds_and_seatings():
    before = _report([_seated("x", "opp", 0.5, k, 1 if k < 30 else 0) for k in range(60)])
    now = _report([_seated("x", "opp", 0.0 if k < 30 else 0.5, k, 1 if k < 30 else 0) for k in range(60)])
    (test,) = check(now, before).tests
    path = test.llr_path
    # the first ten units are not all from one seating: the path falls from its first units on
    assert test.decision == FAIL and max(path[:10]) < 0


def test_the_map_renames_the_candidate_never_its_opponent():
    # candidate minimax (against the minimax opponent) for baseline random (against the same opponent)
    before = _report([_seated("random", "minimax", 0.0 if k % 3 else 0.5, k, k % 2) for k in range(200)])
    now = _report([_seated("minimax", "minimax", 0.5, k, k % 2) for k in range(200)])
    result = check(now, before, GateSettings(agent_map={"minimax": "random"}))
    (test,) = result.tests
    assert test.pairs == 200 and test.incomplete == 0  # every match pairs
    assert 0.25 < test.score_difference < 0.5  # a draw every game, where random drew one in three
    assert result.decision == PASS


def test_a_subject_that_shares_its_label_with_its_opponent_is_scored_by_its_own_seat():
    before = _report([_seated("minimax", "minimax", 0.5, k, 0) for k in range(4)])
    now = _report([_seated("minimax", "minimax", 0.0, k, 0) for k in range(4)])
    (test,) = check(now, before).tests
    assert test.score_difference == -0.5  # not the 0.5 an average of both seats gives


def _errored(agent, opponent, seed, seat, fault):
    row = _seated(agent, opponent, 0.0, seed, seat)
    return {**{k: row[k] for k in ("match_id", "game", "agents", "seed", "variant", "subject")},
            "scores": [], "status": "errored", "fault": fault, "reason": "x"}


def test_a_match_errored_by_the_model_or_its_provider_is_its_loss_and_a_harness_fault_voids_the_unit():
    before = _report([_seated("x", "opp", 0.5, k, 0) for k in range(40)])
    now = _report([_seated("x", "opp", 0.5, k, 0) for k in range(30)])
    now["unscored"] = ([_errored("x", "opp", k, 0, "provider") for k in range(30, 36)]
                       + [_errored("x", "opp", k, 0, "model") for k in range(36, 38)]
                       + [_errored("x", "opp", k, 0, "harness") for k in range(38, 40)])
    (test,) = check(now, before).tests
    assert test.pairs == 38 and test.charged == 8 and len(test.voided) == 2 and test.incomplete == 0
    assert test.score_difference == pytest.approx(-0.5 * 8 / 38)
    assert "8 errored match(es) counted as losses" in test.line() and "2 errored match(es) voided their unit(s) (harness faults)" in test.line()
    # the old model's crashes count against it just the same
    before["unscored"] = [_errored("x", "opp", k, 0, "provider") for k in range(40, 44)]
    now["matches"] += [_seated("x", "opp", 0.5, k, 0) for k in range(40, 44)]
    (test,) = check(now, before).tests
    assert test.pairs == 42 and test.score_difference == pytest.approx((-0.5 * 8 + 0.5 * 4) / 42)


def test_a_baseline_test_near_zero_does_not_drift_to_pass_when_the_few_wins_are_lost():
    # the finding's counts: 3 of 40 units lose a win the old model had, 37 equal (old scored about 0.04)
    before = _report([_seated("x", "solver", 0.5 if k < 3 else 0.0, k, k % 2) for k in range(40)])
    now = _report([_seated("x", "solver", 0.0, k, k % 2) for k in range(40)])
    (test,) = check(now, before).tests
    assert test.llr < 0  # the same counts read in logistic Elo on the difference gave +2.87 (toward pass)


def test_the_rating_note_compares_the_same_matches_only():
    # an identical model that played seeds 0-20 against a baseline of seeds 0-39: no rating note, a plain "not compared"
    before = {**_report([_seated("x", "opp", 0.5, k, k % 2) for k in range(40)]),
              "ratings": {"agents": ["x"], "low": [-2.6], "mean": [-2.42], "high": [-2.2]}}
    now = {**_report([_seated("x", "opp", 0.5, k, k % 2) for k in range(21)]),
           "ratings": {"agents": ["x"], "low": [-3.6], "mean": [-3.45], "high": [-3.3]}}
    result = check(now, before)
    assert not any("lies below the baseline" in note for note in result.warnings)
    assert "x: ratings not compared: the two runs played other matches (21 shared, 0 only here, 19 only in the " \
           "baseline)" in result.warnings
    same = check({**now, "matches": before["matches"]}, before)
    assert any("lies below the baseline" in note for note in same.warnings)  # the same matches: compared


# ---- issue 46, finding 5: a repeat is not new evidence

def _played(row, digest, opening=None):
    return {**row, "game_digest": digest, **({"openings": "book", "opening": opening} if opening else {})}


def test_twenty_identical_pairs_are_one_unit_and_nineteen_repeats_never_a_pass():
    # a deterministic agent from the empty board: every seed the same game in each seating, in both runs
    before = _report([_played(_seated("x", "opp", 0.5, k, seat), f"same-{seat}") for k in range(20) for seat in (0, 1)])
    now = _report([_played(_seated("x", "opp", 0.5, k, seat), f"same-{seat}") for k in range(20) for seat in (0, 1)])
    result = check(now, before)
    (test,) = result.tests
    assert result.decision == INCONCLUSIVE and (test.pairs, test.repeats) == (1, 19)
    assert "19 repeat unit(s) not counted (the same games as an earlier unit" in test.line()
    assert "[-1.7, +1.7]" not in test.line()
    # head to head alike: twenty identical pairs are one
    rows = [_played(_seated("new", "old", 0.5, k, seat), f"h2h-{seat}") for k in range(20) for seat in (0, 1)]
    (h2h,) = head_to_head(_report(rows), GateSettings(agent_map={"new": "old"})).tests
    assert (h2h.pairs, h2h.repeats) == (1, 19)


def test_units_from_different_book_positions_all_count_and_never_pair_with_the_empty_board():
    # each seed from its own book position: the same result everywhere, yet twenty units of evidence
    book = [_played(_seated("x", "opp", 0.5, k, seat), f"g{k}-{seat}", f"pos {k}") for k in range(20) for seat in (0, 1)]
    (test,) = check(_report(book), _report(book)).tests
    assert (test.pairs, test.repeats, test.incomplete) == (20, 0, 0)
    # a run from the book against a baseline from the empty board: no seed is the same position
    empty = _report([_played(_seated("x", "opp", 0.5, k, seat), f"e{k}-{seat}") for k in range(20) for seat in (0, 1)])
    with pytest.raises(NothingCompared):
        check(_report(book), empty)
    # a record written before the digest existed is never taken for a repeat
    old = _report([_seated("x", "opp", 0.5, k, seat) for k in range(20) for seat in (0, 1)])
    (test,) = check(old, old).tests
    assert (test.pairs, test.repeats) == (20, 0)


def test_head_to_head_pairs_a_seed_with_itself_never_with_the_next_seed():
    # seed 0 only in NEW's first seat, seeds 1-4 in both: four pairs of one seed each, one match without a partner
    rows = [_seated("new", "old", 1.0 if seat == 0 else 0.0, k, seat) for k in range(1, 5) for seat in (0, 1)]
    rows.append(_seated("new", "old", 0.0, 0, 0))
    data = _report(rows)
    for row in data["matches"]:  # NEW wins every game as X and loses every game as O: each seed is an even pair
        row["subject"] = row["agents"].index("new")
    (test,) = head_to_head(data, GateSettings(agent_map={"new": "old"})).tests
    assert (test.pairs, test.incomplete) == (4, 1) and test.all_equal  # zipped, seed 0 would pair with seed 1


def test_the_report_says_what_to_run_next_and_why_units_were_left_out():
    from stratbench.report.render import render_html, render_markdown

    before = _report([_played(_seated("x", "opp", 0.5, k, seat), f"same-{seat}") for k in range(6) for seat in (0, 1)]
                     + [_seated("x", "opp", 0.5, k, 0) for k in range(6, 8)])
    now = _report([_played(_seated("x", "opp", 0.5, k, seat), f"same-{seat}") for k in range(6) for seat in (0, 1)]
                  + [_seated("x", "opp", 0.5, k, 1) for k in range(6, 8)])
    gate = check(now, before)
    (test,) = gate.tests
    data = {**analyse(league({"a": 0.0, "b": 0.0}, games=("tictactoe",), matches=2), resamples=20),
            "gate": gate.to_dict()}
    assert gate.decision == INCONCLUSIVE and data["gate"]["next"].startswith(
        "the same command with --gate-until-decided --budget ")
    note = (f"x on tictactoe: {test.incomplete} incomplete unit(s) not used ({'; '.join(test.why_incomplete)}); "
            "5 repeat unit(s) not counted (the same games as an earlier unit)")
    html, markdown = render_html(data), render_markdown(data)
    assert f'<div class="note">{note}</div>' in html and f'<p id="gate-next"><b>Next:</b> {data["gate"]["next"]}' in html
    assert f"> {note}" in markdown and f"**Next:** {data['gate']['next']}" in markdown
