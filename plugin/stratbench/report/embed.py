"""Data a page carries compressed: gzip, then base64, so it sits inside a ``<script>`` element as plain text.

A match page's replay and its list of events are mostly repeats (the map
around a moved unit, the conversation every model call re-sends); gzip keeps
the page small, and the page's script unpacks them with the browser's own
``DecompressionStream`` (no request leaves the page). Base64 text holds no
``<``, ``>`` or ``&``, so no model text can end the element or open markup.
"""

from __future__ import annotations

import base64
import gzip

__all__ = ["ENCODING", "embed", "unembed"]

ENCODING = "gzip+base64"
"""The ``data-encoding`` a page's compressed element names."""


def embed(text: str) -> str:
    """``text`` gzipped and base64-encoded (the same bytes on every run: no time stamp in the header)."""
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def unembed(data: str) -> str:
    """The text :func:`embed` packed."""
    return gzip.decompress(base64.b64decode(data)).decode("utf-8")
