"""Real request shapes end to end: a Tic-Tac-Toe match recorded and replayed through each provider.

Each provider's API is served by the loopback server (``stratbench.testing.fake_llm``),
which checks the key header that provider expects; litellm and vcrpy run for real.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from stratbench.testing.fake_llm import FakeLLMServer, Faults
from stratbench.run.results import read_transcript
from stratbench.testing.written import readable_text

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], matches=1)
def test_tictactoe(match):
    match.play()
"""


@dataclass(frozen=True)
class Provider:
    model: str
    env: dict[str, str]
    key: str | None
    header: str
    path: str
    base: str  # which of the server's base URLs is --api-base
    dropped: tuple[str, ...] = ()


PROVIDERS = {
    "openai": Provider("openai/gpt-test", {"OPENAI_API_KEY": "sk-user-openai-4f1c"}, "sk-user-openai-4f1c",
                       "authorization", "/v1/chat/completions", "api_base"),
    "anthropic": Provider("anthropic/claude-sonnet-4-5", {"ANTHROPIC_API_KEY": "sk-ant-user-9d2e"},
                          "sk-ant-user-9d2e", "x-api-key", "/v1/messages", "base_url", dropped=("seed",)),
    "gemini": Provider("gemini/gemini-2.0-flash", {"GEMINI_API_KEY": "AIza-user-gemini-77b0"},
                       "AIza-user-gemini-77b0", "x-goog-api-key",
                       "/v1beta/models/gemini-2.0-flash:generateContent", "gemini_api_base"),
    "azure": Provider("azure/stratbench-dep", {"AZURE_API_KEY": "azure-user-key-31aa", "AZURE_API_VERSION": "2024-10-21"},
                      "azure-user-key-31aa", "api-key",
                      "/openai/deployments/stratbench-dep/chat/completions?api-version=2024-10-21", "base_url"),
    # an OpenAI-compatible local server, no key set: a placeholder is the only key there is to send
    "compatible": Provider("openai/my-local-model", {}, None, "authorization", "/v1/chat/completions", "api_base"),
}


QUICK = ["-p", "no:cacheprovider", "-n", "0", "--stratbench-bootstrap", "50"]


def _records(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "reports/latest/results.jsonl").read_text().splitlines()]


def _transcript(root: Path, record: dict) -> list[dict]:
    path = root / "reports/latest" / record["transcript"]
    return read_transcript(path)["events"]


def _files_containing(root: Path, secret: str) -> list[str]:
    return [str(p.relative_to(root)) for p in root.rglob("*")
            if p.is_file() and (secret.encode() in p.read_bytes() or secret in readable_text(p))]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROVIDERS))
def test_a_match_records_through_the_provider_and_replays_offline(pytester, clean_env, name):
    provider = PROVIDERS[name]
    for variable, value in provider.env.items():
        clean_env.setenv(variable, value)
    pytester.makepyfile(test_ttt=SUITE)
    server = FakeLLMServer(api_key=provider.key).start()
    api_base = getattr(server, provider.base)
    args = [*QUICK, "--model", provider.model, "--api-base", api_base]
    try:
        recorded = pytester.runpytest_subprocess(*args)
    finally:
        server.stop()
    assert recorded.ret == 0, recorded.stdout.str()[-3000:]
    assert server.requests, "no request reached the server"
    for request in server.requests:
        assert request.path == provider.path
        sent = request.headers.get(provider.header, "")
        if provider.key is None:
            assert sent == "Bearer sk-stratbench-placeholder"
        else:
            assert provider.key in sent and "placeholder" not in sent
    live = [r for r in _records(pytester.path) if r["sides"][r["subject"]]["model"] == provider.model]
    assert len(live) == 1
    record = live[0]
    side = record["sides"][record["subject"]]
    assert side["dropped_params"] == list(provider.dropped)
    assert side["retries"] == 0
    assert record["usage"][record["subject"]]["calls"] == len(server.requests)
    if "seed" in provider.dropped:  # the provider never saw a seed, and the record says so
        assert all("seed" not in request.raw for request in server.requests)
        calls = [e for e in _transcript(pytester.path, record) if e["kind"] == "llm_call"]
        assert calls and all(e["dropped_params"] == ["seed"] for e in calls)
    else:
        assert all(request.body["seed"] == record["seed"] for request in server.requests)
    # the server is gone: the replay reads the cassette only
    replayed = pytester.runpytest_subprocess(*args, "--record-mode=none")
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    again = [r for r in _records(pytester.path) if r["sides"][r["subject"]]["model"] == provider.model]
    assert [(r["scores"], r["turns"], r["tokens"]) for r in again] == [(record["scores"], record["turns"], record["tokens"])]
    assert again[0]["cassette"]["record_mode"] == "none"
    if provider.key is not None:
        assert _files_containing(pytester.path, provider.key) == []


