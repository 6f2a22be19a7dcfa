"""A family's own run settings: its command-line options, read into one frozen object in the family's namespace.

A family adds its options with ``pytest_stratbench_addoption`` and returns its
settings from ``pytest_stratbench_family_settings``; the run keeps them in
``RunSettings.families[<family>]``. Agents and variant listers get every
family's fields in their ``options`` (``options["stockfish"]``), so a field
name must be unique across the installed families.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class FamilySettings:
    """Base of a family's settings; subclass it as a frozen dataclass whose fields are the family's options.

    Attributes:
        family: The family's name (its entry point's), the key in ``RunSettings.families``.
    """

    family: ClassVar[str] = ""

    def options(self) -> dict[str, Any]:
        """The fields as the plain dict agents and variant listers get."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def deciding(self) -> dict[str, Any]:
        """The settings that decide a match's outcome, hashed into each record's ``settings_hash`` (for
        ``--resume``); empty by default."""
        return {}

    def models(self) -> dict[str, str]:
        """Models the run calls for this family besides ``--model``, by the option that names each
        (``{"--diplomacy-opponent": "openai/gpt-4o"}``): checked at start-up like ``--model``."""
        return {}


def merged_options(families: dict[str, FamilySettings]) -> dict[str, Any]:
    """Every family's options in one dict.

    Raises:
        ValueError: when two families use the same option name.
    """
    merged: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for name, settings in families.items():
        for key, value in settings.options().items():
            if key in owner:
                raise ValueError(f"families {owner[key]!r} and {name!r} both have a setting {key!r}")
            owner[key] = name
            merged[key] = value
    return merged
