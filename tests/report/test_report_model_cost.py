"""The models report section on hand-made records: cost per decision with the token split, truncated answers,
answer formats and reasoning efforts side by side; old records without the new counts still render."""

from __future__ import annotations

import json

import pytest

from report_records import unscored
from stratbench.report.analysis import analyse
from stratbench.report.model_cost import NOT_REPORTED, model_cost
from stratbench.report.render import render_html, render_markdown
from stratbench.report.scaffolds import scaffolds


def _usage(calls, prompt, completion, cost, **reported):
    return {"calls": calls, "prompt_tokens": prompt, "completion_tokens": completion, "cost_usd": cost, **reported}


def _match(match_id, agent, usage, decisions, *, seat=0, score=1.0, seed=0, game="tictactoe", illegal=0,
           truncated=None, retries=None, opponent="minimax"):
    """One match of ``agent`` (a model side) against ``opponent``; truncation counts only when given."""
    model = agent.split("+")[0]
    scaffold = agent.split("+")[1].split("(")[0]
    sides = [{"agent": opponent, "kind": opponent, "model": None, "scaffold": None, "params": {}, "players": [0]},
             {"agent": opponent, "kind": opponent, "model": None, "scaffold": None, "params": {}, "players": [1]}]
    sides[seat] = {"agent": agent, "kind": "llm", "model": model, "scaffold": scaffold, "params": {},
                   "players": [seat]}
    if retries is not None:
        sides[seat]["truncation_retries"] = retries
    scores = [0.0, 0.0]
    scores[seat], scores[1 - seat] = score, 1.0 - score
    zero = _usage(0, 0, 0, 0.0)
    usages = [zero, zero]
    usages[seat] = usage
    costs = [None, None]
    costs[seat] = {"decisions": decisions, "calls": usage["calls"], "prompt_tokens": usage["prompt_tokens"],
                   "completion_tokens": usage["completion_tokens"]}
    record = {"type": "match", "status": "scored", "match_id": match_id, "test_id": match_id, "game": game,
              "variant": None, "seed": seed, "sides": sides, "subject": seat, "scores": scores,
              "score_range": [0.0, 1.0], "score_sum": 1.0, "usage": usages, "decision_cost": costs,
              "illegal": [illegal if k == seat else 0 for k in range(2)], "fallbacks": [0, 0],
              "decisions": [decisions if k == seat else 3 for k in range(2)], "metrics": {}, "turns": 6,
              "terminal": "", "cost_usd": usage["cost_usd"]}
    if truncated is not None:
        record["truncated"] = [truncated if k == seat else 0 for k in range(2)]
    return record


NEW = "openai/m+direct"
OLD = "openai/old+direct"
PARTIAL = "openai/p+direct"


def _records():
    return [
        _match("n1", NEW, _usage(5, 1000, 300, 0.01, reasoning_tokens=200, cached_tokens=400), 4,
               illegal=3, truncated=1, retries=2),
        _match("n2", NEW, _usage(6, 1400, 500, 0.02, reasoning_tokens=300, cached_tokens=600), 6, seat=1,
               truncated=0, retries=1),
        _match("o1", OLD, _usage(3, 300, 30, 0.001), 3),
        _match("p1", PARTIAL, _usage(5, 500, 150, 0.005, reasoning_tokens=100), 5),
        _match("p2", PARTIAL, _usage(5, 500, 100, 0.005), 5),
    ]


def _table(section, title):
    return next(t for t in section["tables"] if t["title"].startswith(title))


def _rows(table):
    return {(row[0], row[1]): dict(zip(table["columns"], row)) for row in table["rows"]}


