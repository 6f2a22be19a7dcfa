"""The leaderboard in a real browser: headless Chromium renders it from files, plots one point per run, and its
links reach the runs' match pages; no script runs and none fails."""

from __future__ import annotations

import html
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
    out = runs["seed0"].parent / "site"  # published beside the runs, as the CI workflow lays them out
    assert main(["leaderboard", str(runs["seed0"].parent), "--out", str(out), "--map", f"{M2}={M1}",
                 "--baseline", "random", "--resamples", "200"]) == 0
    return out


@pytest.mark.slow
def test_the_index_renders_its_table_and_warning(site, chromium_profile):
    dom, log = dump_dom(str(CHROMIUM), site / "index.html", profile=chromium_profile)
    _no_page_errors(log)
    table = re.search(r'<table id="leaderboard">(.*?)</table>', dom, re.DOTALL).group(1)
    assert len(re.findall(r'<td class="l agent">', table)) == 4  # minimax, m1, m2, random
    assert re.search(r'<div class="warning pool-warning">Not pooled: pool 2', dom)
    assert "<script" not in dom


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
    assert (page.parent / html.unescape(report)).resolve() == (site.parent / "seed0" / "report.html").resolve()


def test_the_log_check_sees_a_refused_script_and_request(tmp_path, chromium_profile):
    """The control: a page whose script and image the same CSP refuses is logged, so the checks above can fail."""
    page = tmp_path / "control.html"
    page.write_text("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"default-src 'none'\"><title>control</title></head><body><script>nope()</script>"
                    "<img src=\"http://127.0.0.1:9/x.png\"></body></html>")
    _, log = dump_dom(str(CHROMIUM), page, profile=chromium_profile)
    with pytest.raises(AssertionError):
        _no_page_errors(log)
