"""Masking of credentials in URLs and command lines before they are stored or printed.

A base URL may carry a secret: a user name and password before the host
(``http://user:pass@host/v1``) or a key in its query (``?api_key=…``,
``&sig=…``). ``--api-base`` refuses the first (litellm authenticates with the
provider's key) and sends the second as given; every file and line a run
writes (results, reports, transcripts, the recorded command line, error
messages) gets the masked form.

A URL is masked by reading it as an HTTP client does, not by a character
class: its authority runs from ``://`` to the first ``/``, ``?`` or ``#``, and
the userinfo is everything before the authority's *last* ``@`` (so
``user:pa"ss@host`` and ``user:SEC@RET@host`` lose ``pa"ss`` and ``SEC@RET``
whole). Because a password holding ``/``, ``?`` or ``#`` unencoded moves the
authority's end, everything from the scheme to the URL's last ``@`` is
masked: a superset of any client's userinfo (a query holding an ``@`` hides the
host from what is shown too; the request goes out as given). A query's secret value
runs to the next ``&`` or ``#``, as a query is split. In free text a URL ends
at white space; a command-line argument is one URL whole.

Examples:
    >>> redact_text("http://user:pass@host:8000/v1?api-version=1&Key=abc")
    'http://***@host:8000/v1?api-version=1&Key=***'
    >>> redact_url("http://user:SEC@RET@host/v1")
    'http://***@host/v1'
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

_SCHEME = re.compile(r"(?i)\b[a-z][a-z0-9+.\-]*://")
_SECRET_NAMES = frozenset(SECRET_QUERY_NAMES)


def redact_url(url: str) -> str:
    """Returns one URL with its userinfo and the values of its secret query parameters masked (see above)."""
    found = _SCHEME.match(url)
    if found is None:
        return _redact_query(url)
    head, rest = url[:found.end()], url[found.end():]
    at = rest.rfind("@")
    if at >= 0:
        rest = MASK + rest[at:]
    return head + _redact_query(rest)


def _redact_query(text: str) -> str:
    """Masks the value of every secret parameter after a ``?``, ``&`` or ``;``, up to the next ``&`` or ``#``
    (a ``;`` is no separator to a client: the rest of the value stays masked)."""
    out, i = [], 0
    for found in re.finditer(r"[?&;]([^=&#?;]*)=", text):
        if found.group(1).lower() not in _SECRET_NAMES or found.start() < i:
            continue
        end = len(text)
        for stop in ("&", "#"):  # as a query is split: a ';' belongs to the value
            j = text.find(stop, found.end())
            if j >= 0:
                end = min(end, j)
        out.append(text[i:found.end()] + MASK)
        i = end
    return "".join(out) + text[i:]


def redact_text(text: str) -> str:
    """Returns ``text`` with every URL in it (up to white space) masked by :func:`redact_url`, and secret query
    values outside URLs too."""
    if "://" not in text and "=" not in text:
        return text
    return re.sub(r"\S+", lambda m: redact_url(m.group(0)) if "://" in m.group(0) else _redact_query(m.group(0)),
                  text)


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
        elif argument.startswith("-") and "=" in argument and "://" in argument:
            masked.append(f"{option}={redact_url(argument.split('=', 1)[1])}")  # --api-base=URL: the value whole
        elif "://" in argument:
            masked.append(redact_url(argument))  # an argument is one URL whole, white space and all
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
