"""The page of a run: started with the run (``--human-web``, or by ``stratbench play``), stopped with it.

One page serves every match of the run, one after another. The human agent
finds the run's table with :func:`active_table`; without a page it plays in
the terminal. The page is told who plays each collected match (so it names
the opponents). When the run ends with a match played and the page open, the
page stays up until it has shown how the run ended (at most
:data:`SHOW_END_S` seconds; Ctrl-C ends it sooner), so the final position and
result stay on the person's screen.
"""

from __future__ import annotations

import shutil
import sys
import webbrowser
from pathlib import Path
from typing import Any

import pytest

from stratbench.core.schedule import MatchSpec
from stratbench.human_web.handoff import write_handoff
from stratbench.human_web.server import HumanWebServer, PortInUse
from stratbench.human_web.table import HumanTable

PLUGIN_NAME = "stratbench-human-web"

SHOW_END_S = 30.0
"""The longest the page stays up after the run, waiting for it to fetch the final state."""

WATCHED_S = 5.0
"""A page that polled within this many seconds is open: the run waits for it to show the end."""

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
        self.interrupted = False
        self._announced = False
        self._handoff: Path | None = None

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
        """Prints the page's address (once) and opens it unless told not to.

        The browser is opened on the hand-off file (:mod:`stratbench.human_web.handoff`), not on the address:
        a command line is there for every user of the machine to read, the person's terminal is not.
        """
        if self._announced:
            return
        self._announced = True
        line = f"stratbench: play at {self.url}"
        if write is not None:
            write(line)
        else:
            print(line, file=sys.stderr, flush=True)
        if self.open_browser:
            self._handoff = write_handoff(self.server.origin, self.server.token)
            webbrowser.open(self._handoff.as_uri())

    def show_the_end(self, grace_s: float = SHOW_END_S, write: Any = None) -> bool:
        """Ends the run on the page and, when a match was played and the page is open, keeps serving until the
        page has fetched the final state (at most ``grace_s`` seconds; Ctrl-C ends the wait). Returns whether
        the page showed it."""
        self.table.close()
        if self.interrupted or not self.table.finished or not self.table.watched(WATCHED_S):
            return False
        line = (f"stratbench: the page shows how the match ended; it stays up until the page has shown it (at most "
                f"{grace_s:g} s); Ctrl-C ends it now")
        (write or (lambda text: print(text, file=sys.stderr, flush=True)))(line)
        try:
            return self.table.wait_until_shown(grace_s)
        except KeyboardInterrupt:  # the person (or SIGTERM) ends the wait: the run is over anyway
            return False

    def stop(self) -> None:
        """Stops the page (any wait for a move ends) and removes the hand-off file; the process has no page
        afterwards."""
        global _active
        self.server.stop()
        if self._handoff is not None:
            shutil.rmtree(self._handoff.parent, ignore_errors=True)
            self._handoff = None
        if _active is self:
            _active = None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        self.announce(reporter.write_line if reporter is not None else None)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Tells the table who plays each collected match (its sides' agent labels, by match id)."""
        for item in items:
            callspec = getattr(item, "callspec", None)
            param = callspec.params.get("match") if callspec is not None else None
            if isinstance(param, tuple) and param and isinstance(param[0], MatchSpec):
                self.table.seat_labels[item.nodeid] = [side.label for side in param[0].sides]

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.interrupted = exitstatus == pytest.ExitCode.INTERRUPTED

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.show_the_end()
        self.stop()


def human_option_problem(agents: list[str], human_web: bool, human_port: int) -> str | None:
    """One line saying why the page's options cannot apply to a run of ``agents`` (``--stratbench-agent``), or
    None: ``--human-web`` and ``--human-port`` need a human seat, ``--human-port`` needs ``--human-web``."""
    given = [option for option, on in (("--human-web", human_web), (f"--human-port {human_port}", human_port))
             if on]
    human = [agent for agent in agents if agent == "human" or agent.startswith("human:")]  # run.config.is_human's
    if given and not human:  # rule (importing run.config here would close an import circle)
        return (f"{' '.join(given)}: the page is for a human seat, and no --stratbench-agent is human; add "
                "--stratbench-agent human (or human:NAME)")
    if human_port and not human_web:
        return f"--human-port {human_port}: the port of the page; add --human-web"
    return None


def start_for_run(config: pytest.Config) -> None:
    """Starts the run's page for ``--human-web`` (unless ``stratbench play`` started it already).

    Raises:
        pytest.UsageError: when the run has no human seat (:func:`human_option_problem`), or when
            ``--human-port`` cannot be bound.
    """
    if _active is not None:  # stratbench play started it (and registered it as a plugin)
        return
    problem = human_option_problem(list(config.getoption("stratbench_agent")), config.getoption("human_web"),
                                   config.getoption("human_port"))
    if problem is not None:
        raise pytest.UsageError(f"stratbench: {problem}")
    try:
        web = HumanWebRun(config.getoption("human_port"), config.getoption("human_timeout"),
                          open_browser=not config.getoption("human_no_browser"))
    except PortInUse as error:
        raise pytest.UsageError(f"stratbench: {str(error).replace('--port', '--human-port', 1)}") from None
    config.pluginmanager.register(web.start(), PLUGIN_NAME)
