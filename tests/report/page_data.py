"""Reads a match page's compressed parts back, as the page's script does: its replay and its list of events."""

from __future__ import annotations

import json
import re
from typing import Any

from stratbench.report.embed import unembed
from stratbench.report.replay import unpack_replay

_REPLAY = re.compile(r'<script type="application/octet-stream" id="replay-data" data-encoding="gzip\+base64">'
                     r'(.*?)</script>', re.DOTALL)
_EVENTS = re.compile(r'<div id="events-list"></div>(.*?)'
                     r'<script type="application/octet-stream" id="events-data" data-encoding="gzip\+base64">'
                     r'(.*?)</script>', re.DOTALL)


def packed_replay(page: str) -> dict[str, Any]:
    """The replay as the page carries it: pieces, boards as piece indexes, steps."""
    return json.loads(unembed(_REPLAY.search(page).group(1)))


def replay_data(page: str) -> dict[str, Any]:
    """The page's replay, boards whole: ``{"boards", "steps"}``."""
    return unpack_replay(packed_replay(page))


def inflated(page: str) -> str:
    """The page with its list of events unpacked in place, as a reader who opened it sees the markup."""
    found = _EVENTS.search(page)
    if found is None:
        return page
    markup = unembed(found.group(2))
    return page[:found.start()] + f'<div id="events-list">{markup}</div>{found.group(1)}' + page[found.end():]
