"""URL credentials masked in text and command lines (stratbench.redact)."""

from __future__ import annotations

import pytest

from stratbench.redact import redact_argv, redact_text, redact_url, redact_value


@pytest.mark.parametrize(("url", "masked"), [
    ("http://user:SECRET@127.0.0.1:8000/v1", "http://***@127.0.0.1:8000/v1"),
    ("https://SECRET@gw.example/v1", "https://***@gw.example/v1"),
    ("https://gw.example/v1?api-version=2024&API_KEY=SECRET", "https://gw.example/v1?api-version=2024&API_KEY=***"),
    ("https://gw.example/v1?sig=SECRET&Signature=SECRET&x=1", "https://gw.example/v1?sig=***&Signature=***&x=1"),
    ("https://gw.example/v1?access_token=SECRET#f", "https://gw.example/v1?access_token=***#f"),
    ("https://gw.example/v1?secret=SECRET;password=SECRET", "https://gw.example/v1?secret=***"),  # one value
    ("https://gw.example/v1?x=1;token=SECRET&y=2", "https://gw.example/v1?x=1;token=***&y=2"),
    ("https://gw.example/v1?apikey=SECRET&token=SECRET&key=SECRET",
     "https://gw.example/v1?apikey=***&token=***&key=***"),
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


def test_json_values_are_masked_inside_and_kept_otherwise():
    value = {"reason": "x at http://u:SECRET@h/v1", "n": 3, "events": [{"text": "?token=SECRET"}, None]}
    assert redact_value(value) == {"reason": "x at http://***@h/v1", "n": 3, "events": [{"text": "?token=***"}, None]}


PRINTABLE = "".join(chr(c) for c in range(33, 127))


@pytest.mark.parametrize("char", list(PRINTABLE) + [" ", "\t", "é", "%40", "%2F"])
def test_a_password_with_any_character_never_shows(char):
    # whatever the password holds (even '/', '?', '#' or '@' unencoded, which move where a client ends the
    # authority), nothing of it is left in the URL, in a text holding it or on a command line
    password = f"pa{char}SECRET{char}ss"
    url = f"http://user:{password}@host:8000/v1?api-version=1"
    for shown in (redact_url(url), redact_argv(["--api-base", url])[1], redact_argv([f"--api-base={url}"])[0]):
        assert "SECRET" not in shown and shown.endswith("@host:8000/v1?api-version=1"), shown
    if not char.isspace():  # free text ends a URL at white space
        assert "SECRET" not in redact_text(f"error at {url}: refused")
    assert "SECRET" not in redact_url(f"https://h/v1?api_key=a{char}SECRET{char}b".replace("&", "%26").replace(
        "#", "%23"))


def test_the_userinfo_is_everything_before_the_last_at_as_a_client_reads_it():
    from urllib.parse import urlsplit

    for url in ('http://user:pa"ss@host/v1', "http://user:pa'ss@host/v1", "http://user:SEC@RET@host/v1"):
        parts = urlsplit(url)
        assert redact_url(url) == "http://***@host/v1" and parts.password not in redact_url(url)
        assert parts.hostname == "host"
