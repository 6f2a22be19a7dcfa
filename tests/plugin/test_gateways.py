"""xdist over execnet socket gateways: two workers in other directories, results and cassettes back on the controller.

Each gateway is execnet's own socket server (``execnet/script/socketserver.py``),
started as execnet's documentation starts it, in its own copy of the project,
as on another machine; the controller reaches both with ``--tx socket=…``.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import execnet
import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=6)
def test_tictactoe(match):
    match.play()
"""
SOCKETSERVER = Path(execnet.__file__).parent / "script" / "socketserver.py"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, "the socket server exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"no socket server on port {port}")


def _project(directory: Path) -> Path:
    directory.mkdir()
    (directory / "pytest.ini").write_text("[pytest]\n")
    (directory / "test_ttt.py").write_text(SUITE)
    return directory


def _records(report: Path) -> list[dict]:
    return [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines() if line.strip()]


def _finished_on(remote: Path) -> set[str]:
    return {json.loads(line)["record"]["match_id"]
            for path in (remote / "reports" / "latest" / ".workers").rglob("*.jsonl")
            for line in path.read_text().splitlines() if json.loads(line)["event"] == "finished"}


@pytest.mark.slow  # two gateways, then an offline replay
def test_two_socket_gateways_return_results_and_cassettes_to_the_controller(pytester, fake_llm, monkeypatch):
    controller = _project(pytester.path / "controller")
    remotes = [_project(pytester.path / f"machine{k}") for k in (1, 2)]
    servers, specs = [], []
    try:
        for remote in remotes:
            port = _free_port()
            server = subprocess.Popen([sys.executable, str(SOCKETSERVER), f"127.0.0.1:{port}"], cwd=remote,
                                      env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers.append(server)
            _wait_for(port, server)
            specs += ["--tx", f"socket=127.0.0.1:{port}//chdir={remote}"]
        args = ["-p", "no:cacheprovider", "--model", "openai/m", "--stratbench-bootstrap", "20"]
        monkeypatch.chdir(controller)
        played = pytester.run(sys.executable, "-m", "pytest", *args, "--api-base", fake_llm.api_base,
                              "--record-mode=once", "--dist", "load", *specs, timeout=300)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    assert played.ret == 0, played.stdout.str() + played.stderr.str()
    played.stdout.fnmatch_lines(["*2 workers [[]6 items[]]*"])

    records = _records(controller / "reports" / "latest")
    assert len(records) == 6 and all(r["status"] == "scored" for r in records)
    by_machine = [_finished_on(remote) for remote in remotes]
    assert all(by_machine) and set().union(*by_machine) == {r["match_id"] for r in records}
    assert not by_machine[0] & by_machine[1]  # each match played once, on one machine
    for record in records:
        local = controller / record["cassette"]["path"]
        assert hashlib.sha256(local.read_bytes()).hexdigest() == record["cassette"]["sha256"]
        machine = remotes[0] if record["match_id"] in by_machine[0] else remotes[1]
        assert local.read_bytes() == (machine / record["cassette"]["path"]).read_bytes()
        assert (controller / "reports" / "latest" / record["transcript"]).is_file()
    assert not list(controller.glob("cassettes/**/*.partial"))

    fake_llm.stop()  # the returned cassettes replay on the controller alone
    replayed = pytester.run(sys.executable, "-m", "pytest", *args, "--record-mode=none", timeout=300)
    assert replayed.ret == 0, replayed.stdout.str()
    again = {r["match_id"]: (r["scores"], r["turns"], r["tokens"]) for r in _records(controller / "reports" / "latest")}
    assert again == {r["match_id"]: (r["scores"], r["turns"], r["tokens"]) for r in records}


def test_a_returned_cassette_is_written_under_the_cassette_directory_only(tmp_path):
    from stratbench.run.remote_results import store_cassette

    value = json.dumps({"path": "test_x/test_a[s0].yaml", "text": "interactions: []\n"})
    written = store_cassette(value, tmp_path / "cassettes")
    assert written == tmp_path / "cassettes" / "test_x" / "test_a[s0].yaml"
    assert written.read_text() == "interactions: []\n"
    assert store_cassette(value, tmp_path / "cassettes") == written  # the same text again: left as it is
    for path in ("../outside.yaml", "/etc/outside.yaml"):
        with pytest.raises(ValueError, match="outside the cassette directory"):
            store_cassette(json.dumps({"path": path, "text": "x"}), tmp_path / "cassettes")
    assert not (tmp_path / "outside.yaml").exists()


def test_only_a_worker_apart_from_the_controller_returns_files(tmp_path):
    from stratbench.run.remote_results import controller_input, is_remote

    here = controller_input(tmp_path / "cassettes")
    assert not is_remote(here, tmp_path / "cassettes")  # -n: same host, same directory
    assert is_remote(here, tmp_path / "elsewhere" / "cassettes")
    assert is_remote({**here, "stratbench_host": "another-host"}, tmp_path / "cassettes")
    assert not is_remote({}, tmp_path / "cassettes")  # a controller of an older version says nothing
