"""URL credentials masked in text and command lines (stratbench.redact)."""

from __future__ import annotations

import pytest

from stratbench.redact import redact_argv, redact_text, redact_value


@pytest.mark.parametrize(("url", "masked"), [
    ("http://user:SECRET@127.0.0.1:8000/v1", "http://***@127.0.0.1:8000/v1"),
    ("https://SECRET@gw.example/v1", "https://***@gw.example/v1"),
    ("https://gw.example/v1?api-version=2024&API_KEY=SECRET", "https://gw.example/v1?api-version=2024&API_KEY=***"),
    ("https://gw.example/v1?sig=SECRET&Signature=SECRET&x=1", "https://gw.example/v1?sig=***&Signature=***&x=1"),
    ("https://gw.example/v1?access_token=SECRET#f", "https://gw.example/v1?access_token=***#f"),
    ("https://gw.example/v1?secret=SECRET;password=SECRET", "https://gw.example/v1?secret=***;password=***"),
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
