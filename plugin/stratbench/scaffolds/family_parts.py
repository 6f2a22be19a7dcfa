"""What scaffolds look up by name in the registry: answer readers, prompt styles, strategy guides.

A paper protocol's observation names its reader (``answer_parser``) and its
prompt structure (``prompt_style``); families register them through
``pytest_stratbench_add_protocols``. The session installs its registry here
when it starts (:func:`use_registry`); code that reads answers without a
session (a unit test, a notebook) installs one first:
``use_registry(stratbench.families.standalone_registry())``.
"""

from __future__ import annotations

from typing import Any

_current: Any = None
"""The installed :class:`stratbench.registry.Registry` (typed Any: the registry module sits above the scaffolds)."""


def use_registry(registry: Any) -> None:
    """Makes ``registry`` the one scaffolds look names up in (the session's, once per process)."""
    global _current
    _current = registry


class NoRegistryError(LookupError):
    """A scaffold looked a name up before any registry was installed."""


def current_registry() -> Any:
    """The installed registry.

    Raises:
        NoRegistryError: when none was installed.
    """
    if _current is None:
        raise NoRegistryError("no stratbench registry is installed: a session installs its own; outside one call "
                              "stratbench.scaffolds.family_parts.use_registry(stratbench.families.standalone_registry())")
    return _current
