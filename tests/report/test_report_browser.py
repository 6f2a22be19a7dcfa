"""The report in a real browser: headless Chromium renders it from a file and runs no planted script."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from report_records import record, wide_run
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.memorisation import memorisation
from stratbench.report.model_cost import model_cost
from stratbench.report.render import write_reports
from stratbench.report.scaffolds import scaffolds
from stratbench.run.results import ResultStore
from stratbench.testing.browser import dump_dom

CHROMIUM = Path("/usr/bin/chromium")
PAYLOAD = ("<script>document.title='pwned';var e=document.createElement('div');e.id='pwned';"
           "document.body.appendChild(e)</script>")
IMG_PAYLOAD = "<img src=x onerror=\"var e=document.createElement('p');e.id='pwned-img';document.body.appendChild(e)\">"
AGENT = "openai/m" + PAYLOAD + IMG_PAYLOAD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="needs Debian's chromium (apt-get install chromium)"),
]


def page_dom(page: Path, profile: Path) -> str:
    """The DOM of a page after its scripts ran (the virtual time lets a match page's replay unpack itself)."""
    return dump_dom(str(CHROMIUM), page, profile=profile, virtual_time_ms=10_000)[0]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A run of the planted agent, and three models with long labels, costs and memorisation probes (every wide
    table of the report)."""
    directory = tmp_path_factory.mktemp("browser-report")
    store = ResultStore(directory, "run-1")
    events = [
        {"kind": "llm_call", "t": 0.1, "player": 0, "model": AGENT,
         "messages": [{"role": "user", "content": "Legal actions: 0, 4 " + PAYLOAD}],
         "response": "Action: 4 " + PAYLOAD + IMG_PAYLOAD, "prompt_tokens": 5, "completion_tokens": 3,
         "duration_s": 0.1},
        {"kind": "message", "t": 0.2, "sender": 0, "recipients": [1], "text": PAYLOAD},
        {"kind": "action", "t": 0.3, "turn": 0, "player": 0, "attempt": 1, "action": "4"},
    ]
    for k in range(6):
        pair = (AGENT, "minimax") if k % 2 == 0 else ("minimax", AGENT)
        scores = (0.0, 1.0) if k < 4 else (0.5, 0.5)
        store.append(record(f"test_ttt.py::test_tictactoe[{AGENT}-vs-minimax-s{k}]", pair, scores, seed=k,
                            subject=pair.index(AGENT), models=tuple(a if a == AGENT else None for a in pair)), events)
    for k in range(4):
        store.append(record(f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", ("random", "minimax"),
                            (0.0, 1.0), seed=k), [])
    records = [json.loads(line) for line in store.path.read_text().splitlines()] + wide_run()
    sections = {"memorisation": memorisation, "model_cost": model_cost, "scaffolds": scaffolds}
    write_reports(analyse(records, resamples=200, manifest=manifest_for(records), sections=sections), directory)
    return directory


def _title(markup: str) -> str:
    return html.unescape(re.search(r"<title>(.*?)</title>", markup, re.DOTALL).group(1))


def _assert_not_executed(dom: str, source: str) -> None:
    assert not re.search(r"<\w+[^>]*\bid=\"pwned", dom), "a planted script ran"
    assert _title(dom) == _title(source) != "pwned"
    assert "&lt;script&gt;document.title='pwned'" in dom  # shown as text


def test_report_renders_table_and_plot_and_runs_no_planted_script(report, chromium_profile):
    dom = page_dom(report / "report.html", chromium_profile)
    assert re.search(r'<table id="ratings-table">.*minimax.*</table>', dom, re.DOTALL)
    assert re.search(r'<svg class="rating-plot"[^>]*>.*<circle', dom, re.DOTALL)
    assert '<svg class="heatmap"' in dom
    _assert_not_executed(dom, (report / "report.html").read_text())
    assert _title(dom) == "stratbench report"


def test_transcript_page_runs_no_planted_script(report, chromium_profile):
    html = (report / "report.html").read_text()
    link = re.search(r'<a href="(transcripts/[^"]*openai[^"]*\.html)">', html).group(1)
    dom = page_dom(report / link, chromium_profile)
    assert "Action: 4 &lt;script&gt;" in dom
    _assert_not_executed(dom, (report / link).read_text())


def test_the_browser_does_run_an_unescaped_script(tmp_path, chromium_profile):
    """The control: the same payload, unescaped and without a CSP, does run, so the checks above can fail."""
    page = tmp_path / "control.html"
    page.write_text(f"<!DOCTYPE html><html><head><title>control</title></head><body>{PAYLOAD}</body></html>")
    dom = page_dom(page, chromium_profile)
    assert '<div id="pwned"></div>' in dom and "<title>pwned</title>" in dom


WINDOW = 1280
HEADLINES = ["score", "mean score", "Δ renamed − original", "95% interval", "verdict", "cost / decision (USD)",
             "cost in all (USD)"]
"""Headline columns by name: key columns wherever they stand, with or without a ``data-key`` mark."""
KEY_CELLS = """(function (headlines, width) {
  document.querySelectorAll('details').forEach(function (fold) { fold.open = true; });
  var found = {tables: 0, cells: 0, problems: [], keys: {}};
  Array.prototype.forEach.call(document.querySelectorAll('table'), function (table) {
    var columns = [];
    Array.prototype.forEach.call(table.rows[0].cells, function (th, k) {
      if (k === 0 || th.hasAttribute('data-key') || headlines.indexOf(th.textContent) >= 0) { columns.push(k); }
    });
    if (table.id) {
      found.keys[table.id] = columns.map(function (k) { return table.rows[0].cells[k].textContent; });
    }
    var box = table.closest('.scroll');
    var edge = Math.min(width, box ? box.getBoundingClientRect().right : Infinity);
    found.tables += 1;
    Array.prototype.forEach.call(table.rows, function (row) {
      columns.forEach(function (k) {
        var cell = row.cells[k];
        if (!cell) { return; }
        found.cells += 1;
        var right = cell.getBoundingClientRect().right;
        var cut = cell.scrollWidth > cell.clientWidth + 1 || cell.scrollHeight > cell.clientHeight + 1;
        if (right > edge + 0.5 || (cut && cell.title !== cell.textContent)) {
          found.problems.push({table: table.id || table.rows[0].textContent.slice(0, 60), column: k,
                               text: cell.textContent.slice(0, 60), right: right, edge: edge, cut: cut});
        }
      });
    });
  });
  return JSON.stringify(found);
})"""
"""Opens every fold, then checks each table's key cells: in view (left of the window's and the scroll box's right
edge) and not cut, or cut with the full text in a title."""


def test_every_tables_key_columns_fit_a_1280_px_window_and_show_their_text(report, browser):
    """Long agent labels, three models, costs and memorisation probes: each table's first column and its
    headline columns (``data-key``) are in view at 1,280 px without scrolling sideways, none cut silently."""
    browser.send("Emulation.setDeviceMetricsOverride", session=True, width=WINDOW, height=900, deviceScaleFactor=1,
                 mobile=False)
    browser.open(report / "report.html")
    assert browser.evaluate("window.innerWidth") == WINDOW
    found = json.loads(browser.evaluate(f"{KEY_CELLS}({json.dumps(HEADLINES)}, {WINDOW})"))
    assert found["problems"] == []
    assert found["keys"]["model-overview"] == ["model", "game", "score", "score range", "legal", "format errors"]
    assert found["keys"]["ratings-table"] == ["agent", "overall"]
    assert found["tables"] >= 20 and found["cells"] >= 500
    headers = json.loads(browser.evaluate(
        "JSON.stringify(Array.from(document.querySelectorAll('th[data-key]')).map(function (th) {"
        " return th.textContent; }))"))
    assert {"Δ renamed − original", "95% interval", "verdict", "cost / decision (USD)", "cost in all (USD)",
            "Δ vs direct", "Δ vs text", "Δ vs low"} <= set(headers)
    assert browser.errors == []


def test_the_harness_health_section_is_drawn_with_its_rows_and_its_verdict(report, browser):
    browser.open(report / "report.html")
    health = json.loads(browser.evaluate(
        "JSON.stringify({heading: (document.querySelector('h2#health') || {}).textContent,"
        " rows: Array.from(document.querySelectorAll('#health-table tr')).slice(1).map(function (r) {"
        "   return Array.from(r.cells).map(function (c) { return c.textContent; }); }),"
        " verdict: (document.querySelector('#health-flags') || {}).textContent})"))
    assert health["heading"] == "Harness health"
    assert any(row[1] == AGENT for row in health["rows"]) and all(len(row) == len(health["rows"][0])
                                                                  for row in health["rows"])
    assert health["verdict"] == "No flags: nothing points at the harness rather than the models."
    assert browser.errors == []
