"""Child processes of a match: started in a session of their own, killed with every process they started.

A planner search runs in a child process (:mod:`stratbench.games.spin.planning.planner_process`)
because only a process can be stopped whatever runs in it (tamer's C++, a
Java ENHSP that unified-planning starts in yet another session). Killing the
child alone would orphan those grandchildren, so :func:`kill_tree` first
stops (SIGSTOP) the child and then, level by level, every descendant it finds
in ``/proc``, so that none can start another, and then kills (SIGKILL) them
all, whatever session or process group they moved to.

A child is killed when its match's task is cancelled (the match's time limit,
or the match pool dropping it), and every child still alive when the run
ends is killed by :func:`kill_leftovers` (the session's close, and ``atexit``
for a process that exits another way). A child also asks the kernel to
signal it when its parent dies (:func:`die_with_parent`), so a killed pytest
leaves no planner behind either.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["children_by_parent", "die_with_parent", "kill_leftovers", "kill_tree", "live_children", "run_child", "run_child_sync"]

_LIVE: dict[int, str] = {}
"""Children started and not yet ended: pid -> what it runs."""
_LIVE_LOCK = threading.Lock()
_AT_EXIT = []  # one atexit registration, made on the first child


async def run_child(
    argv: Sequence[str], stdin: bytes, *, env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes]:
    """Runs ``argv`` in a new session, writes ``stdin`` to it, and returns (exit status, stdout, stderr).

    Cancelling the awaiting task kills the child's process tree (:func:`kill_tree`),
    as does any other way out of this function before the child has ended.
    """
    process = await asyncio.create_subprocess_exec(
        *argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        start_new_session=True,
    )
    _register(process.pid, argv)
    try:
        out, err = await process.communicate(stdin)
        return process.returncode if process.returncode is not None else -1, out, err
    finally:
        if process.returncode is None:  # cancelled (or failed) while it runs: it and everything it started
            kill_tree(process.pid)
            with contextlib.suppress(BaseException):  # reaped at once: it was killed
                await asyncio.shield(process.wait())
        _unregister(process.pid)


def run_child_sync(
    argv: Sequence[str], stdin: bytes, timeout_s: float, *, env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes] | None:
    """Like :func:`run_child`, blocking; returns None when the child ran past ``timeout_s`` (it is killed)."""
    process = subprocess.Popen(  # noqa: S603 - a fixed argument list, no shell
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        start_new_session=True,
    )
    _register(process.pid, argv)
    try:
        out, err = process.communicate(stdin, timeout=timeout_s)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        return None
    finally:
        if process.returncode is None:  # out of time (or interrupted): it and everything it started
            kill_tree(process.pid)
            process.communicate()
        _unregister(process.pid)


def kill_tree(pid: int) -> int:
    """Kills a process and all its descendants; returns how many were signalled.

    Each process found is stopped first, so none starts another while the
    tree is read; then all are killed. Descendants are found through
    ``/proc`` (Linux); elsewhere only the process's own group is killed.
    """
    found: list[int] = []
    frontier = [pid]
    while frontier:
        for each in frontier:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(each, signal.SIGSTOP)
                found.append(each)
        _wait_stopped(frontier)  # a signal is delivered later: a fork under way may yet add a child
        children = children_by_parent()
        frontier = [child for parent in frontier for child in children.get(parent, []) if child not in found]
    if not os.path.isdir("/proc"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    for each in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(each, signal.SIGKILL)
    return len(found)


def _wait_stopped(pids: Sequence[int], limit_s: float = 2.0) -> None:
    """Waits (up to ``limit_s``) until each process has stopped, ended or cannot be read (Linux ``/proc``)."""
    if not os.path.isdir("/proc"):
        return
    deadline = time.monotonic() + limit_s
    waiting = list(pids)
    while waiting and time.monotonic() < deadline:
        still = []
        for each in waiting:
            try:
                state = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("T", "t", "Z", "X"):
                still.append(each)
        waiting = still
        if waiting:
            time.sleep(0.001)


def live_children() -> dict[int, str]:
    """Returns the children started here that have not ended: pid -> what it runs."""
    with _LIVE_LOCK:
        return dict(_LIVE)


def kill_leftovers() -> list[str]:
    """Kills every child still alive, with its descendants; returns what each ran (for a warning)."""
    leftovers = live_children()
    for pid in leftovers:
        kill_tree(pid)
        _unregister(pid)
    return [leftovers[pid] for pid in sorted(leftovers)]


def die_with_parent() -> None:
    """In a child: asks the kernel for SIGTERM when the parent dies, and then kills this process's tree.

    Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere nothing happens.
    """
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()

    def on_parent_death(signum: int, frame: object) -> None:
        for child in children_by_parent().get(os.getpid(), []):
            kill_tree(child)
        os._exit(1)

    signal.signal(signal.SIGTERM, on_parent_death)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the request was made
        on_parent_death(signal.SIGTERM, None)


def _register(pid: int, argv: Sequence[str]) -> None:
    with _LIVE_LOCK:
        _LIVE[pid] = " ".join(argv)
        if not _AT_EXIT:
            atexit.register(kill_leftovers)
            _AT_EXIT.append(True)


def _unregister(pid: int) -> None:
    with _LIVE_LOCK:
        _LIVE.pop(pid, None)


def children_by_parent() -> dict[int, list[int]]:
    """Maps each process to its children, read from ``/proc/<pid>/stat`` (empty where there is no /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return children
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children
