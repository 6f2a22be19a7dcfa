"""Decides which runs are rated together: runs pool only where the settings that decide a match agree.

Two runs pool when, for every game both played:

* **protocol** — their matches of it were played under the same protocol(s);
* **game options** — it was built with the same options (variant options; a memorisation probe,
  ``--obfuscate``, is compared with the same renaming's probes only, so runs with and without probes pool);
* **rules** — the same illegal-move tolerance, fallback and truncation handling;
* **stratbench version** — prompts and rules live in it;
* **request options** — the options on the recorded command line that enter the settings hash
  (:data:`DECIDING_OPTIONS`: max tokens, temperature, vision, ...), an absent one being its default; the
  options a model agent's label carries (:data:`LABELLED_OPTIONS`: ``--reasoning-effort``,
  ``--thinking-budget``, ``--answer-format``) are not compared: they make other agents, rated side by side
  in one pool;
* **settings hash** — every match id the two share, played with the same seed, carries the same
  ``settings_hash`` (it covers what the record does not show: max tokens, temperature, vision,
  scaffold settings, the Stockfish binary, the annotator model).

A field a run does not record (a ``results.json`` alone has no settings hashes or rules) is not
compared. Runs are taken oldest first; each joins the first pool whose every run agrees with it,
else it opens a new pool, and the page names what differs: it is never pooled silently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.obfuscation import renaming_of
from stratbench.leaderboard.runs import Run

__all__ = ["DECIDING_OPTIONS", "LABELLED_OPTIONS", "POOLING_RULE", "Pool", "difference_fields", "differences",
           "pool_runs"]

DECIDING_OPTIONS = (
    "--stratbench-max-tokens", "--temperature", "--stratbench-vision", "--protocol", "--prompt-cache",
    "--on-truncation", "--rap-depth", "--rap-iterations", "--annotator-model", "--advgame-rounds", "--stockfish",
)
"""Command-line options whose values enter a match's settings hash (:mod:`stratbench.match.settings`) and no
agent's label: compared between two runs that both recorded their command line, so runs without a shared
match are not pooled across, say, two token limits."""

LABELLED_OPTIONS = ("--reasoning-effort", "--thinking-budget", "--answer-format")
"""Command-line options a model agent's label carries (``model+direct(effort=high)``,
:data:`stratbench.core.agent.MODEL_PARAM_LABELS`): another value plays another agent, so they never split
pools; the pool rates both agents side by side."""

POOLING_RULE = (
    "Runs are rated together only where, for every game they share, the protocol, the game options, the rules "
    "(illegal-move tolerance, fallback, truncation handling), the stratbench version and the request options on "
    "their command lines (max tokens, temperature, vision, scaffold settings, ...) agree, and every match id "
    "they share with the same seed carries the same settings hash. The reasoning effort, thinking budget and "
    "answer format are part of an agent's name (model+direct(effort=high)), so they never split a pool: each "
    "setting is its own agent in it. Runs that differ are rated apart, each pool with its own ratings."
)
"""How pooling is decided (shown on the index page)."""


@dataclass
class Pool:
    """Runs rated together, and why the later pools stand apart from the earlier ones.

    Attributes:
        name: ``pool 1``, ``pool 2``, ... in the order of their oldest run.
        runs: Its runs, oldest first.
        apart: For each earlier pool, what keeps this one from joining it: ``(earlier pool name, [differences])``.
    """

    name: str
    runs: list[Run]
    apart: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def protocols(self) -> list[str]:
        """The protocols its runs played."""
        return sorted({p for run in self.runs for p in run.protocols})

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every run's records, each match id prefixed with its run's label, so that no run's match replaces
        another's: pooled match counts are the sums of the runs' counts."""
        return [{**record, "match_id": f"{run.label}::{record['match_id']}"}
                for run in self.runs for record in run.records]


def pool_runs(runs: list[Run]) -> list[Pool]:
    """Groups runs (oldest first) into pools of runs whose settings agree (:func:`differences`)."""
    pools: list[Pool] = []
    for run in runs:
        apart = []
        for pool in pools:
            found = _first_differences(pool, run)
            if not found:
                pool.runs.append(run)
                break
            apart.append((pool.name, found))
        else:
            pools.append(Pool(name=f"pool {len(pools) + 1}", runs=[run], apart=apart))
    return pools


