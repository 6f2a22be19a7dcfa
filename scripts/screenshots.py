"""Screenshots of the report, the leaderboard and the play page for the README.

``python scripts/screenshots.py [OUT_DIR]`` (default ``docs/``) works offline in a temporary folder:

- ``screenshot-report.png``: the top of ``report.html`` after a small benchmark (Tic-Tac-Toe and Connect Four,
  the random agent against the solvers, 4 matches per pairing);
- ``screenshot-leaderboard.png``: ``index.html`` of ``stratbench leaderboard`` over that run and a second one
  with another seed;
- ``screenshot-play.png``: ``stratbench play tictactoe --opponent random`` clicked through to the end of the
  game, with the final board and the result sentence.

Every page is shot at 1280x900 in headless Chromium (exit status 2 when there is none). Takes about 20 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratbench.testing.browser import Chromium, find_chromium

REPO = Path(__file__).resolve().parent.parent
SUITES = [REPO / "suites" / "spin" / "test_tictactoe.py", REPO / "suites" / "spin" / "test_connect4.py"]
SIZE = (1280, 900)
SEEDS = (0, 100)
"""The two benchmark runs' first seeds: the first run's report is shot, both go into the leaderboard."""

PLAY_ADDRESS = re.compile(r"stratbench: play at (http://127\.0\.0\.1:\d+/\?token=\S+)")
CELL_PREFERENCE = ["4", "0", "2", "6", "8", "1", "3", "5", "7"]
"""The order the Tic-Tac-Toe cells are clicked in, when empty: the centre, the corners, the edges."""

PLAY_STATE = ("JSON.stringify({status: document.getElementById('status').textContent,"
              " legal: [...document.querySelectorAll('#actions button')].map((b) => b.dataset.move),"
              " board: (() => { const svg = document.querySelector('#board svg');"
              "   if (!svg) return null; const r = svg.getBoundingClientRect();"
              "   return [r.left, r.top, r.width, r.height]; })(),"
              " result: document.getElementById('result').hidden ? '' : document.getElementById('result').textContent,"
              " after: document.getElementById('after').hidden ? '' : document.getElementById('after').textContent})")
"""What the play page shows: its status line, the legal moves (its action buttons), where the board is, the
result sentence and the note that the run is over."""


def run_benchmark(folder: Path, report_dir: Path, seed: int) -> None:
    """Plays the small benchmark into ``report_dir`` (its report.html among the files written)."""
    command = [
        sys.executable, "-m", "pytest", *map(str, SUITES), "--stratbench-agent", "random",
        "--matches", "4", "--seed", str(seed),
        "--report-dir", str(report_dir), "--stratbench-cassette-dir", str(folder / "cassettes"),
        "--stratbench-reference", "off", "-p", "no:cacheprovider", "-q"]
    checked(command, folder)


def build_leaderboard(folder: Path, runs: list[Path], site: Path) -> None:
    checked([sys.executable, "-m", "stratbench.cli", "leaderboard", *map(str, runs), "--out", str(site)], folder)


def checked(command: list[str], folder: Path) -> None:
    """Runs a command in ``folder``; raises RuntimeError with its output when it fails."""
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False,
                          env=script_environment())
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {done.returncode}\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def script_environment() -> dict[str, str]:
    """This environment, with no browser opened by the commands."""
    return {**os.environ, "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION": "python", "BROWSER": "false"}


def wait_until(condition: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    """Polls ``condition`` until it returns something true; returns that (TimeoutError after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)
    return value


def fresh_page(browser: Chromium) -> None:
    """A new page whose viewport is exactly SIZE (the window's size less any browser frame otherwise)."""
    browser.new_page()
    browser.send("Emulation.setDeviceMetricsOverride", session=True, width=SIZE[0], height=SIZE[1],
                 deviceScaleFactor=1, mobile=False)


def open_address(browser: Chromium, address: str) -> None:
    """Loads an http:// address and waits until the document is complete."""
    browser.send("Page.navigate", session=True, url=address)
    wait_until(lambda: browser.evaluate("document.readyState") == "complete", f"{address} to load")


def click(browser: Chromium, x: float, y: float) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, button="left", clickCount=1)


def cell_centre(board: list[float], cell: str) -> tuple[float, float]:
    """Where a Tic-Tac-Toe cell (0-8, row by row) lies on the page's board."""
    left, top, width, height = board
    index = int(cell)
    return left + (index % 3 + 0.5) * width / 3, top + (index // 3 + 0.5) * height / 3


def start_play(folder: Path) -> tuple[subprocess.Popen[str], str]:
    """Starts ``stratbench play tictactoe --opponent random`` and returns it with the page's address."""
    command = [
        sys.executable, "-m", "stratbench.cli", "play", "tictactoe", "--opponent", "random", "--name", "alice",
        "--no-browser",
        "--report-dir", str(folder / "play-report"), "--cassette-dir", str(folder / "play-cassettes")]
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, env=script_environment())
    head = []
    for line in process.stderr:  # the address comes first on stderr
        head.append(line)
        found = PLAY_ADDRESS.search(line)
        if found:
            return process, found.group(1)
    process.wait(timeout=30)
    raise RuntimeError("stratbench play printed no address:\n" + "".join(head))


def play_to_the_end(browser: Chromium, address: str) -> str:
    """Clicks empty cells (centre, corners, edges) at each of the page's turns until the game's result shows;
    waits for the note that the run is over and returns the result sentence."""
    open_address(browser, address)

    def page() -> dict[str, Any]:
        return json.loads(browser.evaluate(PLAY_STATE))

    def my_turn_or_result() -> dict[str, Any] | None:
        shown = page()
        return shown if shown["result"] or (shown["status"].startswith("Your move") and shown["legal"]) else None

    while not (shown := wait_until(my_turn_or_result, "a turn or the result", 90))["result"]:
        cell = next(c for c in CELL_PREFERENCE if c in shown["legal"])
        click(browser, *cell_centre(shown["board"], cell))
        wait_until(lambda: not page()["status"].startswith("Your move") or page()["result"], "the move to be taken")
    wait_until(lambda: page()["after"], "the note that the run is over")
    return shown["result"]


def stop(process: subprocess.Popen[str]) -> None:
    """Lets the play command end on its own (it has served the final state), else ends it."""
    try:
        process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=REPO / "docs", metavar="OUT_DIR",
                        help="Where the PNG files go (default: docs/)")
    out = parser.parse_args(argv).out.resolve()
    binary = find_chromium()
    if binary is None:
        print("screenshots: no Chromium here (apt-get install chromium)", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="stratbench-screenshots-") as temporary:
        folder = Path(temporary)
        runs = [folder / f"run{number}" for number in (1, 2)]
        for run, seed in zip(runs, SEEDS, strict=True):
            run_benchmark(folder, run, seed)
        build_leaderboard(folder, runs, folder / "site")
        (folder / "profile").mkdir()
        errors: list[str] = []
        with Chromium(binary, folder / "profile", size=SIZE) as browser:
            for page, name in ((runs[0] / "report.html", "screenshot-report.png"),
                               (folder / "site" / "index.html", "screenshot-leaderboard.png")):
                fresh_page(browser)
                browser.open(page)
                print(f"wrote {browser.screenshot(out / name)}")
                errors += browser.errors
            fresh_page(browser)
            process, address = start_play(folder)
            try:
                result = play_to_the_end(browser, address)
                print(f"wrote {browser.screenshot(out / 'screenshot-play.png')} ({result})")
            finally:
                stop(process)
            errors += browser.errors
    if errors:
        print("screenshots: script errors: " + "; ".join(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
