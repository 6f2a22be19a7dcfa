"""Running ``stratbench play`` as a user does, and talking to its page over HTTP."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from stratbench.run.results import read_transcript

URL_LINE = re.compile(r"stratbench: play at (http://127\.0\.0\.1:\d+/)\?token=(\S+)")


class PlayProcess:
    """``stratbench play ARGS`` in a subprocess (run in ``folder``), with its page's address read from stderr.

    With ``browser`` (a command) the page opens in it (``$BROWSER``), else ``--no-browser``; ``env`` adds to the
    environment.
    """

    def __init__(self, folder: Path, *args: str, browser: str | None = None, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        command = [sys.executable, "-m", "stratbench.cli", "play", *args, *([] if browser else ["--no-browser"]),
                   "--report-dir", str(folder / "reports"), "--cassette-dir", str(folder / "cassettes")]
        self.process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**os.environ, "BROWSER": browser or "false", **(env or {})})
        self.stderr_head: list[str] = []
        self.base, self.token = "", ""
        for line in self.process.stderr:  # the address is the command's first line on stderr
            self.stderr_head.append(line)
            found = URL_LINE.search(line)
            if found:
                self.base, self.token = found.group(1), found.group(2)
                break
        if not self.token:
            self.process.wait(timeout=30)
            raise AssertionError("no page address printed:\n" + "".join(self.stderr_head))

    @property
    def url(self) -> str:
        return f"{self.base}?token={self.token}"

    def request(self, path: str, *, token: str | None = None, body: Any = None) -> tuple[int, Any]:
        """GET (or POST ``body`` as JSON) ``path`` with ``token`` (default: the right one); (status, body)."""
        given = self.token if token is None else token
        url = f"{self.base}{path.lstrip('/')}" + (f"?token={given}" if given != "" else "")
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:  # noqa: S310 - loopback only
                status, raw = reply.status, reply.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")

    def wait_for_decision(self, after: int = 0, timeout: float = 60) -> dict[str, Any]:
        """Polls the page until it shows a decision numbered above ``after``; returns it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, state = self.request("/state")
            if status == 200 and state["decision"] and state["decision"]["decision"] > after:
                return state["decision"]
            time.sleep(0.05)
        raise AssertionError(f"no decision after {after} shown")

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        """Waits for the command; returns (exit status, stdout, stderr)."""
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, "".join(self.stderr_head) + err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


def play_command(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``stratbench play ARGS`` to its end (a replay, or a refused argument)."""
    return subprocess.run([sys.executable, "-m", "stratbench.cli", "play", *args,
                           "--report-dir", str(folder / "reports"), "--cassette-dir", str(folder / "cassettes")],
                          cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)


def records(folder: Path) -> list[dict[str, Any]]:
    """The run's records (results.jsonl)."""
    lines = (folder / "reports" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def transcript(folder: Path, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's transcript events, as the record stores them (inline or in a file of the report dir)."""
    stored = record.get("transcript")
    if isinstance(stored, list):
        return stored
    path = folder / "reports" / str(stored)
    return read_transcript(path)["events"]  # plain .json, or .json.gz when large
