"""Credentials in --api-base (user:password@, ?token=) reach the server but no file or line a run writes."""

from __future__ import annotations

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2, seats="half")
def test_tictactoe(match):
    match.play()
"""


def _written_files(root):
    return [p for p in root.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".html", ".md", ".yaml")]


@pytest.mark.slow
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
