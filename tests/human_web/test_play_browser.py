"""``stratbench play`` in a real browser: headless Chromium clicks a whole Tic-Tac-Toe and a whole Connect Four
game on the board against the loopback model, and a Hanabi game through the action buttons; the records name
the person, the scores are in range, the moves are recorded, the replay gives the same result, and the page
logs no script error (a Content-Security-Policy violation is one). At the end the page keeps the final
position with the last move, says the result from the person's side naming the model, and shows the model's
last reply. A chess piece clicked shows its legal targets. A browser opened for the page signs in with no
secret on its command line."""

from __future__ import annotations

import json
import subprocess
import time
import webbrowser
from pathlib import Path

import pytest
from helpers import PlayProcess, play_command, records, transcript

from stratbench.human_web.run import HumanWebRun
from stratbench.testing.browser import Chromium, find_chromium
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder

CHROMIUM = find_chromium()

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)"),
]

PAGE = ("JSON.stringify({status: document.getElementById('status').textContent,"
        " error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,"
        " legal: [...document.querySelectorAll('#actions button')].map((b) => b.dataset.move),"
        " board: (() => { const svg = document.querySelector('#board svg');"
        "   if (!svg) return null; const r = svg.getBoundingClientRect();"
        "   return [r.left, r.top, r.width, r.height]; })(),"
        " finished: document.getElementById('finished').children.length})")


REFUSED_MOVE = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
"""What Chromium logs for a move the server refused (HTTP 400): the one error a refusal may log."""


def _script_errors(chromium: Chromium) -> list[str]:
    return [error for error in chromium.errors if error != REFUSED_MOVE]


