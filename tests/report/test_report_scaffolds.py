"""The scaffolds report section on hand-made records: paired differences, revise metrics (and the models
section's cost per decision on the same records)."""

from __future__ import annotations

import json

import pytest

from stratbench.report.analysis import analyse
from stratbench.report.render import render_html, render_markdown
from stratbench.report.model_cost import NOT_REPORTED, model_cost
from stratbench.report.scaffolds import paired_difference, scaffolds


def _cost(calls, decisions, prompt=0, completion=0):
    return {"decisions": decisions, "calls": calls, "prompt_tokens": prompt, "completion_tokens": completion}


def _record(match_id, scaffold, seed, seat, mine, cost, *, game="tictactoe", revise=None):
    sides = [{"agent": "minimax", "model": None, "scaffold": None, "players": [0]},
             {"agent": "minimax", "model": None, "scaffold": None, "players": [1]}]
    sides[seat] = {"agent": f"openai/m+{scaffold}", "model": "openai/m", "scaffold": scaffold, "players": [seat]}
    scores = [0.0, 0.0]
    scores[seat], scores[1 - seat] = mine, 1.0 - mine
    decision_cost = [None, None]
    decision_cost[seat] = cost
    metrics = {str(seat): {"revise": revise}} if revise else {}
    return {"type": "match", "status": "scored", "match_id": match_id, "test_id": match_id, "game": game,
            "variant": None, "seed": seed, "sides": sides, "subject": seat, "scores": scores,
            "score_range": [0.0, 1.0], "score_sum": 1.0, "decision_cost": decision_cost, "metrics": metrics,
            "illegal": [0, 0], "fallbacks": [0, 0], "decisions": [3, 3], "turns": 6, "terminal": ""}


ROWS = [
    {"index": 1, "turn": 2, "trigger": "outcome", "negative": True, "changed": False, "improved": True},
    {"index": 2, "turn": 2, "trigger": "illegal", "negative": True, "changed": True, "improved": False},
    {"index": 3, "turn": 2, "trigger": "illegal", "negative": True, "changed": True, "improved": True},
    {"index": 4, "turn": 4, "trigger": "outcome", "negative": False, "changed": True, "improved": None},
]


def _records():
    direct = {(0, 0): 0.5, (1, 0): 0.0, (2, 1): 1.0, (3, 1): 0.5}
    revise = {(0, 0): 1.0, (1, 0): 0.5, (2, 1): 1.0, (3, 1): 0.0}  # differences +0.5, +0.5, 0, -0.5
    records = [_record(f"d{seed}", "direct", seed, seat, score, _cost(3, 3, 300, 30))
               for (seed, seat), score in direct.items()]
    records += [_record(f"r{seed}", "revise", seed, seat, score, _cost(7, 3, 900, 90),
                        revise={"rows": ROWS} if seed == 0 else None)
                for (seed, seat), score in revise.items()]
    records.append(_record("r9", "revise", 9, 0, 1.0, _cost(5, 2)))  # no direct match on seed 9: unpaired
    return records


def _table(section, title):
    return next(t for t in section["tables"] if t["title"].startswith(title))


def test_paired_difference_is_the_mean_of_pairs_with_a_bootstrap_interval():
    mean, low, high = paired_difference([0.5, 0.5, 0.0, -0.5])
    assert mean == pytest.approx(0.125)
    assert -0.5 <= low < mean < high <= 0.5
    assert paired_difference([0.25] * 6) == (0.25, 0.25, 0.25)
    assert paired_difference([0.5, 0.5, 0.0, -0.5]) == (mean, low, high)  # seeded: the same interval again
    with pytest.raises(ValueError):
        paired_difference([])


def test_side_by_side_pairs_on_seed_and_seat_and_shows_calls_per_decision():
    section = scaffolds(_records())
    rows = {row[1]: row for row in _table(section, "Side by side: tictactoe")["rows"]}
    assert list(rows) == ["direct", "revise"]
    assert rows["direct"][:6] == ["openai/m", "direct", 4, 0, 0, pytest.approx(0.5)]
    assert rows["direct"][6:9] == [None, None, None] and rows["direct"][9] == pytest.approx(1.0)
    model, scaffold, matches, errored, skipped, mean, pairs, delta, interval, calls = rows["revise"]
    assert (matches, errored, skipped, pairs) == (5, 0, 0, 4) and mean == pytest.approx(3.5 / 5)
    assert delta == pytest.approx(0.125)  # (0.5 + 0.5 + 0 - 0.5) / 4, the unpaired seed 9 left out
    low, high = (float(x) for x in interval.strip("[]").split(", "))
    assert low <= 0.125 <= high
    assert calls == pytest.approx((4 * 7 + 5) / (4 * 3 + 2))


def test_cost_per_decision_and_revise_metrics():
    cost = {row[0]: row for row in _table(model_cost(_records()), "Cost per decision")["rows"]}
    # decisions, calls, prompt, cached share, completion, reasoning, answer per decision; no usage: no cost
    assert cost["openai/m+direct"][2:] == [4, 0, 0, 12, 1.0, 100.0, NOT_REPORTED, 10.0, *[NOT_REPORTED] * 4]
    assert cost["openai/m+revise"][2:6] == [5, 0, 0, 14]
    section = scaffolds(_records())
    assert [t["title"] for t in section["tables"]] == ["Side by side: tictactoe", "Revision (revise scaffold, "
                                                       "AdvGameBench's process metrics)"]
    revision = _table(section, "Revision")["rows"]
    assert len(revision) == 1
    agent, matches, critiques, negative, changed, orr, csr, slope = revision[0]
    assert (agent, matches, critiques, negative, changed) == ("openai/m+revise", 1, 4, 3, 3)
    assert orr == pytest.approx(2 / 3) and csr == pytest.approx(0.5) and slope == pytest.approx(0.3)


def test_one_scaffold_and_no_revision_leave_the_section_out():
    only_direct = [r for r in _records() if r["match_id"].startswith("d")]
    assert scaffolds(only_direct) is None
    assert [t["title"] for t in model_cost(only_direct)["tables"]] == ["Cost per decision"]


def test_the_section_reaches_markdown_html_and_json():
    data = analyse(_records(), sections={"scaffolds": scaffolds}, resamples=50)
    section = next(s for s in data["sections"] if s["name"] == "scaffolds")
    assert json.loads(json.dumps(section))["tables"][0]["title"] == "Side by side: tictactoe"
    markdown = render_markdown(data)
    assert "#### Side by side: tictactoe" in markdown and "Δ vs direct" in markdown
    assert "Revision (revise scaffold" in render_html(data)
