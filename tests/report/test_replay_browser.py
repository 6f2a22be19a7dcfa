"""The replay viewer in a real browser: headless Chromium steps through chess, Connect Four and Diplomacy
replays with the keyboard; the board changes and no script error is logged."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest
from stratbench.report.render import render_transcript
from stratbench.families import standalone_registry
from stratbench.testing.browser import find_chromium
from test_replay import RandomLegal, play
from test_replay_model_calls import REASONING, page as model_call_page

CHROMIUM = find_chromium()

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)"),
]

STATE = ("JSON.stringify({position: document.getElementById('replay-position').textContent,"
         " step: document.getElementById('replay-board').getAttribute('data-step'),"
         " board: document.getElementById('replay-board').innerHTML})")


def _match(game_name: str):
    if game_name == "chess":
        from stratbench.games.spin.chess_game import ChessGame

        game = ChessGame()
        agents = {p: RandomLegal(p) for p in range(2)}
    elif game_name == "connect4":
        from stratbench.games.spin.connect_four import ConnectFour

        game = ConnectFour()
        agents = {p: RandomLegal(p) for p in range(2)}
    else:
        from stratbench.games.spin.agents.diplomacy_baselines import RandomOrdersAgent
        from stratbench.games.spin.diplomacy import Diplomacy, engine_available

        if not engine_available():
            pytest.skip("needs the diplomacy engine")
        game = Diplomacy(end_year=1901)
        agents = {p: RandomOrdersAgent(SimpleNamespace(game=game, rng=random.Random(p))) for p in range(7)}
    outcome, events = play(game, 4, agents)
    row = {"test_id": f"{game_name}-random-s4", "game": game_name, "agents": ["random"] * len(agents),
           "scores": outcome.scores, "seed": 4, "subject": 0, "result": "scored", "terminal": outcome.terminal}
    return render_transcript(row, events, renderers=standalone_registry(("reporters",)).board_renderers)


def open_replay(browser, page) -> None:
    """Opens a match page and waits until its script has unpacked the replay and shown the first step."""
    browser.open(page)
    deadline = time.monotonic() + 30
    while browser.evaluate("document.body.getAttribute('data-replay')") != "ready":
        assert time.monotonic() < deadline, f"the replay never became ready: {browser.errors}"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("game_name", ["chess", "connect4", "diplomacy"])
def test_arrow_keys_step_through_the_replay_and_the_board_changes(game_name, tmp_path, browser):
    page = tmp_path / f"{game_name}.html"
    page.write_text(_match(game_name), encoding="utf-8")
    open_replay(browser, page)
    first = browser.evaluate(STATE)
    import json

    first = json.loads(first)
    position, total = first["position"].split(" / ")
    assert position == "1" and int(total) >= 3
    assert first["step"] == "0" and ("<svg" in first["board"] or "<img" in first["board"])
    seen = [first["board"]]
    for expected in (2, 3):
        browser.press("ArrowRight")
        now = json.loads(browser.evaluate(STATE))
        assert now["position"] == f"{expected} / {total}" and now["step"] == str(expected - 1)
        seen.append(now["board"])
    browser.press("End")
    last = json.loads(browser.evaluate(STATE))
    assert last["position"] == f"{total} / {total}"
    assert last["board"] != first["board"]  # the game moved on from its start
    browser.press("ArrowLeft")
    assert json.loads(browser.evaluate(STATE))["position"] == f"{int(total) - 1} / {total}"
    browser.screenshot(tmp_path / f"{game_name}.png")
    assert (tmp_path / f"{game_name}.png").stat().st_size > 5000
    assert browser.errors == []


def test_a_script_error_in_the_page_is_caught(tmp_path, browser):
    """The error collection is real: a page that throws is reported."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><script>undefinedFunction()</script></body></html>")
    browser.open(page)
    assert any("undefinedFunction" in error for error in browser.errors)


FOLD = ("JSON.stringify(Array.from(document.querySelectorAll('#replay-items .item')).map(function (item) {"
        " var d = item.querySelector('details.fold'); return d ? {summary: d.querySelector('summary').textContent,"
        " open: d.open, text: d.querySelector('pre').textContent, shown: d.querySelector('pre').checkVisibility()}"
        " : {label: item.querySelector('.k').textContent, bad: item.classList.contains('bad')}; }))")


def test_reasoning_is_folded_until_opened_and_a_cut_reply_is_marked(tmp_path, browser):
    import json

    path = tmp_path / "model-calls.html"
    path.write_text(model_call_page(), encoding="utf-8")
    open_replay(browser, path)
    items = json.loads(browser.evaluate(FOLD))
    reasoning = next(item for item in items if "summary" in item)
    assert reasoning == {"summary": "reasoning (300 tokens)", "open": False, "text": REASONING, "shown": False}
    assert {"label": "reply (openai/o) · cut off: length", "bad": True} in items
    assert {"label": "fallback (forfeit) — answer truncated twice", "bad": True} in items
    browser.evaluate("document.querySelector('#replay-items details.fold summary').click(), 0")
    opened = next(item for item in json.loads(browser.evaluate(FOLD)) if "summary" in item)
    assert opened["open"] is True and opened["shown"] is True
    assert browser.errors == []
