"""The ``direct`` scaffold: one prompt, one answer."""

from __future__ import annotations

from typing import Any

from stratbench.scaffolds.base import ConversationScaffold


def direct(**settings: Any) -> ConversationScaffold:
    """Builds a scaffold that asks for the action straight away.

    Args:
        **settings: Request settings passed to every call (``max_tokens``...).
    """
    return ConversationScaffold(**settings)