def test_an_azure_key_the_user_set_reaches_the_server(clean_env):
    """Without AZURE_API_BASE, litellm reports the set key missing; it must still be sent."""
    import asyncio

    from stratbench.llm.client import LLMClient

    clean_env.setenv("AZURE_API_KEY", "azure-user-key-55")
    clean_env.setenv("AZURE_API_VERSION", "2024-10-21")
    with FakeLLMServer(api_key="azure-user-key-55") as server:
        client = LLMClient(api_base=server.base_url, allow_placeholder_key=True)
        completion = asyncio.run(client.complete("azure/dep", [{"role": "user", "content": "Legal actions: a"}]))
    assert completion.text == "Action: a"
    assert [r.headers["api-key"] for r in server.requests] == ["azure-user-key-55"]


FAULT_KIND = {"429": "429", "500": "5xx", "hang": "timeout", "non_utf8": "unreadable", "no_message": "no_message"}


@pytest.mark.slow
def test_faults_are_retried_counted_and_shown(pytester, clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-user-faults-0b7")
    pytester.makepyfile(test_ttt=SUITE)
    faults = Faults(rate=0.3, kinds=("429", "500", "non_utf8", "no_message"), seed=3)
    server = FakeLLMServer(api_key="sk-user-faults-0b7", faults=faults).start()
    try:
        result = pytester.runpytest_subprocess(
            *QUICK, "--model", "openai/gpt-test", "--api-base", server.api_base, "--retries", "8",
            "--retry-backoff", "0.05",
        )
    finally:
        server.stop()
    assert result.ret == 0, result.stdout.str()[-3000:]
    injected = [r.fault for r in server.requests if r.fault]
    assert len(injected) >= 2, "the seeded faults should hit this match"
    [record] = [r for r in _records(pytester.path) if r["sides"][r["subject"]]["model"] == "openai/gpt-test"]
    side = record["sides"][record["subject"]]
    assert side["retries"] == len(injected)
    assert record["usage"][record["subject"]]["calls"] == len(server.requests) - len(injected)
    failed = [e for e in _transcript(pytester.path, record) if e["kind"] == "llm_attempt_failed"]
    assert [e["failure"] for e in failed] == [FAULT_KIND[kind] for kind in injected]
    assert all(e["attempts"] == 9 for e in failed)
    # --retry-backoff 0.05: the first wait is 0.05 s, halved at most by the jitter, doubling per attempt
    assert all(0.05 * 2 ** (e["attempt"] - 1) / 2 <= e["backoff_s"] <= 0.05 * 2 ** (e["attempt"] - 1) for e in failed)
    assert all(e["status"] == (429 if e["failure"] == "429" else 500) for e in failed if e["failure"] in ("429", "5xx"))
    page = (pytester.path / "reports/latest" / "transcripts").glob("*.html")
    html = "\n".join(readable_text(p) for p in page)
    assert f"attempt 1/9 failed: {failed[0]['failure']}" in html and "retried after" in html
    assert _files_containing(pytester.path, "sk-user-faults-0b7") == []


@pytest.mark.slow
def test_a_request_timeout_and_retries_bound_a_hung_server(pytester, clean_env):
    pytester.makepyfile(test_ttt=SUITE)
    server = FakeLLMServer(faults=Faults(rate=1.0, kinds=("hang",), hang_s=30)).start()
    try:
        result = pytester.runpytest_subprocess(
            *QUICK, "--model", "openai/gpt-test", "--api-base", server.api_base, "--request-timeout", "0.5",
            "--retries", "1", "--retry-backoff", "0.05",
        )
    finally:
        server.stop()
    result.stdout.fnmatch_lines(
        ["*LLMError: openai/gpt-test at http://127.0.0.1:*/v1: timeout (no answer within 0.5 s) after 2 attempt(s)*"])
    assert len(server.requests) == 2


FAULT_LABELS = {
    "stall": ("hang", "timeout (no answer within 1 s)"),
    "html": ("html", "unreadable reply body"),
    "down": ("503", "5xx server error (HTTP 503)"),
    "busy": ("429", "429 rate limit"),
    "reset": ("reset", "connection closed by the server before it answered"),
}
"""Per model, the fault its every request gets and the label its errored record's reason must carry.

A reset sent once the request is read reaches both of litellm's transports as a disconnection
(aiohttp's ``ServerDisconnectedError``, httpx's ``RemoteProtocolError``), so it is named as one."""


def _reasons(root: Path) -> dict[str, tuple[str, str]]:
    """Maps each errored record's model to (fault, the label between the server address and 'after N attempt(s)')."""
    found = {}
    for record in _records(root):
        model = record["sides"][record["subject"]]["model"]
        if record["status"] == "errored" and model:
            match = re.search(r"LLMError: \S+ at http://127\.0\.0\.1:\d+/v1: (.+?) after 2 attempt\(s\): ",
                              record["reason"])
            found[model] = (record["fault"], match.group(1) if match else record["reason"])
    return found


@pytest.mark.slow
def test_each_provider_fault_is_labelled_by_what_it_was(pytester, clean_env):
    """A stall, an HTML page with status 200, a 503, a 429 and a dropped connection, each named as such."""
    pytester.makepyfile(test_ttt=SUITE)
    faults = {name: kind for name, (kind, _) in FAULT_LABELS.items()}
    with FakeLLMServer(model_faults=faults, faults=Faults(hang_s=5.0)) as server:
        models = [arg for name in FAULT_LABELS for arg in ("--model", f"openai/{name}")]
        pytester.runpytest_subprocess(*QUICK, *models, "--api-base", server.api_base, "--request-timeout", "1",
                                      "--retries", "1", "--retry-backoff", "0.05")
    assert _reasons(pytester.path) == {f"openai/{name}": ("provider", label)
                                       for name, (_, label) in FAULT_LABELS.items()}


@pytest.mark.slow
def test_a_server_gone_after_start_up_is_a_refused_connection(pytester, clean_env):
    """The server answered the start-up check, then went away: each request's connection is refused."""
    pytester.makepyfile(test_ttt=SUITE)
    listener = socket.create_server(("127.0.0.1", 0))

    def answer_the_start_up_check_then_close() -> None:
        connection, _ = listener.accept()
        connection.close()
        listener.close()

    threading.Thread(target=answer_the_start_up_check_then_close, daemon=True).start()
    port = listener.getsockname()[1]
    pytester.runpytest_subprocess(*QUICK, "--model", "openai/gone", "--api-base", f"http://127.0.0.1:{port}/v1",
                                  "--retries", "1", "--retry-backoff", "0.05")
    assert _reasons(pytester.path) == {"openai/gone": ("provider", "connection refused")}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--request-timeout", "0"], "*--request-timeout: expected a number of seconds greater than 0, got '0'*"),
        (["--retries", "-1"], "*--retries: expected a whole number of at least 0, got '-1'*"),
        (["--retry-backoff", "0"], "*--retry-backoff: expected a number of seconds greater than 0, got '0'*"),
        (["--price", "openai/m=1"], "*--price: expected MODEL=IN,OUT (USD per million input and output tokens), got 'openai/m=1'*"),
        (["--price", "openai/m=a,b"], "*--price: expected MODEL=IN,OUT (USD per million input and output tokens), got 'openai/m=a,b'*"),
    ],
)
def test_bad_client_options_get_one_line(pytester, args, message):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_help_shows_the_client_defaults(pytester):
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines([
        "*--price=MODEL=IN,OUT*USD per million input and output tokens of MODEL, for",
        "*--request-timeout=S*Seconds one model request may take before it is retried",
        "*(default 120)",
        "*--retries=N*Retries of a model request after a provider fault: 429,",
        "*5xx, timeout, connection, unusable reply (default 4)",
        "*--retry-backoff=S*Seconds before the first retry of a model request; each",
    ])


