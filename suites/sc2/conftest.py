"""The StarCraft II suites need pysc2 (``pip install 'pytest-stratbench[sc2]'``).

Without it (or when protobuf was loaded with a compiled backend first) none of
this folder is collected, and the run ends with one line saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_skipped: list[str] = []


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leaves this folder out when pysc2 cannot be used here."""
    from stratbench.games.sc2.pysc2_compat import unavailable_reason

    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    reason = unavailable_reason()
    if reason is None:
        return None
    if not _skipped:
        _skipped.append(reason)
    return True


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Says, in one line, that the StarCraft II suites were skipped and why."""
    if _skipped:
        terminalreporter.write_line(f"stratbench: StarCraft II suites skipped: {_skipped[0]}", yellow=True)
