"""Protocols: how a family is played, the project's default or its paper's exact version.

Every game plays the ``default`` protocol (the project's own prompts, lenient
answer reading, clear retry feedback). A game may register more protocols
(``paper``: as the paper's released code played it) through the
``pytest_stratbench_add_protocols`` hook. A protocol is data, not code: what it
changes is passed on to the parts that already own it.

- ``game_options``: keyword arguments for the game factory (the game then
  words its prompts, answer formats and retry messages as the paper did);
- ``agent_options``: run options the agents get (``temperature``...);
  ``temperature`` yields to an explicit ``--temperature``;
- ``suite``: :class:`~stratbench.core.schedule.SuiteSpec` fields replaced for
  the protocol (opponents, seatings, variants, retry tolerance, fallback).

A suite plays the protocol its marker pins (``@pytest.mark.stratbench(...,
protocol="paper")``), else the one ``--protocol`` names, else ``default``. The
match id of a non-default protocol starts with its name (``paper-...``), so its
cassettes and results never collide with the default's; the record names the
protocol and the report labels every table with it. ``docs/PROTOCOLS.md``
lists each family's differences.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from stratbench.core.protocol_names import DEFAULT, PAPER, id_prefix
from stratbench.core.schedule import SuiteSpec

__all__ = ["DEFAULT", "DEFAULT_PROTOCOL", "PAPER", "Protocol", "agent_options", "effective_name", "id_prefix"]


@dataclass(frozen=True)
class Protocol:
    """One way of playing a game.

    Attributes:
        name: The protocol's name (``paper``).
        source: Where it comes from (the paper and its released code), for the docs and the report.
        game_options: Keyword arguments for the game factory.
        agent_options: Run options for the agents (``temperature``, ``max_tokens``...).
        suite: Suite declaration fields to replace.
    """

    name: str
    source: str = ""
    game_options: dict[str, Any] = field(default_factory=dict)
    agent_options: dict[str, Any] = field(default_factory=dict)
    suite: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        known = {f.name for f in fields(SuiteSpec)} - {"game", "protocol"}
        unknown = sorted(set(self.suite) - known)
        if unknown:
            raise ValueError(f"protocol {self.name!r}: unknown suite fields {unknown}; known: {sorted(known)}")


DEFAULT_PROTOCOL = Protocol(DEFAULT, source="stratbench")


def effective_name(pinned: str | None, requested: str | None) -> str:
    """Returns the protocol a suite plays: its marker's pin, else ``--protocol``, else ``default``."""
    return pinned or requested or DEFAULT


def agent_options(protocol: Protocol, options: dict[str, Any], *, temperature_given: bool) -> dict[str, Any]:
    """Returns ``options`` with the protocol's agent options applied (an explicit ``--temperature`` wins)."""
    merged = dict(options)
    for name, value in protocol.agent_options.items():
        if name == "temperature" and temperature_given:
            continue
        merged[name] = value
    return merged
