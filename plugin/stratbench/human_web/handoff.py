"""The file the browser is opened on: it hands the page's token to the server, so no command line holds it.

A browser started with an address keeps it in its command line, which every
user of the machine reads (``ps``). The browser is given instead the
``file://`` address of a small page, readable by its owner alone (mode 0600,
in a folder of mode 0700), whose form posts the token to ``/login``; the
server answers with the page's cookie (HttpOnly, SameSite=Strict).
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import tempfile
from pathlib import Path

SUBMIT = "document.getElementById(\"login\").submit();"
"""The hand-off page's one script: it sends the form at once."""


def handoff_html(origin: str, token: str) -> str:
    """The hand-off page for the server at ``origin`` (``http://127.0.0.1:<port>``)."""
    digest = base64.b64encode(hashlib.sha256(SUBMIT.encode("utf-8")).digest()).decode("ascii")
    policy = f"default-src 'none'; script-src 'sha256-{digest}'; form-action {origin}; base-uri 'none'"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
            "<meta name=\"referrer\" content=\"no-referrer\">\n<title>stratbench: play</title></head>\n<body>\n"
            f"<form id=\"login\" method=\"post\" action=\"{html.escape(origin)}/login\">"
            f"<input type=\"hidden\" name=\"token\" value=\"{html.escape(token)}\">"
            "<button type=\"submit\">Open the page</button></form>\n"
            f"<script>{SUBMIT}</script>\n</body></html>\n")


def write_handoff(origin: str, token: str) -> Path:
    """Writes the hand-off page into a new private folder (the caller removes the folder); returns its path."""
    folder = Path(tempfile.mkdtemp(prefix="stratbench-page-"))  # mode 0700
    path = folder / "open.html"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(handoff_html(origin, token))
    return path
