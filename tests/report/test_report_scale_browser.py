"""Compressed pages in a real browser: a long match's page unpacks its replay and its list of events, and a
large run's report draws a fold of its matches table when it is opened; no planted script runs."""

from __future__ import annotations

import json
import time

import pytest
from report_records import EVIL_SCRIPT, record
from stratbench.report.analysis import analyse
from stratbench.report.render import MATCH_ROWS_OPEN, render_transcript, write_reports
from stratbench.testing.browser import find_chromium
from test_report_scale import ROW, long_match, map_board

CHROMIUM = find_chromium()

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)"),
]


def wait_for(browser, expression: str, expected) -> None:
    deadline = time.monotonic() + 30
    while browser.evaluate(expression) != expected:
        assert time.monotonic() < deadline, f"{expression} never became {expected!r}: {browser.errors}"
        time.sleep(0.05)


STATE = ("JSON.stringify({position: document.getElementById('replay-position').textContent,"
         " board: document.getElementById('replay-board').innerHTML,"
         " items: Array.from(document.querySelectorAll('#replay-items pre')).map(function (p) {"
         " return p.textContent; })})")


@pytest.mark.slow
def test_a_long_compressed_match_page_shows_its_steps_boards_and_events(tmp_path, browser):
    events = long_match(2000)
    events[1]["text"] = "Turn 0. " + EVIL_SCRIPT
    page = tmp_path / "walk.html"
    page.write_text(render_transcript(ROW, events, renderers={"walk": map_board}), encoding="utf-8")
    assert page.stat().st_size < 1_000_000
    browser.open(page)
    wait_for(browser, "document.body.getAttribute('data-replay')", "ready")
    browser.press("ArrowRight")
    first = json.loads(browser.evaluate(STATE))
    assert first["position"] == "2 / 2002"
    assert first["board"].count('class="province"') == 1200  # the whole map, joined from its pieces
    assert 'cx="60" cy="30"' in first["board"] and ">label 1<" in first["board"]
    assert first["items"][0] == "Turn 0. " + EVIL_SCRIPT  # shown as text
    browser.press("End")
    browser.press("ArrowLeft")
    last = json.loads(browser.evaluate(STATE))
    assert last["position"] == "2001 / 2002"
    assert 'cx="0" cy="30"' in last["board"] and ">label 5<" in last["board"]  # the position after decision 1999
    assert browser.evaluate("document.querySelectorAll('#events-list .ev').length") == 0  # not unpacked yet
    browser.evaluate("document.querySelector('#all-events summary').click(), 0")
    wait_for(browser, "document.getElementById('all-events').getAttribute('data-state')", "ready")
    assert browser.evaluate("document.querySelectorAll('#events-list .ev.llm_call').length") == 2000
    assert browser.evaluate("document.querySelector('#events-list .ev.observation pre').textContent") == \
        "Turn 0. " + EVIL_SCRIPT
    assert browser.evaluate("document.querySelectorAll('#events-list script').length") == 0
    assert browser.errors == []


@pytest.mark.slow
def test_a_large_runs_report_draws_a_fold_of_its_matches_when_opened(tmp_path, browser):
    agent = "openai/m" + EVIL_SCRIPT
    records = [record(f"suites/test_ttt.py::test_tictactoe[{agent}-vs-b-s{k}]", (agent, "b"), seed=k,
                      transcript=f"transcripts/r/{k}.json") for k in range(MATCH_ROWS_OPEN + 20)]
    data = analyse(records, resamples=20)
    write_reports(data, tmp_path)
    browser.open(tmp_path / "report.html")
    assert browser.evaluate("document.querySelectorAll('details.matches').length") == 2
    assert browser.evaluate("document.querySelectorAll('.match-table tr').length") == 2  # headers only
    browser.evaluate("document.querySelector('details.matches[data-group=\"1\"] summary').click(), 0")
    wait_for(browser, "document.querySelector('details.matches[data-group=\"1\"]').getAttribute('data-state')",
             "ready")
    rows = json.loads(browser.evaluate(
        "JSON.stringify(Array.from(document.querySelectorAll('details.matches[data-group=\"1\"] tr')).slice(1)"
        ".map(function (r) { var a = r.querySelector('a'); return {href: a && a.getAttribute('href'),"
        " cells: Array.from(r.cells).map(function (c) { return c.textContent; })}; }))"))
    assert len(rows) == 20  # matches 501-520
    last = data["matches"][-1]
    assert rows[-1] == {"href": last["page"], "cells": [last["test_id"], f"{agent} vs b", "1.00 / 0.00",
                                                        f"{agent} won (done)", "5", "0/0", "0", "0.00"]}
    assert (tmp_path / last["page"]).is_file()
    assert browser.evaluate("document.querySelectorAll('.match-table script, #pwned').length") == 0
    assert browser.evaluate("document.querySelectorAll('details.matches[data-group=\"0\"] tr').length") == 1
    assert browser.errors == []
