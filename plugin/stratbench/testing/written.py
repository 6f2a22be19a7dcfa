"""A written report file's text as a reader sees it, for tests that search what a run wrote.

Large transcripts are gzipped (``.json.gz``) and match pages and large
reports carry their data gzip + base64 (:mod:`stratbench.report.embed`): a
byte search of the files would miss text inside them. :func:`readable_text`
unpacks both, so a check such as "no file holds the secret" still sees all.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from stratbench.report.embed import ENCODING, unembed

__all__ = ["readable_text"]

_EMBEDDED = re.compile(r'data-encoding="' + re.escape(ENCODING) + r'">([A-Za-z0-9+/=]*)</script>')


def readable_text(path: Path) -> str:
    """The file's text, gzip undone and every embedded compressed part appended unpacked."""
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", errors="replace")
    if path.suffix in (".html", ".htm"):
        text += "".join("\n" + unembed(found) for found in _EMBEDDED.findall(text))
    return text
