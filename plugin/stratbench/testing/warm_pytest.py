"""Pytest runs for tests, each a process of its own, forked from one that has already imported the plugin.

A test that checks what a user's ``pytest`` run prints and writes starts one in a child process. A
fresh interpreter spends seconds importing pytest, its plugins, stratbench's families and litellm
before the run begins, and a test suite starts hundreds of such runs. :class:`WarmStarter` keeps a
*starter* process that imports them once, and forks a copy of it for each run: the run is still a
process of its own, with its own working folder, environment, arguments, standard streams and exit
status, and it starts in milliseconds. The ``stratbench`` command (``python -m stratbench.cli``) runs the same
way (:func:`run_module`).

What a forked run cannot show is what a fresh interpreter imports, or how long that takes: a test
about import cost or start-up keeps a cold start (see ``tests/conftest.py``'s ``cold_pytest`` mark).

The starter speaks one JSON line per request on its standard input and answers on its standard
output: ``{"pid": N}`` when the run has started, then ``{"status": S}`` when it has ended (an exit
code, or minus the number of the signal that ended it, as :class:`subprocess.Popen` reports it).
It serves one run at a time; :class:`WarmStarter` keeps a starter per run in flight.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PRELOAD = (
    "pytest",
    "xdist.plugin",
    "xdist.looponfail",
    "stratbench.plugin",
    "stratbench.families",
    "stratbench.match.fixture",
    "stratbench.llm.client",
    "stratbench.report.render",
    "stratbench.report.analysis",
    "stratbench.rating.bootstrap",
    "litellm",
    "vcr",
)
"""What the starter imports before it forks: pytest with xdist, the plugin and its families, and litellm."""

LITELLM_ENVIRONMENT = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR"}
"""The environment stratbench gives litellm before importing it (stratbench.llm.litellm_env), set in the starter
before its imports so that they read what a run's own import would."""


def _preload() -> frozenset[str]:
    """Imports :data:`PRELOAD` (those installed) and returns the names of every module then loaded."""
    for name, value in LITELLM_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    _warm_up()
    return frozenset(sys.modules)


def _warm_up() -> None:
    """Does once what every run would: the families' registrations (their game modules) and the report's templates."""
    from stratbench.families import (
        standalone_registry,  # setup: after litellm's environment, in the starter only
    )
    from stratbench.report import (
        render,  # setup: after litellm's environment, in the starter only
    )

    standalone_registry()
    environment = render._environment()
    for name in environment.list_templates(extensions=["j2"]):
        environment.get_template(name)
    render._replay_script()


def _child_sys_path(base: list[str], cwd: str, env: dict[str, str]) -> list[str]:
    """The module search path of ``python -m pytest`` started in ``cwd`` with ``env``."""
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return [cwd, *extra, *base]


