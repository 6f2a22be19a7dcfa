"""The live progress line of a run (``--progress S``, every 10 s by default): matches done of all, in flight, model use so far, time left.

Every S seconds while matches are in play the controller writes one line::

    stratbench: progress: 3/16 matches done, 4 in flight; 58 model calls, 41,208 tokens, 0.0312 USD; 0:36 elapsed,
    about 2:24 left

A match is *done* when its record reached the results (or, in one process, its
play finished ahead of its item); *in flight* when it started and is not done.
Model use counts every completed call of this process (one process), or of the
finished matches (under xdist, whose workers report a match when it ends). Time
left is the elapsed time per done match times the matches left (none before the
first). A line is written only when something changed or a minute passed, never
under ``-q``, and each on its own line (a letter line is ended first), so a log
that is not a terminal gets plain lines.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

__all__ = ["Progress", "line_writer", "progress_line"]


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_line(done: int, total: int, in_flight: int, calls: int, tokens: int, cost: float | None,
                  elapsed: float) -> str:
    """The progress line (see the module's docstring); ``cost`` None: no call was priced."""
    line = f"stratbench: progress: {done}/{total} matches done, {in_flight} in flight"
    if calls:
        spent = "unpriced" if cost is None else f"{cost:.4f} USD"
        line += f"; {calls} model call(s), {tokens:,} tokens, {spent}"
    line += f"; {_clock(elapsed)} elapsed"
    if done and done < total:
        line += f", about {_clock(elapsed / done * (total - done))} left"
    return line


def line_writer(config: Any, terminal: Any) -> Any:
    """Returns ``write(line) -> bool``: the line on the terminal, on a line of its own, from any thread; under
    ``-v``, where a test's name waits on its line for its status, nothing is written mid-line (False).

    While a test of this process runs, pytest captures its standard output at the file descriptor; a line
    written then goes to the terminal pytest saved before capturing (its duplicate of descriptor 1), not into
    the match's captured output. Under ``-s`` and on an xdist controller (no test runs there) the terminal
    reporter's own writer is used.
    """
    capture = config.pluginmanager.getplugin("capturemanager")
    fd_capture = getattr(getattr(capture, "_global_capturing", None), "out", None)
    saved = getattr(fd_capture, "targetfd_save", None)  # pytest's dup of the terminal's descriptor (fd capture)
    writer = getattr(terminal, "_tw", None)
    lock = threading.Lock()

    verbose = config.getoption("verbose") > 0

    def write(line: str) -> bool:
        with lock:
            midline = bool(getattr(writer, "width_of_current_line", 0))
            if midline and verbose:  # a test's name waits for its status: never split that line (next tick)
                return False
            ahead = "\n" if midline else ""  # end a line of status letters
            if isinstance(saved, int):
                os.write(saved, f"{ahead}{line}\n".encode("utf-8", "replace"))
            else:
                terminal.write(ahead)
                terminal.write_line(line)
            return True

    return write


class Progress:
    """Writes the progress line from a daemon thread while the run plays (the controller's).

    Args:
        write: Writes one line (:func:`line_writer`).
        interval_s: Seconds between lines.
        state: Returns ``(done, total, in_flight, calls, tokens, cost or None)`` when called.
    """

    def __init__(self, write: Any, interval_s: float, state: Any) -> None:
        self.write, self.interval_s, self.state = write, interval_s, state
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: tuple[Any, ...] | None = None
        self._last_at = 0.0

    def start(self) -> None:
        """Starts the thread (once)."""
        if self._thread is None:
            self.started = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="stratbench-progress", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stops the thread; no line is written after this returns."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                state = tuple(self.state())
            except Exception:  # a count read mid-update: the next tick reads it again
                continue
            now = time.monotonic()
            done, total = state[0], state[1]
            if total == 0 or done >= total or (state == self._last and now - self._last_at < 60):
                continue
            if self._stop.is_set():
                return
            if self.write(progress_line(*state, elapsed=now - self.started)) is not False:
                self._last, self._last_at = state, now
