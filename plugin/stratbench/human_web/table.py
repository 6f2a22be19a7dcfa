"""What the page and the match share: the decision the person is asked, the move the page sends back.

The match's agent calls :meth:`HumanTable.ask` (in a worker thread) and waits;
the server's threads call :meth:`HumanTable.view` for each poll and
:meth:`HumanTable.submit` for each move. A move is checked before the agent
gets it (the decision's ``check``): a refused one goes back to the page with
the reason and the person tries again. A decision takes one move: the first
accepted is played, and any later submission for it is refused
(:class:`DecisionAnswered`), however many arrive at once. Waiting ends in a forfeit
(:class:`~stratbench.core.types.AgentForfeit`) when the page has not polled
for :data:`PAGE_GONE_S` seconds after its first poll (the page was closed) or
when no move came within the idle timeout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.types import Action, AgentForfeit, HarnessError

PAGE_GONE_S = 30.0
"""Seconds without a poll after which an open page counts as closed (the page polls every second)."""


class DecisionAnswered(Exception):
    """A move submitted for a decision that already took one (a second click, a second tab)."""


@dataclass
class Decision:
    """One decision asked of the person.

    Attributes:
        number: Counts the decisions of the run (the page sends it back with its move).
        view: What the page shows for it (JSON-safe).
        check: Reads the page's text as an action, raising ``ActionParseError`` or ``IllegalActionError``
            with the reason shown on the page.
    """

    number: int
    view: dict[str, Any]
    check: Callable[[str], Action]
    answer: Action | None = None


@dataclass
class HumanTable:
    """The shared state of one page (one person, one match at a time).

    Attributes:
        idle_timeout: Seconds a decision may wait for a move before the person forfeits.
        page_gone_s: Seconds without a poll after which the page counts as closed.
    """

    idle_timeout: float = 600.0
    page_gone_s: float = PAGE_GONE_S
    match: dict[str, Any] = field(default_factory=dict)
    finished: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    _decision: Decision | None = None
    _count: int = 0
    _last_poll: float | None = None
    _changed: threading.Condition = field(default_factory=threading.Condition)
    _one_at_a_time: threading.Lock = field(default_factory=threading.Lock)
    _ended: set[str] = field(default_factory=set)
    _answered: set[int] = field(default_factory=set)

    def begin_match(self, key: str, match: dict[str, Any]) -> None:
        """Shows match ``key`` (its game, the person's seat, the players); a key already shown is kept."""
        with self._changed:
            if self.match.get("key") != key:
                self.match = {**match, "key": key}

    def end_match(self, key: str, summary: dict[str, Any]) -> None:
        """Shows how match ``key`` ended (kept in the page's list of finished matches), once."""
        with self._changed:
            if key in self._ended:
                return
            self._ended.add(key)
            self.finished.append({**self.match, **summary, "key": key})
            self._changed.notify_all()

    def ask(self, view: dict[str, Any], check: Callable[[str], Action],
            given_up: threading.Event | None = None) -> Action:
        """Waits for the person's checked move for ``view``.

        One decision at a time: a person seated for several players at once waits their turns.

        Raises:
            AgentForfeit: when the page was closed or no move came within :attr:`idle_timeout`.
            HarnessError: when the page was shut down while waiting (the run ends), or when the match gave
                the decision up (``given_up`` set: its time ran out).
        """
        with self._one_at_a_time, self._changed:
            self._count += 1
            decision = Decision(self._count, {**view, "decision": self._count}, check)
            self._decision = decision
            started = time.monotonic()
            try:
                while decision.answer is None:
                    if self.closed:
                        raise HarnessError("the human's page was shut down while a move was awaited")
                    if given_up is not None and given_up.is_set():
                        raise HarnessError("the match gave up waiting for the human's move")
                    now = time.monotonic()
                    if now - started >= self.idle_timeout:
                        raise AgentForfeit(f"no move within --human-timeout {self.idle_timeout:g} s")
                    if self._last_poll is not None and now - self._last_poll >= self.page_gone_s:
                        raise AgentForfeit(f"the page was closed (no poll for {self.page_gone_s:g} s)")
                    self._changed.wait(timeout=0.25)
                return decision.answer
            finally:
                if self._decision is decision:
                    self._decision = None

    def submit(self, number: int, text: str) -> tuple[bool, str]:
        """Takes the page's move for decision ``number``; returns (accepted, the reason when refused).

        Raises:
            DecisionAnswered: when decision ``number`` took a move already (only the first one counts).
        """
        with self._changed:
            if number in self._answered:
                raise DecisionAnswered(f"decision {number} was already answered: only the first move sent for it "
                                       "is played")
            decision = self._decision
            if decision is None or decision.number != number:
                return False, "no move is awaited for this decision now (it timed out, or is not asked yet)"
            try:
                action = decision.check(text)
            except ValueError as error:  # ActionParseError, IllegalActionError
                return False, str(error) or type(error).__name__
            decision.answer = action
            self._answered.add(number)
            self._changed.notify_all()
            return True, ""

    def view(self) -> dict[str, Any]:
        """What a poll returns: the match, the decision awaited (or None), the finished matches."""
        with self._changed:
            self._last_poll = time.monotonic()
            decision = self._decision
            return {
                "match": self.match,
                "decision": None if decision is None else decision.view,
                "finished": list(self.finished),
                "closed": self.closed,
            }

    def close(self) -> None:
        """Ends every wait (the run is over)."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()
