"""Credentials in --api-base (user:password@, ?token=) reach the server but no file or line a run writes."""

from __future__ import annotations

import pytest

from stratbench.redact import redact_argv, redact_text

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2, seats="half")
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.parametrize(("url", "masked"), [
    ("http://user:SECRET@127.0.0.1:8000/v1", "http://***@127.0.0.1:8000/v1"),
    ("https://SECRET@gw.example/v1", "https://***@gw.example/v1"),
    ("https://gw.example/v1?api-version=2024&API_KEY=SECRET", "https://gw.example/v1?api-version=2024&API_KEY=***"),
    ("https://gw.example/v1?sig=SECRET&Signature=SECRET&x=1", "https://gw.example/v1?sig=***&Signature=***&x=1"),
    ("https://gw.example/v1?access_token=SECRET#f", "https://gw.example/v1?access_token=***#f"),
    ("https://gw.example/v1?secret=SECRET;password=SECRET", "https://gw.example/v1?secret=***;password=***"),
    ("https://gw.example/v1?apikey=SECRET&token=SECRET&key=SECRET", "https://gw.example/v1?apikey=***&token=***&key=***"),
    ("https://gw.example/v1?monkey=1&keys=2", "https://gw.example/v1?monkey=1&keys=2"),  # not a key's name
    ("at http://u:SECRET@h/v1: Error", "at http://***@h/v1: Error"),
])
def test_urls_lose_their_credentials(url, masked):
    assert redact_text(url) == masked
    assert "SECRET" not in redact_text(url)


def test_a_command_line_is_masked_argument_by_argument():
    argv = ["suites/spin", "--api-base", "http://u:SECRET@h/v1", "--api-base=https://h/v1?token=SECRET", "-k", "x=1"]
    assert redact_argv(argv) == ["suites/spin", "--api-base", "http://***@h/v1", "--api-base=https://h/v1?token=***",
                                 "-k", "x=1"]


def _written_files(root):
    return [p for p in root.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".html", ".md", ".yaml")]


@pytest.mark.parametrize("credentials", ["userinfo", "query"])
def test_no_file_or_line_of_the_run_holds_the_secret(pytester, fake_llm, no_provider_keys, credentials):
    pytester.makepyfile(test_ttt=SUITE)
    if credentials == "userinfo":
        base = fake_llm.api_base.replace("http://", "http://user:SECRET@")
    else:  # litellm appends /chat/completions after the query: the server answers 404, naming the path
        base = fake_llm.api_base + "?Token=SECRET"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", "openai/fake", "--api-base", base, "--retries", "0",
        "--stratbench-cassette-dir", "cas", "--record-mode", "all", "-rA")
    output = result.stdout.str() + result.stderr.str()
    written = _written_files(pytester.path)
    report = pytester.path / "reports/latest"
    assert {p.name for p in written} >= {"results.jsonl", "results.json", "report.html", "report.md"}
    assert len(list((report / "transcripts").rglob("*.json"))) == 2  # both matches' transcripts were written
    assert [p for p in written if "SECRET" in p.read_text(encoding="utf-8")] == []
    assert "SECRET" not in output
    if credentials == "userinfo":
        assert f"openai/fake at {fake_llm.api_base.replace('http://', 'http://***@')}: " in output
    else:  # the request carried the real value; what was written shows it masked
        assert fake_llm.requests and all("Token=SECRET" in r.path for r in fake_llm.requests)
        assert "?Token=***" in output
    assert "--api-base" in (report / "results.json").read_text()  # the command line is kept, masked
