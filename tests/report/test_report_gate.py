"""The regression gate on synthetic data, in both directions, with its messages."""

from __future__ import annotations

import pytest
from report_records import league
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.gate import GateSettings, check, paired_score_drop, rating_drop

BASE = {"llm": 1.0, "minimax": 2.0, "random": -1.5}


def _run(strength, *, seed, rename=None, versions=None):
    records = league(strength, matches=20, seed=seed)
    if rename:
        for r in records:
            for side in r["sides"]:
                side["agent"] = rename.get(side["agent"], side["agent"])
            for old, new in rename.items():
                r["match_id"] = r["match_id"].replace(f"[{old}-", f"[{new}-")
    if versions:
        for r in records:
            r["versions"] = versions
    return analyse(records, resamples=300, manifest=manifest_for(records))


@pytest.fixture(scope="module")
def baseline():
    return _run(BASE, seed=1)


@pytest.fixture(scope="module")
def worse():
    return _run({**BASE, "llm": -1.5}, seed=2)


def test_a_clearly_worse_agent_fails_both_checks_with_the_reason(baseline, worse):
    result = check(worse, baseline)
    assert result.failed
    rating, paired = result.failures
    assert rating.startswith("llm: rating ") and "lies below the baseline llm " in rating
    assert paired.startswith("llm: mean score change -") and paired.endswith(": a significant drop")
    explanation = result.explain()
    assert explanation.splitlines()[0] == "stratbench gate: FAILED"
    assert "  FAIL  llm: rating" in explanation
    assert len(explanation.splitlines()) <= 24  # one screen


def _mean(report, agent, game):
    scores = [m["scores"][m["agents"].index(agent)] for m in report["matches"]
              if m["game"] == game and agent in m["agents"]]
    return sum(scores) / len(scores), len(scores)


def test_a_failing_agent_is_explained_game_by_game_with_its_numbers(baseline, worse):
    lines = check(worse, baseline).explain().splitlines()
    games = [line for line in lines if line.startswith("          ")]
    expected = []
    for game in ("connect4", "tictactoe"):
        (now, n), (before, m) = _mean(worse, "llm", game), _mean(baseline, "llm", game)
        assert n == m == 40 and now < before
        expected.append(f"          {game}: mean score {now:.2f} vs baseline {before:.2f} over 40 matches")
    assert games == expected
    assert lines.index(games[0]) == max(i for i, line in enumerate(lines) if line.startswith("  FAIL  llm: ")) + 1


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_noise_passes(baseline, seed):
    again = _run(BASE, seed=seed)  # same strengths, other random outcomes
    result = check(again, baseline)
    assert not result.failed, result.explain()
    assert result.explain().splitlines()[0] == "stratbench gate: passed"
    assert any(line.startswith("llm: mean score change") for line in result.passes)


def test_an_agent_map_compares_a_renamed_model(baseline):
    renamed = _run({**BASE, "llm": -1.5}, seed=2, rename={"llm": "llm-v2"})
    assert "llm-v2" in renamed["agents"] and "llm" not in renamed["agents"]
    unmapped = check(renamed, baseline)
    assert not any(f.startswith("llm-v2") for f in unmapped.failures)
    assert "baseline agents not in this run: llm" in unmapped.warnings
    mapped = check(renamed, baseline, GateSettings(agent_map={"llm-v2": "llm"}))
    assert mapped.failed
    assert any(f.startswith("llm-v2: rating ") and "baseline llm " in f for f in mapped.failures)
    paired = next(f for f in mapped.failures if "mean score change" in f)
    assert "over 80 shared matches" in paired  # 2 opponents x 2 games x 20 matches
    assert paired == next(f for f in check(_run({**BASE, "llm": -1.5}, seed=2), baseline).failures
                          if "mean score change" in f).replace("llm:", "llm-v2:", 1)
    # The other agents' matches against the renamed model pair up too (40 against it, 40 against random).
    assert any(p.startswith("minimax: mean score change") and "over 80 shared" in p for p in mapped.passes)


