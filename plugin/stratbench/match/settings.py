"""The settings that decide a match's outcome, and their hash (``settings_hash`` in each record).

``--resume`` skips a match only when an earlier scored record has the same
match id and the same hash. The hash covers what changes what is played: the
game, its variant and factory options (a memorisation probe's renaming among them: its
``MODE:SEED`` and its tag, which carries ``--seed-salt``'s digest), the seed, every side's agent (kind,
model, scaffold, parameters: the reasoning effort, thinking budget and answer
format among them), the subject's seat, the retry and fallback
rules, the model settings sent with each request (temperature, max tokens,
vision; ``--prompt-cache off``; ``--on-truncation retry`` where a model plays), the protocol, ``--advgame-rounds`` when given, the settings of
the sides' scaffolds that take any (``--rap-depth``, ``--rap-iterations``), the annotator
model, the Stockfish binary, and stratbench's own version (prompts and
rules live in it). It leaves out what only changes how a
match is reached: the ``--api-base`` address (a loopback port differs from run
to run), record mode, timeouts, retries, worker count and the report
directory.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from stratbench.core.schedule import MatchSpec, SuiteSpec


def match_settings(
    spec: MatchSpec,
    suite: SuiteSpec,
    *,
    game_options: dict[str, Any],
    options: dict[str, Any],
    version: str,
    deciding: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Returns the outcome-deciding settings of one match as builtin types.

    Args:
        game_options: The keyword arguments the game is built with.
        options: The run options the agents get (``temperature``, ``max_tokens``, ...).
        version: stratbench's version.
        deciding: The families' outcome-deciding settings (``FamilySettings.deciding``: Stockfish's binary,
            AdvGameBench's rounds where given), merged in at the top level.
    """
    settings = {
        "game": spec.game,
        "variant": spec.variant,
        "game_options": game_options,
        "seed": spec.seed,
        "sides": [side.to_dict() for side in spec.sides],
        "subject": spec.subject,
        "rules": {"illegal_tolerance": suite.illegal_tolerance, "fallback": suite.fallback},
        "request": {name: options.get(name) for name in ("temperature", "max_tokens", "vision")},
        "annotator_model": options.get("annotator_model"),
        "stratbench": version,
        **(deciding or {}),
    }
    if options.get("on_truncation") == "retry" and any(side.model for side in spec.sides):
        # Cut answers were read as they were before the re-ask existed: those matches keep their hashes.
        settings["on_truncation"] = "retry"
    if options.get("prompt_cache") == "off":  # unmarked requests are other requests (the default keeps old hashes)
        settings["prompt_cache"] = "off"
    if spec.protocol != "default":  # default-protocol hashes stay those of earlier runs
        settings["protocol"] = spec.protocol
    used = {side.scaffold for side in spec.sides if getattr(side, "scaffold", None)}
    scaffolds = {name: dict(value) for name, value in (options.get("scaffold_settings") or {}).items()
                 if name in used and value}
    if scaffolds:  # only where a side's scaffold takes settings: other hashes stay those of earlier runs
        settings["scaffold_settings"] = scaffolds
    return settings


def settings_hash(settings: dict[str, Any]) -> str:
    """Returns a short, stable hash of :func:`match_settings` (sha256 of its sorted-key JSON, 16 hex digits)."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
