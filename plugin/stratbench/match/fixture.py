"""The ``match`` fixture: the scheduled match a suite test plays, and its ``play()``."""

from __future__ import annotations

from typing import Any

import pytest

from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.types import HarnessError
from stratbench.llm.budget import BudgetExceeded
from stratbench.match.play import MatchFailure
from stratbench.redact import redact_text
from stratbench.run.results import ERRORED
from stratbench.run.session import PlayedMatch, StratbenchSession
from stratbench.stash import PLAYED_KEY, POOL_KEY, SESSION_KEY, UNSCORED_KEY


class Match:
    """The ``match`` fixture's value: one scheduled match, played by :meth:`play`."""

    def __init__(self, session: StratbenchSession, spec: MatchSpec, suite: SuiteSpec, item: pytest.Item) -> None:
        self.session = session
        self.spec = spec
        self.suite = suite
        self.item = item

    def play(self, **options: Any) -> PlayedMatch:
        """Plays the match and records its outcome on the test report.

        Args:
            **options: Extra agent options (for example ``human_input``).

        Returns:
            The played match: outcome, result record and transcript.
        """
        failure: MatchFailure | None = None
        pool = self.item.config.stash.get(POOL_KEY, None)
        nodeid = self.item.nodeid
        try:
            if pool is not None and pool.has(nodeid) and not options:
                played = pool.result(nodeid)
            else:
                if pool is not None:
                    pool.discard(nodeid)  # started without the options this test passes: play it again
                played = self.session.play(self.spec, self.suite, nodeid, options=options)
        except BudgetExceeded as error:
            pytest.skip(str(error))
        except Exception as error:
            failure = self.session.failures.pop(nodeid, None)
            if failure is None or failure.error is not error:
                raise
        if failure is not None:  # outside the except block: the failure line carries no exception chain
            record = self.session.unscored(self.spec, self.suite, self.item.nodeid, ERRORED, str(failure),
                                           fault=failure.fault, started=failure.started)
            self.item.stash[UNSCORED_KEY] = (record, failure.transcript)
            if failure.fault == "harness" and not isinstance(failure.error, HarnessError):
                raise failure.error  # a bug: keep its traceback
            pytest.fail(redact_text(f"{failure} [fault: {failure.fault}]"), pytrace=False)
        self.item.stash[PLAYED_KEY] = played
        return played


@pytest.fixture
def match(request: pytest.FixtureRequest) -> Match:
    """Provides the match a suite test plays (parametrised by the plugin)."""
    if not hasattr(request, "param"):
        pytest.fail("the 'match' fixture needs @pytest.mark.stratbench(game=...) on the test", pytrace=False)
    spec, suite = request.param
    session = request.config.stash[SESSION_KEY]
    if session.budget is not None and spec.uses_llm:
        try:
            session.budget.check()
        except BudgetExceeded as error:
            pytest.skip(str(error))
    if session.journal is not None:  # an xdist worker notes the start, so a crash still gets a record
        skeleton = session.unscored(spec, suite, request.node.nodeid, ERRORED, "started", fault="harness")
        session.beside_matches(session.journal.started, skeleton)
    return Match(session, spec, suite, request.node)
