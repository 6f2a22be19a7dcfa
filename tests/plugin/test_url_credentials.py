"""Credentials in --api-base: user:password@ is refused at start-up, a ?token= reaches the server; neither reaches
any file or line a run writes."""

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


def test_credentials_before_the_host_are_refused_in_one_line_that_never_shows_them():
    import argparse

    from stratbench.options import base_url

    for password in ('pa"SECRET', "pa'SECRET", "SEC@RET", "SECRET@", "pa SECRET", "pa%40SECRET", "SECRET"):
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            base_url(f"http://user:{password}@127.0.0.1:8000/v1")
        message = str(refused.value)
        assert "SECRET" not in message and "RET" not in message.replace("URL without", "")
        assert message == ("credentials in the URL are not sent (http://***@127.0.0.1:8000/v1): put the key in the "
                           "provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...; litellm sends it as the "
                           "Authorization header) and give the URL without user:password@")
    for broken in ("http://user:pa/SECRET@h/v1", "http://user:pa?SECRET@h/v1", "http://user:pa#SECRET@h/v1"):
        with pytest.raises(argparse.ArgumentTypeError) as refused:  # the client would read another host or port
            base_url(broken)
        assert "SECRET" not in str(refused.value)


@pytest.mark.slow
@pytest.mark.parametrize("credentials", ["userinfo", "query"])
def test_no_file_or_line_of_the_run_holds_the_secret(pytester, fake_llm, no_provider_keys, credentials):
    pytester.makepyfile(test_ttt=SUITE)
    if credentials == "userinfo":  # refused before anything starts: a " ends no secret
        base = fake_llm.api_base.replace("http://", 'http://user:pa"SECRET@')
    else:  # litellm appends /chat/completions after the query: the server answers 404, naming the path
        base = fake_llm.api_base + "?Token=SECRET"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", "openai/fake", "--api-base", base, "--retries", "0",
        "--stratbench-cassette-dir", "cas", "--record-mode", "all", "-rA")
    output = result.stdout.str() + result.stderr.str()
    written = _written_files(pytester.path)
    if credentials == "userinfo":
        assert result.ret == pytest.ExitCode.USAGE_ERROR and not fake_llm.requests
        assert "argument --api-base: credentials in the URL are not sent (http://***@127.0.0.1:" in output
        assert "SECRET" not in output and [p for p in written if "SECRET" in p.read_text(encoding="utf-8")] == []
        return
    report = pytester.path / "reports/latest"
    assert {p.name for p in written} >= {"results.jsonl", "results.json", "report.html", "report.md"}
    assert len(list((report / "transcripts").rglob("*.json"))) == 2  # both matches' transcripts were written
    assert [p for p in written if "SECRET" in p.read_text(encoding="utf-8")] == []
    assert "SECRET" not in output
    # the request carried the real value; what was written shows it masked
    assert fake_llm.requests and all("Token=SECRET" in r.path for r in fake_llm.requests)
    assert "?Token=***" in output
    assert "--api-base" in (report / "results.json").read_text()  # the command line is kept, masked