def _first_differences(pool: Pool, run: Run) -> list[str]:
    """What keeps ``run`` from the first of the pool's runs it differs from (empty: it agrees with them all)."""
    for member in pool.runs:
        found = differences(member, run)
        if found:
            return found
    return []


def differences(a: Run, b: Run) -> list[str]:
    """Names what keeps two runs apart (empty: they pool), one phrase per field, game and pair of values.

    Protocols are compared per game; game options and rules per game and pairing (the same agents in the same
    seats: a rule that applies only where a model plays is compared only where one does), over scored matches.

    Examples: ``protocol of tictactoe: default vs paper``, ``settings hash of 3 shared match(es) (e.g. ...)``.
    """
    found: list[str] = []
    for name, read in (("protocol", _protocols), ("game options", _game_options), ("rules", _rules)):
        left, right = read(a), read(b)
        for key in sorted(set(left) & set(right)):
            if left[key] != right[key]:
                phrase = f"{name} of {key[0]}: {_show(left[key])} vs {_show(right[key])}"
                if phrase not in found:
                    found.append(phrase)
    left_version, right_version = a.version("pytest-stratbench"), b.version("pytest-stratbench")
    if "unknown" not in (left_version, right_version) and left_version != right_version:
        found.append(f"stratbench version: {left_version} vs {right_version}")
    if a.command_line and b.command_line:
        left_options, right_options = _options(a.command_line), _options(b.command_line)
        for option in DECIDING_OPTIONS:
            if left_options.get(option, "default") != right_options.get(option, "default"):
                found.append(f"{option} on the command line: {left_options.get(option, 'default')} vs "
                             f"{right_options.get(option, 'default')}")
    hashes_a, hashes_b = _hashes(a), _hashes(b)
    clashes = sorted(key for key, value in hashes_b.items() if key in hashes_a and hashes_a[key] != value)
    if clashes:
        match_id, seed = clashes[0]
        found.append(f"settings hash of {len(clashes)} shared match(es) (e.g. {match_id}, seed {seed}: "
                     f"{hashes_a[clashes[0]]} vs {hashes_b[clashes[0]]})")
    return found


def difference_fields(found: list[str]) -> list[str]:
    """The fields a list of :func:`differences` names, each once, in order (``protocol``, ``rules``,
    ``--temperature``, ``settings hash``, ...): the short form the index shows before the full phrases."""
    fields: list[str] = []
    for phrase in found:
        head = phrase.split(": ", 1)[0].split(" of ", 1)[0].removesuffix(" on the command line")
        if head not in fields:
            fields.append(head)
    return fields


def _options(argv: list[str]) -> dict[str, str]:
    """The deciding options' values on a command line (``--opt value`` or ``--opt=value``; the last one wins)."""
    found = {}
    for k, word in enumerate(argv):
        name, equals, value = word.partition("=")
        if name in DECIDING_OPTIONS:
            found[name] = value if equals else (argv[k + 1] if k + 1 < len(argv) else "")
    return found


def _protocols(run: Run) -> dict[tuple[str, ...], set[str]]:
    out: dict[tuple[str, ...], set[str]] = {}
    for record in run.scored:
        out.setdefault((str(record.get("game")),), set()).add(str(record.get("protocol") or "default"))
    return out


def _recorded(run: Run, field_name: str) -> dict[tuple[str, ...], set[str]]:
    out: dict[tuple[str, ...], set[str]] = {}
    for record in run.scored:
        if field_name in record:
            # a memorisation probe is compared with probes of its renaming only: a run with probes pools with
            # one without them (probes are extra matches, not other settings of the same ones)
            key = (str(record.get("game")), renaming_of(record) or "",
                   *(side["agent"] for side in record["sides"]))
            out.setdefault(key, set()).add(_compact(record[field_name]))
    return out


def _game_options(run: Run) -> dict[tuple[str, ...], set[str]]:
    return _recorded(run, "game_options")


def _rules(run: Run) -> dict[tuple[str, ...], set[str]]:
    return _recorded(run, "rules")


def _compact(value: Any) -> str:
    """``{a=1, b=x}`` for a dict (sorted keys), JSON otherwise."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(value.items())) + "}"
    return json.dumps(value, sort_keys=True)


def _hashes(run: Run) -> dict[tuple[str, Any], str]:
    return {(str(r["match_id"]), r.get("seed")): str(r["settings_hash"]) for r in run.records
            if r.get("settings_hash")}


def _show(values: set[str]) -> str:
    return " + ".join(sorted(values))
