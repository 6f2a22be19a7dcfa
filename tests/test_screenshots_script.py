"""scripts/screenshots.py imports, has a ``main``, and names the files the README links to."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "screenshots.py"


def test_the_screenshots_script_imports_and_names_its_three_files():
    spec = importlib.util.spec_from_file_location("screenshots_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(module.main)
    for name in ("screenshot-report.png", "screenshot-leaderboard.png", "screenshot-play.png"):
        assert name in module.__doc__
