"""A headless Chromium driven over the DevTools protocol on a pipe (no extra packages).

Used by the browser tests and ``scripts/replay_screenshots.py``:
open a ``file://`` page, press keys as a user would (``Input.dispatchKeyEvent``),
evaluate expressions, collect script errors and console errors, take
screenshots. Chromium is started with ``--remote-debugging-pipe``: commands
go to its file descriptor 3 and answers come from 4, each a JSON text ended by
a NUL byte.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

__all__ = ["Chromium", "dump_dom", "find_chromium"]

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


def find_chromium() -> str | None:
    """The Chromium binary on this machine (Debian's ``chromium`` first), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def dump_dom(binary: str, page: Path, *, profile: Path, virtual_time_ms: int | None = None,
             timeout: float = 90.0) -> tuple[str, str]:
    """Loads a ``file://`` page in a one-shot headless Chromium; returns the DOM after load and the browser's log.

    Args:
        binary: The browser executable.
        page: The page to load.
        profile: An empty directory for the browser's profile.
        virtual_time_ms: Virtual time the page's scripts get before the DOM is read (None: until load).
        timeout: Seconds the browser may take.

    Returns:
        The serialised DOM, and the browser's stderr with the page's console messages in it.

    Raises:
        RuntimeError: The browser failed, or printed no document.
    """
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}"]
    if virtual_time_ms is not None:
        command.append(f"--virtual-time-budget={virtual_time_ms}")
    command += ["--dump-dom", page.resolve().as_uri()]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)  # noqa: S603
    if result.returncode != 0 or "<html" not in result.stdout:
        raise RuntimeError(f"chromium --dump-dom {page}: exit {result.returncode}: {result.stderr[-2000:]}")
    return result.stdout, result.stderr


class Chromium:
    """One headless Chromium process with one page attached.

    Args:
        binary: The browser executable.
        profile: An empty directory for the browser's profile.
        size: The window's width and height in pixels.
        timeout: Seconds to wait for any answer or event.
    """

    def __init__(self, binary: str, profile: Path, *, size: tuple[int, int] = (1200, 900),
                 timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.errors: list[str] = []
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our commands, its fd 4 writes the answers
            high_read, high_write = os.dup(commands_read), os.dup(answers_write)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(  # noqa: S603 - a fixed argument list, no shell
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
             "--disable-background-networking", "--disable-component-update", "--disable-extensions",
             f"--window-size={size[0]},{size[1]}", f"--user-data-dir={profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # fds 3 and 4 (set by wire, before the other fds are closed) reach the browser and nothing else of
            # this process does (an xdist worker's channel to its controller, say); its own session keeps any
            # signal the browser sends its process group away from this one
            preexec_fn=wire, pass_fds=(3, 4), start_new_session=True,  # noqa: PLW1509
        )
        os.close(commands_read)
        os.close(answers_write)
        self._context: str | None = None
        self._target: str | None = None
        self.session = ""
        self.new_page()

    def new_page(self) -> None:
        """Puts a fresh page in the place of the current one, in a browser context of its own (no cookies,
        storage or cache carried over); the errors and events seen so far are dropped."""
        context = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        old_context, old_target = self._context, self._target
        self._context, self._target, self.session = context, target, session
        if old_target is not None:
            self.send("Target.closeTarget", targetId=old_target)
        if old_context is not None:
            self.send("Target.disposeBrowserContext", browserContextId=old_context)
        self.errors = []
        self._events = []
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=True)

    def send(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Sends one command and returns its result (raises RuntimeError on a protocol error)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode("utf-8") + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._note(answer)

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise RuntimeError(f"Chromium closed its pipe (exit status {self.process.poll()})")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(text)

    def _note(self, event: dict[str, Any]) -> None:
        """Keeps events; script exceptions, console errors and error log entries go to :attr:`errors`."""
        self._events.append(event)
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.errors.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.errors.append(params["entry"].get("text", "error"))

    def _wait_for(self, method: str) -> dict[str, Any]:
        for index, event in enumerate(self._events):
            if event.get("method") == method:
                return self._events.pop(index)
        while True:
            event = self._read()
            self._note(event)
            if event.get("method") == method:
                self._events.remove(event)
                return event

    def open(self, page: Path) -> None:
        """Loads a local file and waits for its load event."""
        self._events = [e for e in self._events if e.get("method") != "Page.loadEventFired"]
        self.send("Page.navigate", session=True, url=page.resolve().as_uri())
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """Evaluates a JavaScript expression in the page and returns its JSON value."""
        result = self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def press(self, key: str) -> None:
        """Presses and releases a key (``ArrowRight``, ``ArrowLeft``, ``Home``, ``End``)."""
        code = KEYS[key]
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def screenshot(self, path: Path) -> Path:
        """Writes a PNG of the page's viewport."""
        data = self.send("Page.captureScreenshot", session=True, format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Closes the browser (killing it when it does not quit)."""
        try:
            self.send("Browser.close")
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