def _open(chromium: Chromium, url: str) -> None:
    chromium.send("Page.navigate", session=True, url=url)
    deadline = time.monotonic() + 30
    while chromium.evaluate("document.readyState") != "complete":
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _click(chromium: Chromium, x: float, y: float) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        chromium.send("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, button="left", clickCount=1)


def _page(chromium: Chromium) -> dict:
    return json.loads(chromium.evaluate(PAGE))


def _your_move(chromium: Chromium, play: PlayProcess) -> dict | None:
    """Waits until the page asks for a move (returns the page's state) or the match is over (None)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page = _page(chromium)
        if page["status"].startswith("Your move") and page["legal"]:
            return page
        if play.process.poll() is not None or page["finished"]:
            return None
        time.sleep(0.05)
    raise AssertionError(f"the page never asked for a move: {_page(chromium)}")


def _cell_centre(game: str, board: list[float], move: str) -> tuple[float, float]:
    left, top, width, height = board
    if game == "tictactoe":
        cell = int(move)
        return left + (cell % 3 + 0.5) * width / 3, top + (cell // 3 + 0.5) * height / 3
    grid = height * 6 / 6.6  # Connect Four: the column numbers lie below the six rows
    return left + (int(move) + 0.5) * width / 7, top + grid / 12  # a click in the top row drops in the column


def _play_by_clicking(chromium: Chromium, play: PlayProcess, game: str) -> tuple[list[str], list[str]]:
    """Clicks the first legal cell (or column) at every decision; once, first an occupied cell. Returns the
    moves clicked and the refusals the page showed."""
    _open(chromium, play.url)
    clicked, refusals = [], []
    while (page := _your_move(chromium, play)) is not None:
        assert page["board"] is not None, "the board is shown"
        if game == "tictactoe" and clicked and not refusals:  # an occupied cell: refused on the page
            _click(chromium, *_cell_centre(game, page["board"], clicked[0]))
            deadline = time.monotonic() + 30
            while not (error := _page(chromium)["error"]):
                assert time.monotonic() < deadline
                time.sleep(0.05)
            refusals.append(error)
            continue
        move = page["legal"][0]
        _click(chromium, *_cell_centre(game, page["board"], move))
        clicked.append(move)
        deadline = time.monotonic() + 30
        while _page(chromium)["status"].startswith("Your move") and not _page(chromium)["error"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    return clicked, refusals


END = ("JSON.stringify({result: document.getElementById('result').textContent,"
       " after: document.getElementById('after').hidden ? '' : document.getElementById('after').textContent,"
       " status: document.getElementById('status').textContent,"
       " moves: [...document.querySelectorAll('#moves li')].map((li) => li.textContent),"
       " reply: document.getElementById('reply').textContent,"
       " label: document.querySelector('#board svg').getAttribute('aria-label'),"
       " marks: [...document.querySelectorAll('#board svg text')].filter((t) => /^[XO]$/.test(t.textContent)).length"
       "   + [...document.querySelectorAll('#board svg circle')].filter((c) =>"
       "     ['#e63946', '#ffd166'].includes(c.getAttribute('fill'))).length})")
"""What the page shows once the match is over: the result, the note that the run is over, the moves, the
model's last reply, the board's label and the marks (X, O or discs) on it."""


def _the_end(chromium: Chromium) -> dict:
    """Waits until the page has fetched the run's end (the note that the run is over); returns what it shows."""
    deadline = time.monotonic() + 60
    while not (end := json.loads(chromium.evaluate(END)))["after"]:
        assert time.monotonic() < deadline, f"the page never showed the end: {end}"
        time.sleep(0.05)
    return end


def _check_replay(folder, record, *args: str) -> None:
    replay = play_command(folder, *args, "--replay")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    (again,) = records(folder)
    for key in ("scores", "turns", "terminal", "decisions", "result"):
        assert again[key] == record[key], key


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_a_whole_game_clicked_on_the_board_against_the_model(tmp_path, browser, game):
    with FakeLLMServer(responder=first_legal_responder) as llm:
        play = PlayProcess(tmp_path, game, "--model", "openai/m", "--api-base", llm.api_base, "--name", "alice")
        try:
            clicked, refusals = _play_by_clicking(browser, play, game)
            end = _the_end(browser)
            code, out, err = play.finish()
        finally:
            play.kill()
    assert code == 0, out + err
    assert _script_errors(browser) == []
    assert "the page shows how the match ended" in err
    (record,) = records(tmp_path)
    assert [side["agent"] for side in record["sides"]] == ["human:alice", "openai/m+direct"]  # seat 0: first
    low, high = record["score_range"]
    assert all(low <= score <= high for score in record["scores"]) and sum(record["scores"]) == 1.0
    events = transcript(tmp_path, record)
    human = [e["action"] for e in events if e["kind"] == "action" and e["player"] == 0]
    assert human == clicked and record["decisions"][0] == len(clicked) >= 3
    assert [e for e in events if e["kind"] == "rejected"] == []  # a refused click never reaches the game
    # the end, from the person's side: the final position with the last move, the result naming the model
    outcome = {1.0: "You won against", 0.0: "You lost against", 0.5: "Draw against"}[record["scores"][0]]
    how = "" if record["terminal"] == "draw" else f" ({record['terminal']})"
    assert end["result"] == f"{outcome} openai/m+direct{how}"
    played = [e for e in events if e["kind"] == "action"]
    assert end["marks"] == len(played)  # every move is on the final board, the last one too
    if game == "tictactoe":
        final = [e["board"]["board"] for e in events if e["kind"] == "board"][-1]
        assert end["label"] == f"Tic-Tac-Toe board {final}"
    names = {0: "You (X)", 1: "openai/m+direct (O)"}
    assert end["moves"] == [f"{names[e['player']]}: {e['action']}" for e in played]
    replies = [e["response"] for e in events if e["kind"] == "llm_call"]
    assert end["reply"] == replies[-1]  # the model's reply for its last move
    assert end["status"] == "The match is over." and end["after"].startswith("The run is over: this page keeps")
    # the page still answers once the command is gone: it keeps the end and asks nothing more
    assert json.loads(browser.evaluate(END)) == end
    if game == "tictactoe":
        model_first = next(e["action"] for e in events if e["kind"] == "action" and e["player"] == 1)
        assert refusals == [f"Refused: '{clicked[0]}' is not a legal action. Legal actions: "
                            + ", ".join(str(c) for c in range(9) if str(c) not in (clicked[0], model_first))]
    _check_replay(tmp_path, record, game, "--model", "openai/m", "--name", "alice")


@pytest.mark.slow
def test_a_hanabi_game_through_the_action_buttons(tmp_path, browser):
    play = PlayProcess(tmp_path, "hanabi", "--variant", "2p", "--name", "carol")
    chosen = []
    try:
        _open(browser, play.url)
        while (page := _your_move(browser, play)) is not None:
            assert page["board"] is None  # hidden information: the observation only, no board
            move = page["legal"][-1]
            box = browser.evaluate("(() => { const b = [...document.querySelectorAll('#actions button')].at(-1);"
                                   " b.scrollIntoView({block: 'center'}); const r = b.getBoundingClientRect();"
                                   " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
            _click(browser, *box)
            chosen.append(move)
            deadline = time.monotonic() + 30
            while _page(browser)["status"].startswith("Your move"):
                assert time.monotonic() < deadline
                time.sleep(0.05)
        code, out, err = play.finish()
    finally:
        play.kill()
    assert code == 0, out + err
    assert _script_errors(browser) == []
    (record,) = records(tmp_path)
    assert [side["agent"] for side in record["sides"]] == ["human:carol"]
    low, high = record["score_range"]
    assert low <= record["scores"][0] <= high
    actions = [e["action"] for e in transcript(tmp_path, record) if e["kind"] == "action"]
    assert actions == chosen and sum(record["decisions"]) == len(chosen)
    _check_replay(tmp_path, record, "hanabi", "--variant", "2p", "--name", "carol")


@pytest.mark.slow
def test_a_chess_move_is_two_clicks_on_the_board(tmp_path, browser):
    """e2 then e4 plays the legal move they name (SAN ``e4``); a knight's impossible jump is refused."""
    play = PlayProcess(tmp_path, "chess", "--opponent", "random", "--name", "dan")
    try:
        _open(browser, play.url)
        page = _your_move(browser, play)
        assert page is not None and "e4" in page["legal"]

        def centre(name: str) -> tuple[float, float]:  # where the square is now
            left, top, width, height = _page(browser)["board"]
            square = width * 45 / 390
            column, rank = "abcdefgh".index(name[0]), int(name[1])
            x = left + width * 15 / 390 + (column + 0.5) * square
            return x, top + height * 15 / 390 + (8 - rank + 0.5) * square

        assert browser.evaluate("document.getElementById('who').textContent") == (
            "dan playing chess: You (White) against random (Black)")
        assert browser.evaluate("document.getElementById('clock').textContent").startswith(
            "Time left for this move: ")
        targets = "[...document.querySelectorAll('#board .target')].map((t) => t.dataset.square).sort()"
        _click(browser, *centre("g1"))
        assert browser.evaluate(targets) == ["f3", "h3"]  # the knight's legal targets are marked
        _click(browser, *centre("g4"))  # a knight cannot jump there
        deadline = time.monotonic() + 30
        while not (error := _page(browser)["error"]):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert error.startswith("Refused: 'g1g4' is not a legal action. Legal actions: ")
        _click(browser, *centre("e2"))
        assert browser.evaluate(targets) == ["e3", "e4"]
        _click(browser, *centre("e4"))
        deadline = time.monotonic() + 60
        while True:
            moves = browser.evaluate("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)")
            if len(moves) >= 2:
                break
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert moves[0] == "You (White): e4" and moves[1].startswith("random (Black): ")
        assert _script_errors(browser) == []
    finally:
        play.kill()


def _command_lines() -> dict[int, bytes]:
    """Every process's command line, as any user of the machine reads it (``ps``)."""
    found = {}
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            found[int(path.parent.name)] = path.read_bytes()
        except OSError:  # the process ended meanwhile
            continue
    return found


@pytest.mark.slow
def test_the_browser_opened_for_the_page_signs_in_with_no_token_on_any_command_line(monkeypatch, chromium_profile):
    """The page is opened as webbrowser opens it (the address on the browser's command line): the browser signs
    in through the hand-off file and the page polls with its cookie, while no process's command line holds the
    token."""
    browsers: list[subprocess.Popen] = []

    def start_browser(address: str, *args, **kwargs) -> bool:
        browsers.append(subprocess.Popen(  # noqa: S603 - a fixed argument list, no shell
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
             "--disable-background-networking", f"--user-data-dir={chromium_profile}", "--remote-debugging-port=0",
             address], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True))
        return True

    monkeypatch.setattr(webbrowser, "open", start_browser)
    web = HumanWebRun(open_browser=True).start()
    polls: list[int] = []
    view = web.table.view
    web.table.view = lambda: polls.append(1) or view()  # each poll the page's cookie let through
    try:
        web.announce(lambda line: None)
        (browser,) = browsers
        deadline = time.monotonic() + 60
        while len(polls) < 2:
            assert browser.poll() is None and time.monotonic() < deadline, "the page never polled"
            time.sleep(0.05)
        lines = _command_lines()
        token = web.server.token.encode()
        assert [pid for pid, line in lines.items() if token in line] == []
        assert b"open.html" in lines[browser.pid]  # the browser's command line was among those read
    finally:
        web.stop()
        for started in browsers:
            started.kill()
            started.wait(timeout=30)
