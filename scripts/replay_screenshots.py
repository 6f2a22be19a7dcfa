"""Screenshots of match replays for the docs: ``python scripts/replay_screenshots.py REPORT_DIR OUT_DIR``.

For chess, Connect Four and Diplomacy it opens the first match page of that game in a report
directory (``pytest suites/ --report-dir REPORT_DIR``), steps forward with the arrow key and
writes ``OUT_DIR/replay-<game>.png``. Needs Chromium.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from stratbench.testing.browser import Chromium, find_chromium

STEPS = {"chess": 8, "connect4": 6, "diplomacy": 2}


def main(report_dir: Path, out: Path) -> int:
    binary = find_chromium()
    if binary is None:
        print("replay_screenshots: no Chromium here (apt-get install chromium)", file=sys.stderr)
        return 2
    results = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile, Chromium(binary, Path(profile), size=(1200, 860)) as browser:
        for game, steps in STEPS.items():
            rows = [m for m in results["matches"] if m["game"] == game and m.get("page")]
            rows.sort(key=lambda m: ("local/" not in " ".join(m["agents"]), m["match_id"]))  # a model's match first
            if not rows:
                print(f"replay_screenshots: no {game} match in {report_dir}", file=sys.stderr)
                continue
            browser.open(report_dir / rows[0]["page"])
            deadline = time.monotonic() + 30  # the page unpacks its replay after loading
            while browser.evaluate("document.body.getAttribute('data-replay')") != "ready" and time.monotonic() < deadline:
                time.sleep(0.05)
            for _ in range(steps):
                browser.press("ArrowRight")
            path = browser.screenshot(out / f"replay-{game}.png")
            print(f"wrote {path} ({rows[0]['test_id']}, step {steps + 1})")
        if browser.errors:
            print("replay_screenshots: script errors: " + "; ".join(browser.errors), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(Path(sys.argv[1]), Path(sys.argv[2])))