def _exit_status(stop: SystemExit) -> int:
    """The exit status Python gives a process ended by ``stop`` (its message, if not a number, goes to stderr)."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def _run_child(request: dict[str, Any], base_path: list[str], preloaded: frozenset[str]) -> None:
    """Becomes the requested pytest run (in the forked child); ends the process with its exit status."""
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[:] = _child_sys_path(base_path, request["cwd"], request["env"])
    import pytest  # lean: already loaded by the starter; a test process that only asks for runs never needs it
    from _pytest.assertion.rewrite import AssertionRewritingHook  # lean: as above

    warn_already_imported = AssertionRewritingHook._warn_already_imported

    def _warn_unless_preloaded(self: AssertionRewritingHook, name: str) -> None:
        # A module the starter imported is one a fresh run would have rewritten: nothing to warn about.
        if name not in preloaded:
            warn_already_imported(self, name)

    AssertionRewritingHook._warn_already_imported = _warn_unless_preloaded  # type: ignore[method-assign]
    module = request.get("module", "pytest")
    try:
        if module == "pytest":
            sys.argv = [str(Path(pytest.__file__).with_name("__main__.py")), *request["args"]]
            code = pytest.console_main()
        else:
            sys.argv = [module, *request["args"]]  # runpy puts the module's file first, as ``python -m`` does
            sys.modules.pop(module, None)  # ``python -m`` runs it as __main__ in a process that never imported it
            runpy.run_module(module, run_name="__main__", alter_sys=True)
            code = 0
    except SystemExit as stop:
        code = _exit_status(stop)
    # What a fresh interpreter does at its end, short of tearing down every module the starter imported
    # (seconds for litellm's): wait for the run's threads, then run its exit handlers and flush its streams.
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def serve() -> None:
    """The starter's loop: one request a line on standard input, answers on standard output."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    os.close(devnull)
    base_path = [p for p in sys.path[1:] if p not in os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    preloaded = _preload()
    gc.freeze()  # what the starter holds is never collected in a run: no copy of its pages for the collector
    answers.write(json.dumps({"ready": True}) + "\n")
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            answers.close()
            _run_child(request, base_path, preloaded)
        answers.write(json.dumps({"pid": pid}) + "\n")
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        answers.write(json.dumps({"status": code}) + "\n")


class _Starter:
    """One starter process, serving one run at a time."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from stratbench.testing.warm_pytest import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0,
        )
        self._pending = b""  # answers read but not yet taken: a quick run's two lines can arrive in one read
        ready = self._answer(timeout=300)
        if not ready.get("ready"):
            raise RuntimeError(f"the warm pytest starter did not start: {ready}")

    def _answer(self, timeout: float | None) -> dict[str, Any]:
        """The starter's next answer line (TimeoutExpired when none is complete within ``timeout`` seconds)."""
        assert self.process.stdout is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            if deadline is not None:
                readable, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
                if not readable:
                    raise subprocess.TimeoutExpired("warm pytest", timeout)
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError(f"the warm pytest starter ended (status {self.process.poll()})")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return json.loads(line)

    def start(self, request: dict[str, Any]) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(request) + "\n").encode("utf-8"))
        return int(self._answer(timeout=60)["pid"])

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class WarmProcess:
    """A forked pytest run, with the part of :class:`subprocess.Popen` that pytester uses."""

    stdin = None
    stdout = None
    stderr = None

    def __init__(self, starter: _Starter, pid: int, release: Any) -> None:
        self._starter = starter
        self._release = release
        self.pid = pid
        self.returncode: int | None = None
        self.args = None

    def poll(self) -> int | None:
        """The exit status, or None while the run goes on."""
        if self.returncode is None:
            try:
                self._finish(0)
            except subprocess.TimeoutExpired:
                return None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Waits for the run to end and returns its exit status (TimeoutExpired past ``timeout``)."""
        if self.returncode is None:
            self._finish(timeout)
        assert self.returncode is not None
        return self.returncode

    def _finish(self, timeout: float | None) -> None:
        answer = self._starter._answer(timeout)
        self.returncode = int(answer["status"])
        self._release(self._starter)

    def send_signal(self, sig: int) -> None:
        """Sends ``sig`` to the run (nothing once it has ended)."""
        if self.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def __enter__(self) -> WarmProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.wait()


class WarmStarter:
    """Starts pytest runs by forking a process that has imported pytest, the plugin and litellm.

    Starters are created on first use, one per run in flight, and ended by :meth:`close`. ``env`` is the
    environment a starter imports under (by default this process's at the first run); each run gets its own.
    """

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self._env = None if env is None else dict(env)
        self._idle: list[_Starter] = []
        self._all: list[_Starter] = []
        self._lock = threading.Lock()

    def _take(self) -> _Starter:
        with self._lock:
            while self._idle:
                starter = self._idle.pop()
                if starter.process.poll() is None:
                    return starter
        env = dict(os.environ if self._env is None else self._env)
        env.pop("PYTEST_ADDOPTS", None)
        env.pop("PYTEST_PLUGINS", None)
        starter = _Starter(env)
        with self._lock:
            self._all.append(starter)
        return starter

    def _release(self, starter: _Starter) -> None:
        with self._lock:
            self._idle.append(starter)

    def popen(self, args: list[str], *, cwd: str | os.PathLike[str], env: dict[str, str],
              stdout: str | os.PathLike[str], stderr: str | os.PathLike[str], module: str = "pytest") -> WarmProcess:
        """Starts ``python -m MODULE ARGS`` (pytest by default) in ``cwd`` with exactly ``env``, its streams appended
        to the two files."""
        starter = self._take()
        request = {"args": [os.fspath(a) for a in args], "cwd": os.fspath(cwd), "env": dict(env),
                   "stdout": os.fspath(stdout), "stderr": os.fspath(stderr), "module": module}
        try:
            pid = starter.start(request)
        except BaseException:
            starter.close()
            raise
        return WarmProcess(starter, pid, self._release)

    def run(self, args: list[str], *, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None,
            timeout: float | None = None, module: str = "pytest") -> subprocess.CompletedProcess[str]:
        """Runs ``pytest ARGS`` to its end, like ``subprocess.run([python, "-m", "pytest", ...], capture_output=True,
        text=True)``; raises :class:`subprocess.TimeoutExpired` (after killing it) past ``timeout``."""
        with tempfile.TemporaryDirectory(prefix="warm-pytest-") as folder:
            out, err = Path(folder, "stdout"), Path(folder, "stderr")
            out.touch()
            err.touch()
            process = self.popen(args, cwd=os.getcwd() if cwd is None else cwd,
                                 env=dict(os.environ if env is None else env), stdout=out, stderr=err, module=module)
            try:
                status = process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise
            command = [sys.executable, "-m", module, *map(os.fspath, args)]
            return subprocess.CompletedProcess(command, status, out.read_text(encoding="utf-8", errors="replace"),
                                               err.read_text(encoding="utf-8", errors="replace"))

    def close(self) -> None:
        """Ends every starter."""
        with self._lock:
            starters, self._all, self._idle = self._all, [], []
        for starter in starters:
            starter.close()



_shared: WarmStarter | None = None
_shared_lock = threading.Lock()


def cold_requested() -> bool:
    """Whether ``STRATBENCH_COLD_PYTEST=1`` asks every run to start a fresh interpreter instead."""
    return os.environ.get("STRATBENCH_COLD_PYTEST") == "1"


def shared_starter() -> WarmStarter:
    """This process's starter, made on first use (its environment: this process's then) and ended at exit."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = WarmStarter(env=dict(os.environ))
            atexit.register(_shared.close)
        return _shared


def run_pytest(args: list[str], *, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None,
               timeout: float | None = None, cold: bool = False) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m pytest ARGS`` in ``cwd`` and captures its output as text: forked from the shared starter,
    or in a fresh interpreter when ``cold`` (or STRATBENCH_COLD_PYTEST=1) says so."""
    return run_module("pytest", args, cwd=cwd, env=env, timeout=timeout, cold=cold)


def run_module(module: str, args: list[str], *, cwd: str | os.PathLike[str] | None = None,
               env: dict[str, str] | None = None, timeout: float | None = None,
               cold: bool = False) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m MODULE ARGS`` (``stratbench.cli``, pytest) as :func:`run_pytest` runs pytest."""
    if cold or cold_requested():
        return subprocess.run([sys.executable, "-m", module, *map(os.fspath, args)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout, check=False)
    return shared_starter().run(list(args), cwd=cwd, env=env, timeout=timeout, module=module)
