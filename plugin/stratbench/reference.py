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
``game_options``. A game's ``max_tokens`` replaces the top-level one for its
matches (a game whose answers are long, such as StarCraft II's analysis and
actions).

``on_truncation`` says what the recordings did with an answer the output-token
limit cut (``read``: read as it is; ``retry``: asked for once more), so that
they replay under the rule they were recorded with.

``scaffold_settings`` are the settings of the scaffolds that take any, for
the reference matches only (``{"rap": {"iterations": 3}}``: a shorter search
than ``--rap-iterations`` would give), each merged over the run's own, so
the replay needs no ``--rap-*`` flags; they enter the matches' settings hash
like the command-line ones.

A model recorded under fewer scaffolds than the others gets an entry in
``per_model``: its own ``scaffolds`` (a subset of the top-level list, for
every game) and, per game, its own ``scaffolds`` list that replaces what the
game would otherwise allow it::

    "per_model": {"local/qwen2.5-coder-0.5b": {"note": "...", "scaffolds": ["direct"],
                  "games": {"tictactoe": {"scaffolds": ["direct", "cot", "constrained"]}}}}

``probes`` are the recorded memorisation probes (``--obfuscate``): each
renaming in ``renamings`` (``MODE:SEED``, never salted: a recording is
public) plays beside every reference match of a listed game whose reference
sides are among ``models`` and the game's scaffolds, so ``pytest suites/``
replays the memorisation gap of the reference model::

    "probes": {"renamings": ["mystery:7"], "models": ["local/qwen2.5-coder-0.5b"],
               "games": {"tictactoe": ["direct", "cot"], "pddl": ["direct"]}}

A reference match gets these renamings only, never the run's ``--obfuscate``
ones: no recording holds those.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratbench.core.agent import AgentSpec
from stratbench.core.obfuscation import Obfuscation, ObfuscationError
from stratbench.core.schedule import SubjectLimit
from stratbench.llm.session import TRUNCATION_RULES

PROFILE_NAME = "reference.json"
MODES = ("auto", "replay", "record", "off")
_KEYS = {"models", "scaffolds", "matches", "max_tokens", "games", "per_model", "note", "scaffold_settings",
         "on_truncation", "probes"}


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
        model_scaffolds: Per model, the scaffolds it plays every game under (absent: all).
        model_game_scaffolds: Per model and game, the scaffolds it plays that game under; replaces the
            game's and the model's lists for that model.
        scaffold_settings: Per scaffold name, the settings the reference matches build it with (over the
            run's).
        game_max_tokens: Per game name, the answer limit that replaces ``max_tokens`` for its matches.
        on_truncation: What the recordings did with an answer the output-token limit cut (``read``:
            read it as it is, as every recording before the re-ask existed did; ``retry``), or None (the run's).
        probe_renamings: The recorded memorisation probes' renamings (``mystery:7``).
        probe_models: The reference models whose matches have probes.
        probe_games: Per game name, the scaffolds whose reference matches have probes.
    """

    path: Path
    models: tuple[str, ...]
    scaffolds: tuple[str, ...]
    matches: int = 1
    max_tokens: int | None = None
    games: dict[str, frozenset[str]] = field(default_factory=dict)
    game_scaffolds: dict[str, frozenset[str]] = field(default_factory=dict)
    game_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    model_scaffolds: dict[str, frozenset[str]] = field(default_factory=dict)
    model_game_scaffolds: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    scaffold_settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    game_max_tokens: dict[str, int] = field(default_factory=dict)
    on_truncation: str | None = None
    probe_renamings: tuple[str, ...] = ()
    probe_models: frozenset[str] = frozenset()
    probe_games: dict[str, frozenset[str]] = field(default_factory=dict)

    def probes(self, game: str, sides: Sequence[AgentSpec]) -> list[Obfuscation]:
        """The recorded renamings that play beside a reference match of a game (none if any of its reference
        sides is not among the probes' models and the game's scaffolds)."""
        labels = self.labels()
        reference = [side for side in sides if side.label in labels]
        scaffolds = self.probe_games.get(game, frozenset())
        if not reference or not all(side.model in self.probe_models and side.scaffold in scaffolds
                                    for side in reference):
            return []
        return [Obfuscation.parse(spec) for spec in self.probe_renamings]

    def merged_scaffold_settings(self, run: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Returns the run's scaffold settings with the profile's laid over them, scaffold by scaffold."""
        names = set(run) | set(self.scaffold_settings)
        return {name: {**run.get(name, {}), **self.scaffold_settings.get(name, {})} for name in sorted(names)}

    def max_tokens_for(self, game: str) -> int | None:
        """Returns the answer limit of a game's reference matches."""
        return self.game_max_tokens.get(game, self.max_tokens)

    def subjects(self) -> list[AgentSpec]:
        """Returns the reference subjects, models × scaffolds."""
        return [AgentSpec(kind="llm", model=m, scaffold=s) for m in self.models for s in self.scaffolds]

    def labels(self) -> set[str]:
        """Returns the reference subjects' labels."""
        return {spec.label for spec in self.subjects()}

    def limits(self, game: str) -> dict[str, SubjectLimit]:
        """Returns each reference subject's narrower schedule for a game."""
        limit = SubjectLimit(matches=self.matches, variants=self.games.get(game))
        return {
            spec.label: limit if spec.scaffold in self.scaffolds_for(spec.model or "", game) else SubjectLimit(matches=0)
            for spec in self.subjects()
        }

    def scaffolds_for(self, model: str, game: str) -> frozenset[str]:
        """Returns the scaffolds a reference model plays a game under."""
        own = self.model_game_scaffolds.get(model, {}).get(game)
        if own is not None:
            return own
        allowed = self.game_scaffolds.get(game, frozenset(self.scaffolds))
        return allowed & self.model_scaffolds.get(model, frozenset(self.scaffolds))


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
    max_tokens = _answer_limit(path, data.get("max_tokens"), "max_tokens")
    games: dict[str, frozenset[str]] = {}
    game_scaffolds: dict[str, frozenset[str]] = {}
    game_options: dict[str, dict[str, Any]] = {}
    game_max_tokens: dict[str, int] = {}
    for game, entry in (data.get("games") or {}).items():
        if not isinstance(entry, dict) or not entry or set(entry) - {"variants", "scaffolds", "options", "max_tokens"}:
            raise ReferenceError(
                f"{path}: games.{game} must be an object with 'variants', 'scaffolds', 'options' and/or 'max_tokens'"
            )
        if "max_tokens" in entry:
            game_max_tokens[game] = _answer_limit(path, entry["max_tokens"], f"games.{game}.max_tokens")
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
    model_scaffolds, model_game_scaffolds = _per_model(path, data.get("per_model"), models, scaffolds)
    on_truncation = data.get("on_truncation")
    if on_truncation is not None and on_truncation not in TRUNCATION_RULES:
        raise ReferenceError(f"{path}: 'on_truncation' must be one of {', '.join(TRUNCATION_RULES)}, "
                             f"got {on_truncation!r}")
    return ReferenceProfile(
        path, tuple(models), tuple(scaffolds), matches, max_tokens, games, game_scaffolds, game_options,
        model_scaffolds, model_game_scaffolds, _scaffold_settings(path, data.get("scaffold_settings"), scaffolds),
        game_max_tokens, on_truncation, *_probes(path, data.get("probes"), models, scaffolds),
    )


def _probes(path: Path, value: Any, models: list[str], scaffolds: list[str]
            ) -> tuple[tuple[str, ...], frozenset[str], dict[str, frozenset[str]]]:
    if value is None:
        return (), frozenset(), {}
    if not isinstance(value, dict) or set(value) - {"renamings", "models", "games", "note"}:
        raise ReferenceError(f"{path}: 'probes' must be an object with 'renamings', 'models' and 'games'")
    renamings = _strings(path, value, "renamings", where="probes.")
    for spec in renamings:
        try:
            Obfuscation.parse(spec)
        except ObfuscationError as error:
            raise ReferenceError(f"{path}: probes.renamings: {error}") from None
    listed = _strings(path, value, "models", where="probes.")
    unknown = sorted(set(listed) - set(models))
    if unknown:
        raise ReferenceError(f"{path}: probes.models names {', '.join(unknown)}, not in 'models'")
    games = value.get("games")
    if not isinstance(games, dict) or not games:
        raise ReferenceError(f"{path}: probes.games must be an object of game name -> scaffolds")
    return (tuple(renamings), frozenset(listed),
            {game: _known_scaffolds(path, {"scaffolds": entry}, f"probes.games.{game}", scaffolds)
             for game, entry in games.items()})


def _answer_limit(path: Path, value: Any, where: str) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ReferenceError(f"{path}: '{where}' must be a whole number of at least 1, got {value!r}")
    return value


def _scaffold_settings(path: Path, value: Any, scaffolds: list[str]) -> dict[str, dict[str, Any]]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, dict) and v for v in value.values()):
        raise ReferenceError(f"{path}: 'scaffold_settings' must be an object of scaffold name -> settings object")
    unknown = sorted(set(value) - set(scaffolds))
    if unknown:
        raise ReferenceError(f"{path}: scaffold_settings names {', '.join(unknown)}, not in 'scaffolds'")
    return {name: dict(settings) for name, settings in value.items()}


