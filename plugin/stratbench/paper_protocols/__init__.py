"""The paper protocols of the built-in families (see :mod:`stratbench.protocols`).

One module per family; the family's plugin (``games/<family>/plugin.py``) calls its ``register``; the wording,
answer formats and readers live with the games themselves. ``docs/PROTOCOLS.md``
lists every difference from the default.
"""

from __future__ import annotations