def test_cost_per_decision_splits_completion_into_reasoning_and_answer_and_shows_the_cached_share():
    errored = unscored("e1", (NEW, "minimax"), "errored", game="tictactoe", models=("openai/m", None))
    section = model_cost(_records(), unscored=[errored])
    rows = _rows(_table(section, "Cost per decision"))
    new = rows[(NEW, "tictactoe")]
    assert (new["matches"], new["errored"], new["skipped"], new["decisions"]) == (2, 1, 0, 10)
    assert new["calls / decision"] == pytest.approx(11 / 10)
    assert new["prompt tokens / decision"] == pytest.approx(2400 / 10)
    assert new["cached share of prompt"] == "42%"  # 1000 of 2400
    assert new["completion tokens / decision"] == pytest.approx(80.0)
    assert new["reasoning tokens / decision"] == pytest.approx(50.0)  # (200 + 300) / 10
    assert new["answer tokens / decision"] == pytest.approx(30.0)  # (800 - 500) / 10
    assert new["reasoning tokens / decision"] + new["answer tokens / decision"] == new["completion tokens / decision"]
    assert (new["cost / decision (USD)"], new["cost in all (USD)"]) == ("0.003", "0.03")


def test_counts_no_record_reported_show_a_dash_and_partly_reported_ones_say_over_how_many():
    section = model_cost(_records())
    rows = _rows(_table(section, "Cost per decision"))
    old = rows[(OLD, "tictactoe")]
    assert old["completion tokens / decision"] == pytest.approx(10.0)
    assert (old["cached share of prompt"], old["reasoning tokens / decision"], old["answer tokens / decision"]) == (
        NOT_REPORTED, NOT_REPORTED, NOT_REPORTED)
    assert old["cost / decision (USD)"] == "0.0003333"  # 0.001 over 3 decisions, to four significant digits
    partial = rows[(PARTIAL, "tictactoe")]
    assert partial["reasoning tokens / decision"] == "20.00 (1 of 2 matches)"  # 100 over p1's 5 decisions
    assert partial["answer tokens / decision"] == "10.00 (1 of 2 matches)"  # (150 - 100) / 5
    assert partial["cached share of prompt"] == NOT_REPORTED
    assert NOT_REPORTED + " = no match of the row reported" in _table(section, "Cost per decision")["note"]
    without_usage = {**_match("q2", "openai/q+direct", _usage(2, 20, 2, 0.5), 6), "usage": None}
    mixed = [_match("q1", "openai/q+direct", _usage(4, 40, 4, 0.004), 4), without_usage]
    row = _rows(_table(model_cost(mixed), "Cost per decision"))[("openai/q+direct", "tictactoe")]
    assert (row["matches"], row["decisions"], row["calls / decision"]) == (2, 10, pytest.approx(0.6))
    assert row["cost / decision (USD)"] == "0.001 (1 of 2 matches)"  # 0.004 over q1's 4 decisions
    assert row["cost in all (USD)"] == "0.004 (1 of 2 matches)"


def test_truncations_per_model_and_game_are_counted_apart_from_illegal_attempts():
    section = model_cost(_records())
    table = _table(section, "Truncated answers")
    rows = _rows(table)
    assert list(rows) == [(NEW, "tictactoe")]  # the old and partial agents' records carry no truncation counts
    new = rows[(NEW, "tictactoe")]
    assert (new["matches"], new["decisions"]) == (2, 10)
    assert new["re-asks after a cut reply"] == 3  # 2 + 1
    assert new["decisions fell back truncated"] == 1
    assert new["truncated"] == "1 of 10 decisions"
    assert new["illegal attempts"] == 3
    assert "never as an illegal attempt" in table["note"]


def test_old_records_render_without_the_truncation_table():
    old = [r for r in _records() if r["match_id"][0] in "op"]
    section = model_cost(old)
    assert [t["title"] for t in section["tables"]] == ["Cost per decision"]
    assert model_cost([{**r, "sides": [dict(s, model=None) for s in r["sides"]]} for r in old]) is None