def _per_model(
    path: Path, value: Any, models: list[str], scaffolds: list[str]
) -> tuple[dict[str, frozenset[str]], dict[str, dict[str, frozenset[str]]]]:
    if value is None:
        return {}, {}
    if not isinstance(value, dict):
        raise ReferenceError(f"{path}: 'per_model' must be an object keyed by model")
    model_scaffolds: dict[str, frozenset[str]] = {}
    model_games: dict[str, dict[str, frozenset[str]]] = {}
    for model, entry in value.items():
        where = f"per_model.{model}"
        if model not in models:
            raise ReferenceError(f"{path}: {where} names a model not in 'models'")
        if not isinstance(entry, dict) or not set(entry) - {"note"} or set(entry) - {"scaffolds", "games", "note"}:
            raise ReferenceError(f"{path}: {where} must be an object with 'scaffolds' and/or 'games' (and a 'note')")
        if "scaffolds" in entry:
            model_scaffolds[model] = _known_scaffolds(path, entry, where, scaffolds)
        games = entry.get("games", {})
        if not isinstance(games, dict):
            raise ReferenceError(f"{path}: {where}.games must be an object keyed by game")
        for game, game_entry in games.items():
            if not isinstance(game_entry, dict) or set(game_entry) != {"scaffolds"}:
                raise ReferenceError(f"{path}: {where}.games.{game} must be an object with 'scaffolds' only")
            model_games.setdefault(model, {})[game] = _known_scaffolds(
                path, game_entry, f"{where}.games.{game}", scaffolds
            )
    return model_scaffolds, model_games


def _known_scaffolds(path: Path, entry: dict[str, Any], where: str, scaffolds: list[str]) -> frozenset[str]:
    if entry["scaffolds"] == []:
        return frozenset()
    listed = frozenset(_strings(path, entry, "scaffolds", where=f"{where}."))
    unknown = sorted(listed - set(scaffolds))
    if unknown:
        raise ReferenceError(f"{path}: {where}.scaffolds names {', '.join(unknown)}, not in 'scaffolds'")
    return listed


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
