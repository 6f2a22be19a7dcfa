"""Masking of credentials in URLs and command lines before they are stored or printed.

A base URL may carry a secret: a user name and password before the host
(``http://user:pass@host/v1``) or a key in its query (``?api_key=…``,
``&sig=…``). Model calls use the URL as given; every file and line a run
writes (results, reports, transcripts, the recorded command line, error
messages) gets the masked form.

Examples:
    >>> redact_text("http://user:pass@host:8000/v1?api-version=1&Key=abc")
    'http://***@host:8000/v1?api-version=1&Key=***'
    >>> redact_argv(["--api-base", "https://h/v1?token=t"])
    ['--api-base', 'https://h/v1?token=***']
    >>> redact_argv(["--obfuscate", "mystery", "--seed-salt", "ours", "--seed-salt=also"])
    ['--obfuscate', 'mystery', '--seed-salt', '***', '--seed-salt=***']
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***"

SECRET_QUERY_NAMES = (
    "key", "api_key", "api-key", "apikey", "token", "access_token", "sig", "signature", "secret", "password",
)
"""Query parameters whose value is masked (compared without regard to case)."""

_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/?#@'\"]+@")
_SECRET_QUERY = re.compile(
    r"(?i)([?&;](?:" + "|".join(re.escape(name) for name in SECRET_QUERY_NAMES) + r")=)[^&#;\s'\"]*"
)


def redact_text(text: str) -> str:
    """Returns ``text`` with the userinfo and secret query values of every URL in it masked."""
    if "://" not in text and "=" not in text:
        return text
    return _SECRET_QUERY.sub(lambda m: m.group(1) + MASK, _USERINFO.sub(lambda m: m.group(1) + MASK + "@", text))


SECRET_OPTIONS = ("--seed-salt",)
"""Options whose value is a secret as a whole (a private split's salt): masked in a recorded command line."""


def redact_argv(arguments: list[str]) -> list[str]:
    """Returns a command line with every URL in its arguments, and the values of :data:`SECRET_OPTIONS`,
    masked."""
    masked = []
    for i, argument in enumerate(arguments):
        option = argument.split("=", 1)[0]
        if option in SECRET_OPTIONS and "=" in argument:
            masked.append(f"{option}={MASK}")
        elif i and arguments[i - 1] in SECRET_OPTIONS:
            masked.append(MASK)
        else:
            masked.append(redact_text(argument))
    return masked


def redact_value(value: Any) -> Any:
    """Masks every string inside a JSON-like value (dicts, lists, strings); other values are returned as they are."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {key: redact_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(item) for item in value]
    return value


def has_secret(text: str) -> bool:
    """Tells whether ``text`` holds something :func:`redact_text` would mask."""
    return redact_text(text) != text