def _formats():
    records = []
    for seed, (text, tools) in enumerate([(1.0, 1.0), (0.0, 1.0), (0.5, 1.0)]):
        records.append(_match(f"t{seed}", "openai/m+cot", _usage(4, 400, 40, 0.004), 2, seed=seed, score=text,
                              illegal=2, truncated=0, retries=0))
        records.append(_match(f"u{seed}", "openai/m+cot(answers=tools)", _usage(2, 600, 20, 0.006), 2, seed=seed,
                              score=tools, truncated=1 if seed == 0 else 0, retries=1 if seed == 0 else 0))
    records.append(_match("u9", "openai/m+cot(answers=tools)", _usage(2, 600, 20, 0.006), 2, seed=9, score=0.0,
                          truncated=0, retries=0))  # no text match on seed 9: unpaired
    return records


def test_answer_formats_side_by_side_pair_on_seed_and_seat():
    section = model_cost(_formats())
    table = _table(section, "Answer formats side by side: tictactoe")
    assert table["columns"][7] == "Δ vs text"
    rows = _rows(table)
    text, tools = rows[("openai/m+cot", "text")], rows[("openai/m+cot", "tools")]
    assert (text["matches"], text["mean score"], text["pairs"]) == (3, pytest.approx(0.5), None)
    assert text["illegal attempts / decision"] == pytest.approx(6 / 6)
    assert text["truncated"] == "0 of 6 decisions"
    assert text["calls / decision"] == pytest.approx(2.0) and text["tokens / decision"] == pytest.approx(220.0)
    assert (tools["matches"], tools["mean score"], tools["pairs"]) == (4, pytest.approx(3 / 4), 3)
    assert tools["Δ vs text"] == pytest.approx(0.5)  # (0 + 1 + 0.5) / 3, seed 9 left out
    low, high = (float(x) for x in tools["95% interval"].strip("[]").split(", "))
    assert 0.0 <= low <= 0.5 <= high <= 1.0
    assert tools["illegal attempts / decision"] == 0.0 and tools["truncated"] == "1 of 8 decisions"
    assert tools["calls / decision"] == pytest.approx(1.0) and tools["tokens / decision"] == pytest.approx(310.0)
    assert table["note"].startswith("Agents whose labels differ only in answers=")


def test_reasoning_efforts_side_by_side_with_reasoning_tokens_and_cost():
    records = [
        _match(f"{effort}{seed}", f"openai/r+direct(effort={effort})",
               _usage(1, 100, 10 + reasoning, cost, reasoning_tokens=reasoning), 2, seed=seed, score=score)
        for effort, reasoning, cost, scores in (("high", 400, 0.05, (1.0, 1.0)), ("low", 40, 0.01, (0.0, 1.0)))
        for seed, score in enumerate(scores)
    ]
    records.append(_match("plain0", "openai/r+direct", _usage(1, 100, 10, 0.001), 2, seed=0, score=0.0))
    table = _table(model_cost(records), "Reasoning efforts side by side: tictactoe")
    rows = _rows(table)
    assert [key[1] for key in rows] == ["default", "low", "high"]
    assert table["columns"][7] == "Δ vs default"
    assert rows[("openai/r+direct", "default")]["reasoning tokens / decision"] == NOT_REPORTED
    low, high = rows[("openai/r+direct", "low")], rows[("openai/r+direct", "high")]
    # 40 reasoning tokens per match over its 2 decisions
    assert (low["mean score"], low["reasoning tokens / decision"]) == (pytest.approx(0.5), pytest.approx(20.0))
    assert (high["mean score"], high["reasoning tokens / decision"]) == (pytest.approx(1.0), pytest.approx(200.0))
    assert (low["cost / decision (USD)"], high["cost / decision (USD)"]) == ("0.005", "0.025")  # 0.02 and 0.1 / 4
    assert (high["pairs"], high["Δ vs default"]) == (1, pytest.approx(1.0))  # only seed 0 has a default match


