"""What the page and the match share: the decision the person is asked, the move the page sends back.

The match's agent calls :meth:`HumanTable.ask` (in a worker thread) and waits;
the server's threads call :meth:`HumanTable.view` for each poll and
:meth:`HumanTable.submit` for each move. A move is checked before the agent
gets it (the decision's ``check``): a refused one goes back to the page with
the reason and the person tries again. A decision takes one move: the first
accepted is played, and any later submission for it is refused
(:class:`DecisionAnswered`), however many arrive at once. Waiting ends in a forfeit
(:class:`~stratbench.core.types.AgentForfeit`) when the page has not polled
for :data:`PAGE_GONE_S` seconds after its first poll (the reason says so:
:data:`PAGE_LEFT`) or when no move came within the idle timeout; each poll
tells the seconds left (the page's countdown).

When the run is over (:meth:`HumanTable.close`) the table keeps the finished
matches for the page, and :meth:`HumanTable.wait_until_shown` lets the run
wait until the page has fetched that final state.
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

PAGE_LEFT = "the page stopped polling: the person left the game"
"""The reason of the forfeit of a person whose page went away (closed, or its tab stopped)."""

LATEST_ONLY = ("board", "moves", "last_other")
"""What the page shows of the latest finished match only (a poll carries every finished match)."""


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
    started: float = field(default_factory=time.monotonic)


@dataclass
class HumanTable:
    """The shared state of one page (one person, one match at a time).

    Attributes:
        idle_timeout: Seconds a decision may wait for a move before the person forfeits.
        page_gone_s: Seconds without a poll after which the page counts as closed.
        seat_labels: The agent label of each side, by match id (the run's collected matches), so the page
            names the opponents.
    """

    idle_timeout: float = 600.0
    page_gone_s: float = PAGE_GONE_S
    match: dict[str, Any] = field(default_factory=dict)
    finished: list[dict[str, Any]] = field(default_factory=list)
    seat_labels: dict[str, list[str]] = field(default_factory=dict)
    closed: bool = False
    _decision: Decision | None = None
    _count: int = 0
    _last_poll: float | None = None
    _shown_closed: bool = False
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
        """Shows how match ``key`` ended (kept in the page's list of finished matches, the final position of
        the latest only), once."""
        with self._changed:
            if key in self._ended:
                return
            self._ended.add(key)
            self.finished = [{k: v for k, v in earlier.items() if k not in LATEST_ONLY} for earlier in self.finished]
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
                        raise AgentForfeit(f"{PAGE_LEFT} (no poll for {self.page_gone_s:g} s)")
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
        """What a poll returns: the match, the decision awaited (or None, else with ``seconds_left``: the time
        left for it before the person forfeits), the finished matches, and whether the run is over."""
        with self._changed:
            self._last_poll = now = time.monotonic()
            decision = self._decision
            if self.closed and not self._shown_closed:
                self._shown_closed = True
                self._changed.notify_all()
            shown = None
            if decision is not None:
                left = max(0.0, self.idle_timeout - (now - decision.started))
                shown = {**decision.view, "seconds_left": round(left, 1), "timeout_s": self.idle_timeout}
            return {
                "match": self.match,
                "decision": shown,
                "finished": list(self.finished),
                "closed": self.closed,
            }

    def watched(self, within: float) -> bool:
        """Whether a page polled in the last ``within`` seconds (someone has it open)."""
        with self._changed:
            return self._last_poll is not None and time.monotonic() - self._last_poll < within

    def close(self) -> None:
        """Ends every wait (the run is over); the finished matches stay for the page to show."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait_until_shown(self, timeout: float) -> bool:
        """After :meth:`close`: waits until the page has fetched the closed state (True), or ``timeout`` seconds
        (False)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not self._shown_closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(timeout=min(left, 0.25))
            return True
