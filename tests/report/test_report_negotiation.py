"""The Diplomacy negotiation section: the six annotated metrics per agent and power, in HTML and Markdown."""

from __future__ import annotations

import html

from report_records import record
from stratbench.families import standalone_registry
from stratbench.report.analysis import analyse
from stratbench.report.render import render_html, render_markdown
from stratbench.games.spin.report import negotiation

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
TITLE = "Diplomacy negotiation (SPIN-Bench, LLM-annotated)"
LLM = "openai/m+direct"


def _counts(messages=0, aligned=0, proposals=0, accepted=0, mutual=0, one_sided=0, peace=0, conflict=0,
            perspective=0, conditional=0, failures=0):
    return {"messages": messages, "aligned": aligned, "proposals": proposals, "accepted": accepted,
            "mutual_benefit": mutual, "one_sided": one_sided, "peace": peace, "conflict": conflict,
            "perspective": perspective, "conditional": conditional, "failures": failures}


def _diplomacy(match_id, negotiation_by_player, *, annotated=True):
    """A 2-agents game: random-orders plays AUSTRIA..GERMANY, the model ITALY, RUSSIA, TURKEY."""
    agents = ("random-orders",) * 4 + (LLM,) * 3
    rec = record(match_id, agents, (5.0, 4.0, 5.0, 4.0, 3.0, 4.0, 3.0), game="diplomacy", subject=4)
    for k, side in enumerate(rec["sides"]):
        side["roles"] = [POWERS[k]]
        side["kind"] = "llm" if side["agent"] == LLM else side["agent"]
    rec["metrics"] = {str(p): {"supply_centers": 3, "negotiation": c} for p, c in negotiation_by_player.items()}
    if annotated:
        rec["annotator"] = {"model": "openai/judge", "settings": {"temperature": 0.0, "seed": 0},
                            "annotators": ["negotiation"], "usage": {"calls": 3}}
    return rec


def _records():
    silent = {p: _counts() for p in range(4)}
    first = _diplomacy("m1", {**silent, 4: _counts(4, 3, 2, 1, 2, 1, 3, 1, 1, 2), 5: _counts(2, 2, 0, 0, 0, 0, 2, 0),
                              6: _counts(failures=1)})
    second = _diplomacy("m2", {**silent, 4: _counts(2, 1, 2, 2, 1, 0, 1, 1, 0, 2), 5: _counts(), 6: _counts(1, 1)})
    return [first, second]


def _rows(section):
    return {(row[0], row[1]): dict(zip(section["columns"], row)) for row in section["rows"]}


def test_counts_are_summed_over_matches_before_the_ratios_per_agent_and_power():
    section = negotiation(_records())
    rows = _rows(section)
    assert set(rows) == {(LLM, "ITALY"), (LLM, "RUSSIA"), (LLM, "TURKEY"), (LLM, "all")}  # silent baselines left out
    italy = rows[(LLM, "ITALY")]
    assert italy["matches"] == 2 and italy["messages"] == 6
    assert italy["AlignR"] == "0.67 (4/6)" and italy["AcceptR"] == "0.75 (3/4)"
    assert italy["Mut:1S"] == "3.00 (3:1)" and italy["P:C"] == "2.00 (4:2)"
    assert italy["Persp."] == "0.17 (1/6)" and italy["Cond."] == "0.67 (4/6)"
    russia = rows[(LLM, "RUSSIA")]
    assert russia["AcceptR"] is None and russia["Mut:1S"] is None  # 0 / 0
    assert russia["P:C"] == "∞ (2:0)"  # peace only
    assert rows[(LLM, "TURKEY")]["failures"] == 1
    total = rows[(LLM, "all")]
    assert total["matches"] == 2 and total["messages"] == 9 and total["AlignR"] == "0.78 (7/9)"
    assert "openai/judge (seed 0, temperature 0.0)" in section["note"]


def test_the_section_shows_in_html_and_markdown_reports():
    registry = standalone_registry(("reporters",))
    data = analyse(_records(), resamples=20, sections=registry.report_sections)
    markdown, page = render_markdown(data), render_html(data)
    assert f"### {TITLE}" in markdown
    header = "| agent | power | matches | messages | AlignR | AcceptR | Mut:1S | P:C | Persp. | Cond. | failures |"
    assert header in markdown
    assert f"| {LLM} | ITALY | 2 | 6 | 0.67 (4/6) | 0.75 (3/4) | 3.00 (3:1) | 2.00 (4:2) | 0.17 (1/6) |" in markdown
    assert 'id="section-negotiation"' in page and html.escape(TITLE) in page
    assert ">0.75 (3/4)</td>" in page and ">AcceptR</th>" in page


def test_without_an_annotator_the_section_is_one_line():
    records = [_diplomacy("m1", {p: {"supply_centers": 3} for p in range(7)}, annotated=False)]
    for rec in records:
        rec["metrics"] = {str(p): {"supply_centers": 3} for p in range(7)}
    data = analyse(records, resamples=20, sections={"negotiation": negotiation})
    (section,) = data["sections"]
    assert section["rows"] == [] and section["note"].startswith("No annotator ran on the 1 Diplomacy match(es)")
    markdown = render_markdown(data)
    block = markdown.split(f"### {TITLE} · default protocol\n\n", 1)[1].strip().splitlines()
    assert block == [section["note"]]
    page = render_html(data)
    after = page.split('id="section-negotiation"', 1)[1].split("<h2", 1)[0]
    assert "No annotator ran" in after and "<table" not in after


def test_no_diplomacy_with_negotiation_no_section():
    nopress = _diplomacy("m1", {}, annotated=False)
    nopress["game"] = "diplomacy-nopress"
    assert negotiation([nopress, record("t1")]) is None
