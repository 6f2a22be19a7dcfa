"""The leaderboard in a real browser: headless Chromium renders it from files, leads with a ranked list that fits a
1,280 px window, plots one point per run, and its links reach the runs' match pages; no script runs and none
fails."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from board_runs import three_runs
from stratbench.cli import main
from stratbench.testing.browser import dump_dom

CHROMIUM = Path("/usr/bin/chromium")
M1, M2 = "openai/m1+direct", "openai/m2+direct"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="needs Debian's chromium (apt-get install chromium)"),
]


def _no_page_errors(log: str) -> None:
    """No console message (a script error, a refused script or request) was logged for the page."""
    assert not re.search(r"CONSOLE|Uncaught|Refused to|Content Security Policy", log), log[-2000:]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    runs = three_runs(tmp_path_factory.mktemp("runs"))
    out = runs["seed0"].parent / "site"  # beside the runs: their reports are copied into it
    assert main(["leaderboard", str(runs["seed0"].parent), "--out", str(out), "--map", f"{M2}={M1}",
                 "--baseline", "random", "--resamples", "200"]) == 0
    return out


FIRST_TABLE = """JSON.stringify((() => {
  const table = document.querySelector('table');
  const text = (row, key) => (row.querySelector(key) || {}).textContent || null;
  const right = (cell) => (cell ? cell.getBoundingClientRect().right : 1e9);
  const rows = Array.from(table.querySelectorAll('tr')).slice(1).map((row) => ({
    rank: text(row, 'td.rank'), agent: text(row, 'td.agent'), rating: text(row, 'td.rating'),
    interval: text(row, 'td.interval'), plots: row.querySelectorAll('svg.interval-plot').length,
    right: Math.max(...['td.rank', 'td.agent', 'td.rating'].map((key) => right(row.querySelector(key))))}));
  const head = table.querySelector('tr');
  return {width: window.innerWidth, rows: rows, header: [text(head, 'th.rank'), text(head, 'th.rating')],
          headRight: Math.max(...['th.rank', 'th.agent', 'th.rating'].map((key) => right(head.querySelector(key)))),
          folded: !(document.querySelector('details.pool-differences') || {open: true}).open};
})())"""
"""The index's first table as the browser lays it out: each row's rank, agent, rating, interval, inline plots and
the right edge of its key cells (rank, agent, rating), in CSS pixels."""


@pytest.mark.slow
def test_the_index_leads_with_a_ranked_list_whose_key_columns_fit_1280_px(site, browser):
    browser.send("Emulation.setDeviceMetricsOverride", session=True, width=1280, height=800, deviceScaleFactor=1,
                 mobile=False)
    browser.open(site / "index.html")
    first = json.loads(browser.evaluate(FIRST_TABLE))
    assert first["width"] == 1280 and first["header"] == ["rank", "rating"]
    rows = first["rows"]
    assert [row["rank"] for row in rows] == ["1", "2", "3", "4"]
    assert {row["agent"] for row in rows} == {"minimax", M1, M2, "random"}
    ratings = [float(row["rating"]) for row in rows]
    assert ratings == sorted(ratings, reverse=True)
    for row, rating in zip(rows, ratings, strict=True):
        low, high = map(float, re.fullmatch(r"\[([-+.\d]+), ([-+.\d]+)\]", row["interval"]).groups())
        assert low <= rating <= high and row["plots"] == 1
    assert max(first["headRight"], *(row["right"] for row in rows)) <= 1280
    assert first["folded"]  # the pool differences fold under one line
    assert browser.errors == []


def test_a_history_plot_has_one_point_per_run(site, chromium_profile):
    dom, log = dump_dom(str(CHROMIUM), site / "history.html", profile=chromium_profile)
    _no_page_errors(log)
    sections = re.findall(r'<section class="history-line">(.*?)</section>', dom, re.DOTALL)
    upgrade = next(s for s in sections if html.escape(f"{M1} → {M2}") in s or f"{M1} → {M2}" in s)
    rating_plot = re.search(r'<svg class="runs-chart".*?</svg>', upgrade, re.DOTALL).group(0)
    runs = re.findall(r'<circle class="run-point" data-run="([^"]+)"', rating_plot)
    assert runs == ["20261118T000000-aaaaaa", "20261119T000000-bbbbbb", "20261120T000000-cccccc"]
    assert rating_plot.count("<polyline") == 1  # the upgrade drawn as one line


@pytest.mark.slow
def test_a_replay_link_reaches_an_existing_match_page(site, chromium_profile):
    page = next((site / "models").glob("openai_m1*.html"))
    dom, log = dump_dom(str(CHROMIUM), page, profile=chromium_profile)
    _no_page_errors(log)
    links = re.findall(r'<a class="replay-link" href="([^"]+)">', dom)
    assert len(links) == 16
    target = (page.parent / html.unescape(links[0])).resolve()
    assert target.is_file() and target.parent.name == "transcripts"
    replay, _ = dump_dom(str(CHROMIUM), target, profile=chromium_profile)
    assert "openai/m1+direct" in replay
    report = re.search(r'<a class="report-link" href="([^"]+)">', dom).group(1)
    assert (page.parent / html.unescape(report)).resolve() == \
        (site / "runs" / "20261118T000000-aaaaaa" / "report.html").resolve()  # the run's report, copied into the site


def test_the_log_check_sees_a_refused_script_and_request(tmp_path, chromium_profile):
    """The control: a page whose script and image the same CSP refuses is logged, so the checks above can fail."""
    page = tmp_path / "control.html"
    page.write_text("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"default-src 'none'\"><title>control</title></head><body><script>nope()</script>"
                    "<img src=\"http://127.0.0.1:9/x.png\"></body></html>")
    _, log = dump_dom(str(CHROMIUM), page, profile=chromium_profile)
    with pytest.raises(AssertionError):
        _no_page_errors(log)
