"""Keeps the objects that live as long as the process out of the cycle collector's scans (``gc.freeze``).

A run imports pytest, the plugin and its families (about 50,000 objects the
collector tracks), and a model run litellm and the OpenAI SDK too (300,000
more). Those objects live until the process ends, yet the cycle collector
scans them in every full collection: six during litellm's import alone (0.8 s
of its 3 s), pytest's at the session's end (about 0.3 s each with litellm
loaded), and the interpreter's at exit (0.25 s for a 2-match run, 1.2 s for a
model run of 128 matches). Frozen (``gc.freeze``), they are left out of those
scans; they are still freed as usual when their last reference goes, and only
reference cycles among them wait for the process's end. Garbage is collected
first, so nothing unreachable is frozen.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator


def freeze_once() -> None:
    """Freezes what is alive now, unless something was frozen already in this process.

    Called when pytest has configured the plugin (its modules and its families' are imported), so a
    pytest run inside another (a test of the plugin) freezes nothing more.
    """
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()


@contextlib.contextmanager
def long_lived_import(module: str) -> Iterator[None]:
    """Imports, inside the block, a module that lives as long as the process; then freezes what is alive.

    The first time only (``module`` not yet imported): garbage is collected, the
    collector is paused during the import and what is alive after it is frozen.
    """
    if module in sys.modules:
        yield
        return
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.freeze()
