"""An xdist worker whose controller is gone stops after its current match and exits quietly.

A worker journals every match it finishes before reporting it (see
:class:`~stratbench.run.results.WorkerJournal`). When the controller dies (kill -9),
the worker's link to it breaks: every report xdist then sends raises
``OSError: cannot send`` (the last one shown as a ``PluggyTeardownRaisedWarning``),
and execnet, 5 seconds after it saw the link close, interrupts the worker with
SIGINT wherever it is (then ends it 10 seconds later). Watched by
:func:`watch_controller`, a worker whose controller is gone sends nothing more,
takes that SIGINT as the cue to stop after the match it is playing (journaled
like the others, when it ends in time), and ends without a word; the next run in
the same report directory folds its journal into the results. A SIGINT while the
controller lives (Ctrl-C) keeps its usual meaning.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

import pytest

CONTROLLER_GONE = "stratbench: the xdist controller is gone; this worker stops after journalling its finished matches"


def watch_controller(config: pytest.Config) -> bool:
    """Makes this xdist worker stop quietly once its controller is gone.

    Returns:
        Whether the worker's link to the controller was found (False outside an xdist worker).
    """
    interactor = _worker_interactor(config)
    if interactor is None:
        return False
    channel = interactor.channel
    send = interactor.sendevent
    parent = os.getppid()
    lost: list[str] = []  # set once a report could not be sent

    def gone() -> bool:
        factory = getattr(channel.gateway, "_channelfactory", None)
        return bool(lost) or channel.isclosed() or getattr(factory, "finished", False) or os.getppid() != parent

    def stop() -> None:
        session = getattr(interactor, "session", None)
        if session is not None and not session.shouldstop:
            session.shouldstop = CONTROLLER_GONE

    def sendevent(name: str, **kwargs: Any) -> None:
        if not lost and not channel.isclosed():
            try:
                send(name, **kwargs)
                return
            except OSError:  # execnet's "cannot send (already closed?)": the pipe to the controller broke
                pass
        lost.append(name)
        stop()

    interactor.sendevent = sendevent
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)

        def on_interrupt(signum: int, frame: Any) -> None:
            if gone():
                stop()  # execnet's nudge to finish: the current match may still end and be journaled
                return
            if callable(previous):
                previous(signum, frame)
            elif previous != signal.SIG_IGN:
                raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_interrupt)
    return True


def _worker_interactor(config: pytest.Config) -> Any | None:
    """Returns xdist's worker-side plugin that talks to the controller (its channel and ``sendevent``), or None."""
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and hasattr(plugin, "channel") and hasattr(plugin, "sendevent"):
            return plugin
    return None
