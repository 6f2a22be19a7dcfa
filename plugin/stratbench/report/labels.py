"""Reads an agent label's call settings: ``MODEL+SCAFFOLD(effort=high,answers=tools)`` is the model and
scaffold played with those settings (only the non-default ones are in a label)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["label_settings", "model_with_settings", "with_settings"]

_SETTINGS = re.compile(r"^(?P<base>.+)\((?P<args>[^()]*)\)$")


def label_settings(label: str) -> tuple[str, dict[str, str]]:
    """Splits an agent label into its base and its settings (none: the label and ``{}``).

    Examples:
        >>> label_settings("openai/m+cot(effort=high,answers=tools)")
        ('openai/m+cot', {'effort': 'high', 'answers': 'tools'})
        >>> label_settings("openai/m+cot")
        ('openai/m+cot', {})
        >>> label_settings("minimax(depth=3)")
        ('minimax', {'depth': '3'})
    """
    found = _SETTINGS.match(label)
    if not found:
        return label, {}
    pairs = [part.split("=", 1) for part in found["args"].split(",")]
    if not all(len(pair) == 2 and pair[0] for pair in pairs):
        return label, {}
    return found["base"], {key: value for key, value in pairs}


def with_settings(base: str, settings: dict[str, str]) -> str:
    """The label of ``base`` played with ``settings`` (the inverse of :func:`label_settings`).

    Examples:
        >>> with_settings("openai/m+cot", {"answers": "tools"})
        'openai/m+cot(answers=tools)'
    """
    return f"{base}({','.join(f'{k}={v}' for k, v in settings.items())})" if settings else base


def model_with_settings(side: dict[str, Any]) -> str:
    """A model side's model string with its label's settings, so that one model under different settings
    stays apart where scaffolds are compared.

    Examples:
        >>> model_with_settings({"agent": "openai/m+cot(answers=tools)", "model": "openai/m"})
        'openai/m(answers=tools)'
    """
    return with_settings(str(side["model"]), label_settings(str(side.get("agent", "")))[1])
