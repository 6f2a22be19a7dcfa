"""The page of a run: started with the run (``--human-web``, or by ``stratbench play``), stopped with it.

One page serves every match of the run, one after another. The human agent
finds the run's table with :func:`active_table`; without a page it plays in
the terminal.
"""

from __future__ import annotations

import sys
import webbrowser
from typing import Any

import pytest

from stratbench.human_web.server import HumanWebServer, PortInUse
from stratbench.human_web.table import HumanTable

PLUGIN_NAME = "stratbench-human-web"

_active: HumanWebRun | None = None


def active_table() -> HumanTable | None:
    """The table of the page this process serves, or None (no page: the human plays in the terminal)."""
    return None if _active is None else _active.table


class HumanWebRun:
    """The page's server for one run, as a pytest plugin (stopped at ``pytest_unconfigure``).

    Args:
        port: The port on 127.0.0.1 (0: a free one).
        idle_timeout: ``--human-timeout``: seconds a decision waits for a move before the person forfeits.
        open_browser: Whether to open the page in the default browser.

    Raises:
        PortInUse: when the port cannot be bound.
    """

    def __init__(self, port: int = 0, idle_timeout: float = 600.0, open_browser: bool = True) -> None:
        self.table = HumanTable(idle_timeout=idle_timeout)
        self.server = HumanWebServer(self.table, port)
        self.open_browser = open_browser
        self._announced = False

    @property
    def url(self) -> str:
        """The page's address, with its token."""
        return self.server.url

    def start(self) -> HumanWebRun:
        """Serves the page and makes it the process's (:func:`active_table`)."""
        global _active
        self.server.start()
        _active = self
        return self

    def announce(self, write: Any = None) -> None:
        """Prints the page's address (once) and opens it unless told not to."""
        if self._announced:
            return
        self._announced = True
        line = f"stratbench: play at {self.url}"
        if write is not None:
            write(line)
        else:
            print(line, file=sys.stderr, flush=True)
        if self.open_browser:
            webbrowser.open(self.url)

    def stop(self) -> None:
        """Stops the page (any wait for a move ends); the process has no page afterwards."""
        global _active
        self.server.stop()
        if _active is self:
            _active = None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        self.announce(reporter.write_line if reporter is not None else None)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.stop()


def start_for_run(config: pytest.Config) -> None:
    """Starts the run's page for ``--human-web`` (unless ``stratbench play`` started it already).

    Raises:
        pytest.UsageError: when ``--human-port`` cannot be bound.
    """
    if _active is not None:  # stratbench play started it (and registered it as a plugin)
        return
    try:
        web = HumanWebRun(config.getoption("human_port"), config.getoption("human_timeout"),
                          open_browser=not config.getoption("human_no_browser"))
    except PortInUse as error:
        raise pytest.UsageError(f"stratbench: {str(error).replace('--port', '--human-port', 1)}") from None
    config.pluginmanager.register(web.start(), PLUGIN_NAME)