def test_unknown_baseline_agents_give_notes_not_errors(baseline):
    current = _run({"newcomer": 0.0, "other": 0.0}, seed=1)
    result = check(current, baseline, GateSettings(agent_map={"newcomer": "ghost"}))
    assert not result.failed
    assert "baseline has no agent 'ghost'; not compared" in result.warnings
    assert "baseline agents not in this run: llm, minimax, random" in result.warnings
    assert any("nothing to compare" in w for w in result.warnings)


def test_a_litellm_version_change_only_warns(baseline):
    upgraded = _run(BASE, seed=3, versions={"litellm": "1.200.0", "pytest-stratbench": "0.1.0"})
    result = check(upgraded, baseline)
    assert not result.failed
    assert "litellm 1.106.2 -> 1.200.0" in result.warnings
    assert "  note  litellm 1.106.2 -> 1.200.0" in result.explain()


def test_a_model_change_only_warns():
    current = {"agents": [], "matches": [], "manifest": {"models": ["openai/b"]}}
    baseline = {"agents": [], "matches": [], "manifest": {"models": ["openai/a"]}}
    result = check(current, baseline)
    assert not result.failed and "models openai/a -> openai/b" in result.warnings


def _ratings(agent, low, mean, high):
    return {"agents": [agent], "ratings": {"agents": [agent], "low": [low], "mean": [mean], "high": [high]},
            "matches": []}


@pytest.mark.parametrize(
    ("now", "tolerance", "fails"),
    [
        ((-1.0, -0.8, -0.6), 0.0, True),  # entirely below [0, 1]
        ((-0.5, 0.2, 0.4), 0.0, False),  # overlapping
        ((-1.0, -0.8, -0.6), 0.5, True),  # 0.6 below, more than the tolerance
        ((-1.0, -0.8, -0.6), 0.7, False),  # within the tolerance
        ((2.0, 2.5, 3.0), 0.0, False),  # better
    ],
)
def test_rating_drop_compares_intervals_with_a_tolerance(now, tolerance, fails):
    message = rating_drop(_ratings("x", *now), _ratings("x", 0.0, 0.5, 1.0), "x", "x", tolerance)
    assert (message is not None) == fails
    if fails:
        assert message == (f"x: rating {now[1]:+.2f} [{now[0]:+.2f}, {now[2]:+.2f}] lies below the baseline x "
                           f"+0.50 [+0.00, +1.00] by more than {tolerance:.2f}")


def _matches(agent, scores):
    return {"agents": [agent, "opp"], "matches": [
        {"match_id": f"t[{agent}-vs-opp-s{k}]", "agents": [agent, "opp"], "scores": [s, 1 - s], "seed": k,
         "game": "g", "variant": None, "subject": 0}
        for k, s in enumerate(scores)
    ]}


def test_paired_drop_fails_on_a_consistent_drop_and_passes_on_noise():
    base = _matches("x", [1.0] * 10 + [0.0] * 10)
    down = _matches("x", [0.0] * 4 + [1.0] * 6 + [0.0] * 10)  # 4 wins lost, nothing gained
    failure, text = paired_score_drop(down, base, "x", "x", GateSettings())
    assert failure == f"{text}: a significant drop"
    assert text.startswith("x: mean score change -0.200 over 20 shared matches (95% upper bound -")
    flip = _matches("x", [0.0, 1.0] * 5 + [1.0, 0.0] * 5)  # same mean, shuffled outcomes
    failure, _ = paired_score_drop(flip, base, "x", "x", GateSettings())
    assert failure is None
    failure, _ = paired_score_drop(down, base, "x", "x", GateSettings(min_drop=0.5))
    assert failure is None  # a drop smaller than min_drop does not count


def test_paired_drop_needs_shared_matches():
    base = _matches("x", [1.0] * 5)
    other = {"agents": ["x"], "matches": [{**m, "match_id": m["match_id"] + "-other"}
                                         for m in _matches("x", [0.0] * 5)["matches"]]}
    failure, text = paired_score_drop(other, base, "x", "x", GateSettings())
    assert failure is None and text == "x: 0 shared match(es) with the baseline; no paired test"
