"""The report in a real browser: headless Chromium renders it from a file and runs no planted script."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from report_records import record
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.render import write_reports
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
    records = [json.loads(line) for line in store.path.read_text().splitlines()]
    write_reports(analyse(records, resamples=200, manifest=manifest_for(records)), directory)
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