@pytest.mark.slow
def test_max_cost_warns_about_models_it_cannot_price_and_a_price_bounds_them(pytester, clean_env):
    pytester.makepyfile(test_ttt=SUITE.replace("matches=1", "matches=3"))
    with FakeLLMServer() as server:
        args = [*QUICK, "-rs", "--model", "openai/gpt-test", "--api-base", server.api_base, "--max-cost", "0.000001"]
        unbounded = pytester.runpytest_subprocess(*args)
        assert unbounded.ret == 0, unbounded.stdout.str()[-3000:]
        warning = ("--max-cost 0.000001 USD cannot bound openai/gpt-test: litellm has no price for it, so it counts "
                   "as 0 USD; give one with --price MODEL=IN,OUT (USD per million input, output tokens)")
        assert unbounded.stdout.lines.count(f"stratbench: warning: {warning}") == 1
        assert len([r for r in _records(pytester.path) if r["cost_usd"] == 0 and r["tokens"] > 0]) == 3  # unbounded
        report = json.loads((pytester.path / "reports/latest/results.json").read_text())
        assert warning in report["notes"]
        calls_before = len(server.requests)
        priced = pytester.runpytest_subprocess(*args, "--price", "openai/gpt-test=1,1",
                                               "--stratbench-cassette-dir", "fresh")  # record, not replay
    assert "cannot bound" not in priced.stdout.str()
    priced.stdout.fnmatch_lines(["*SKIPPED*--max-cost 0.000001 USD reached (spent 0.000*"])
    assert len(server.requests) - calls_before == 1  # the first call spent the budget; nothing more was sent
    priced_records = [r for r in _records(pytester.path) if r["sides"][r["subject"]]["model"] == "openai/gpt-test"]
    assert [r["status"] for r in priced_records] == ["skipped"] * 3  # recorded, with the budget as the reason
    assert all(r["reason"].startswith("--max-cost 0.000001 USD reached") for r in priced_records)