def test_scaffolds_side_by_side_keeps_one_model_under_two_answer_formats_apart():
    records = _formats()
    records += [_match(f"r{seed}", "openai/m+revise", _usage(8, 400, 40, 0.004), 2, seed=seed, score=1.0)
                for seed in range(3)]
    rows = {(row[0], row[1]): row for row in _table(scaffolds(records), "Side by side: tictactoe")["rows"]}
    assert set(rows) == {("openai/m", "cot"), ("openai/m", "revise")}  # the tools agent played one scaffold
    model, scaffold, matches, errored, skipped, mean, *_, calls = rows[("openai/m", "cot")]
    assert (matches, mean, calls) == (3, pytest.approx(0.5), pytest.approx(2.0))  # the text matches only


def test_the_section_reaches_markdown_html_and_json():
    data = analyse([*_records(), *_formats()], sections={"model_cost": model_cost}, resamples=50)
    section = next(s for s in data["sections"] if s["name"] == "model_cost")
    titles = [t["title"] for t in json.loads(json.dumps(section))["tables"]]
    assert titles == ["Cost per decision", "Truncated answers", "Answer formats side by side: tictactoe"]
    markdown = render_markdown(data)
    assert "#### Truncated answers" in markdown
    # each table: agent, game and the headline numbers (USD) first; every other column in a folded detail table
    lines = markdown.splitlines()
    cost = lines.index("#### Cost per decision") + 4
    assert lines[cost:cost + 2] == ["| agent | game | matches | decisions | cost / decision (USD) | cost in all (USD) |",
                                    "|---|---|---|---|---|---|"]
    assert f"| {NEW} | tictactoe | 2 | 10 | 0.003 | 0.03 |" in lines[cost:]
    detail = lines.index("<details><summary>More columns: errored, skipped, calls / decision, prompt tokens / "
                         "decision, cached share of prompt, completion tokens / decision, reasoning tokens / "
                         "decision, answer tokens / decision</summary>", cost)
    assert f"| {NEW} | tictactoe | 0 | 0 | 1.10 | 240.00 | 42% | 80.00 | 50.00 | 30.00 |" in lines[detail:]
    assert f"| {OLD} | tictactoe | 0 | 0 | 1.00 | 100.00 | — | 10.00 | — | — |" in lines
    assert lines.index("</details>", detail) < lines.index("#### Truncated answers")
    assert f"| {NEW} | tictactoe | 1 of 10 decisions | 3 | 3 |" in lines
    assert f"| {NEW} | tictactoe | 2 | 0 | 0 | 10 | 1 |" in lines  # its detail: matches to fallbacks
    html = render_html(data)
    assert "<h3>Truncated answers</h3>" in html and '<td class="">1 of 10 decisions</td>' in html
    assert "<h3>Answer formats side by side: tictactoe</h3>" in html
    assert html.count('<details class="more">') == markdown.count("<details>") == 3


def test_tokens_no_price_covers_are_unpriced_never_zero_and_a_local_model_costs_nothing():
    from stratbench.leaderboard.cost import cost_rows
    from stratbench.report.model_cost import UNPRICED

    records = [_match("u1", "openai/unknown+direct", _usage(5, 1000, 300, 0.0), 4),
               _match("l1", "local/gemma3-270m+direct", _usage(5, 1000, 300, 0.0), 4),
               _match("p1", NEW, _usage(5, 1000, 300, 0.01), 4)]
    table = model_cost(records)["tables"][0]
    cells = {row[0]: row[-2:] for row in table["rows"]}
    assert cells["openai/unknown+direct"] == [UNPRICED, UNPRICED] == ["unpriced (give --price)"] * 2
    assert cells["local/gemma3-270m+direct"] == ["0", "0"] and cells[NEW][1] == "0.01"
    rows = {row["agent"]: row for row in cost_rows(records, None)}
    assert rows["openai/unknown+direct"]["unpriced"] and not rows["local/gemma3-270m+direct"]["unpriced"]
    assert not rows[NEW]["unpriced"] and not rows["minimax"]["unpriced"]  # no tokens: nothing to price
