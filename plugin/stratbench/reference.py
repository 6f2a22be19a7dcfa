"""The reference recordings: which committed model runs ``pytest suites/`` replays.

A project commits ``<cassette dir>/reference.json`` next to its cassettes.
It names the reference models and scaffolds and how much of each suite they
play (fewer matches than a full evaluation, and optionally only some
variants or seatings per game). With no ``--model`` and no
``--stratbench-agent`` on the command line, those subjects join the
baselines and replay their cassettes (record mode ``none``): the run needs
no network, key or model server. ``--stratbench-reference=record``
re-records them against the live models; ``off`` leaves them out.

Example ``reference.json``::

    {"models": ["local/gemma3-270m"], "scaffolds": ["direct", "cot", "constrained"],
     "matches": 1, "max_tokens": 128,
     "games": {"diplomacy": {"variants": ["5-agents"]}, "hive": {"scaffolds": ["constrained"]},
               "hanabi": {"options": {"max_turns": 6}}, "sea_battle": {"scaffolds": []}}}

An empty ``scaffolds`` list leaves a game out of the reference run. A game's
``options`` are keyword arguments for its factory in the reference matches
only (a shorter turn limit, say); every match record carries them as
``game_options``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratbench.core.agent import AgentSpec
from stratbench.core.schedule import SubjectLimit

PROFILE_NAME = "reference.json"
MODES = ("auto", "replay", "record", "off")
_KEYS = {"models", "scaffolds", "matches", "max_tokens", "games", "note"}


class ReferenceError(ValueError):
    """Raised for a reference profile that cannot be used; names the file and the field."""


@dataclass(frozen=True)
class ReferenceProfile:
    """The committed reference run.

    Attributes:
        path: The profile file.
        models: Model strings (``local/gemma3-270m``).
        scaffolds: Scaffold names; every model plays under each.
        matches: Matches per pairing, variant and seating.
        max_tokens: The answer limit the recordings were made with.
        games: Per game name, the variants or seatings played (absent: all).
        game_scaffolds: Per game name, the scaffolds that play it (absent: all).
        game_options: Per game name, keyword arguments for the game's factory.
    """

    path: Path
    models: tuple[str, ...]
    scaffolds: tuple[str, ...]
    matches: int = 1
    max_tokens: int | None = None
    games: dict[str, frozenset[str]] = field(default_factory=dict)
    game_scaffolds: dict[str, frozenset[str]] = field(default_factory=dict)
    game_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def subjects(self) -> list[AgentSpec]:
        """Returns the reference subjects, models × scaffolds."""
        return [AgentSpec(kind="llm", model=m, scaffold=s) for m in self.models for s in self.scaffolds]

    def labels(self) -> set[str]:
        """Returns the reference subjects' labels."""
        return {spec.label for spec in self.subjects()}

    def limits(self, game: str) -> dict[str, SubjectLimit]:
        """Returns each reference subject's narrower schedule for a game."""
        limit = SubjectLimit(matches=self.matches, variants=self.games.get(game))
        allowed = self.game_scaffolds.get(game)
        return {
            spec.label: limit if allowed is None or spec.scaffold in allowed else SubjectLimit(matches=0)
            for spec in self.subjects()
        }


def load_profile(path: Path) -> ReferenceProfile:
    """Reads and checks a reference profile.

    Raises:
        ReferenceError: naming the file and what is wrong.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ReferenceError(f"{path}: cannot read the reference profile ({error})") from None
    if not isinstance(data, dict):
        raise ReferenceError(f"{path}: expected a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ReferenceError(f"{path}: unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}")
    models = _strings(path, data, "models")
    scaffolds = _strings(path, data, "scaffolds")
    matches = data.get("matches", 1)
    if not isinstance(matches, int) or matches < 1:
        raise ReferenceError(f"{path}: 'matches' must be a whole number of at least 1, got {matches!r}")
    max_tokens = data.get("max_tokens")
    if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
        raise ReferenceError(f"{path}: 'max_tokens' must be a whole number of at least 1, got {max_tokens!r}")
    games: dict[str, frozenset[str]] = {}
    game_scaffolds: dict[str, frozenset[str]] = {}
    game_options: dict[str, dict[str, Any]] = {}
    for game, entry in (data.get("games") or {}).items():
        if not isinstance(entry, dict) or not entry or set(entry) - {"variants", "scaffolds", "options"}:
            raise ReferenceError(
                f"{path}: games.{game} must be an object with 'variants', 'scaffolds' and/or 'options'"
            )
        if "options" in entry:
            if not isinstance(entry["options"], dict) or not all(isinstance(k, str) for k in entry["options"]):
                raise ReferenceError(f"{path}: games.{game}.options must be an object of keyword arguments")
            game_options[game] = dict(entry["options"])
        if "variants" in entry:
            games[game] = frozenset(_strings(path, entry, "variants", where=f"games.{game}."))
        if "scaffolds" in entry:
            listed = entry["scaffolds"]
            if listed == []:  # the game is not part of the reference run
                game_scaffolds[game] = frozenset()
                continue
            game_scaffolds[game] = frozenset(_strings(path, entry, "scaffolds", where=f"games.{game}."))
            unknown_scaffolds = sorted(game_scaffolds[game] - set(scaffolds))
            if unknown_scaffolds:
                raise ReferenceError(f"{path}: games.{game}.scaffolds names {', '.join(unknown_scaffolds)}, "
                                     f"not in 'scaffolds'")
    return ReferenceProfile(
        path, tuple(models), tuple(scaffolds), matches, max_tokens, games, game_scaffolds, game_options
    )


def _strings(path: Path, data: dict[str, Any], key: str, where: str = "") -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ReferenceError(f"{path}: '{where}{key}' must be a non-empty list of strings")
    return value


def choose_profile(mode: str, cassette_dir: Path, *, subjects_given: bool) -> ReferenceProfile | None:
    """Returns the profile a run uses, or None.

    ``auto`` uses the profile when the command line names no subject and the
    file exists; ``replay`` and ``record`` need the file; ``off`` never uses it.

    Raises:
        ReferenceError: when the file is needed but missing or invalid.
    """
    if mode == "off" or (mode == "auto" and subjects_given):
        return None
    path = cassette_dir / PROFILE_NAME
    if not path.is_file():
        if mode == "auto":
            return None
        raise ReferenceError(f"--stratbench-reference={mode}: there is no reference profile at {path}")
    return load_profile(path)


__all__ = ["MODES", "PROFILE_NAME", "ReferenceError", "ReferenceProfile", "choose_profile", "load_profile"]
