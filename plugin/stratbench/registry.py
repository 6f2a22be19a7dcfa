"""The registry of games, agents, scaffolds and metrics.

It is filled through the pluggy hooks in :mod:`stratbench.hookspecs`; the
built-ins register through the same hooks (:mod:`stratbench.builtins`), so a
third-party package with a ``pytest11`` entry point is indistinguishable from
the core. Names of third-party components should be namespaced by package
(``mypkg/myagent``); bare names are the built-ins'.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stratbench.protocols import DEFAULT, DEFAULT_PROTOCOL

if TYPE_CHECKING:
    from stratbench.core.agent import Agent, AgentContext
    from stratbench.core.game import Game
    from stratbench.core.runner import MatchOutcome
    from stratbench.core.types import Observation
    from stratbench.protocols import Protocol
    from stratbench.scaffolds.base import Scaffold

GameFactory = Callable[..., "Game"]
"""``factory()`` or ``factory(variant=name)`` returns a Game."""
AgentFactory = Callable[["AgentContext"], "Agent"]
ScaffoldFactory = Callable[..., "Scaffold"]
VariantLister = Callable[[dict[str, Any]], list["Variant"]]
"""Lists a game's variants (instances, levels) given the run's options."""
MatchMetric = Callable[["Game", "MatchOutcome", int], dict[int, dict[str, Any]]]
"""A per-match metric: ``(game, outcome, seed) -> {player: {name: value}}``."""
Annotator = Callable[["Game", "MatchOutcome", Any], Awaitable[dict[int, dict[str, Any]]]]
"""An LLM-judged metric: ``await annotator(game, outcome, session) -> {player: {name: value}}``.

``session`` is a :class:`~stratbench.llm.session.ModelSession` for
``--annotator-model``; its calls are recorded in the match's cassette.
"""


ReportSection = Callable[..., "dict[str, Any] | None"]
"""Builds a report section from scored result records: ``{"title", "columns", "rows", "note"}`` or None; one
declaring an ``unscored`` keyword parameter also gets the skipped and errored records."""
BoardRenderer = Callable[[dict[str, Any]], "str | None"]
"""Draws one ``board`` snapshot as an inline ``<svg>``; None to show its text instead."""
BoardClicks = Callable[["Observation"], "dict[str, Any] | None"]
"""Maps a click on the drawn board to a legal move of an observation (the human seat's page); None: not clickable."""
AnswerReader = Callable[..., Any]
"""A strict reader of a paper protocol's answers: ``reader(reply, observation) -> Action`` (or messages)."""


@dataclass(frozen=True)
class Variant:
    """One variant of a game (a PDDL instance, an engine level), or a reason to skip it.

    Attributes:
        name: The variant's name, used in test ids (``blocksworld/p01``).
        skip: Why this variant cannot run here, or None.
    """

    name: str
    skip: str | None = None


@dataclass
class Registry:
    """Named factories for every pluggable component."""

    games: dict[str, GameFactory] = field(default_factory=dict)
    variant_listers: dict[str, VariantLister] = field(default_factory=dict)
    agents: dict[str, AgentFactory] = field(default_factory=dict)
    scaffolds: dict[str, ScaffoldFactory] = field(default_factory=dict)
    metrics: dict[str, dict[str, MatchMetric]] = field(default_factory=dict)
    annotators: dict[str, dict[str, Annotator]] = field(default_factory=dict)
    report_sections: dict[str, ReportSection] = field(default_factory=dict)
    board_renderers: dict[str, BoardRenderer] = field(default_factory=dict)
    board_clicks: dict[str, BoardClicks] = field(default_factory=dict)
    protocols: dict[str, dict[str, Protocol]] = field(default_factory=dict)
    model_seats: dict[str, str | None] = field(default_factory=dict)
    """Agent names a seating uses for seats a run's model plays, each with the option naming that model
    (see :meth:`add_model_seat`)."""
    answer_readers: dict[str, AnswerReader | str] = field(default_factory=dict)
    prompt_styles: dict[str, str] = field(default_factory=dict)
    guide_folders: list[tuple[str, str]] = field(default_factory=list)
    system_components: list[Callable[[], Any]] = field(default_factory=list)

    def add_game(self, name: str, factory: GameFactory, *, variants: VariantLister | None = None) -> None:
        """Registers a game factory under ``name``.

        Args:
            name: The game's name.
            factory: Called as ``factory()``, or ``factory(variant=v)`` for a variant.
            variants: Lists the variants a suite of this game expands into
                (``variants(options) -> [Variant, ...]``); None for a game with one form.
        """
        _add(self.games, "game", name, factory)
        if variants is not None:
            self.variant_listers[name] = variants

    def add_agent(self, name: str, factory: AgentFactory) -> None:
        """Registers an agent factory ``factory(context) -> Agent`` under ``name``."""
        if name == "llm":
            raise ValueError("'llm' is reserved: LLM agents are chosen with --model")
        _add(self.agents, "agent", name, factory)

    def add_model_seat(self, name: str, factory: AgentFactory, *, model_option: str | None = None) -> None:
        """Registers a seat that a model plays when the run has one (a paper's LLM opponents).

        In a seating, ``name`` is then played by the model the family option
        ``model_option`` names (Diplomacy's ``diplomacy_opponent``), else by
        the subject's model, else by the run's first ``--model``; without any
        model, ``factory(context)`` plays it.
        """
        self.add_agent(name, factory)
        self.model_seats[name] = model_option

    def add_answer_reader(self, name: str, reader: AnswerReader | str) -> None:
        """Registers a paper protocol's strict answer reader, named by ``Observation``'s ``answer_parser``.

        Args:
            name: The reader's name.
            reader: ``reader(reply, observation)``, or ``"module:function"`` to import it when first used
                (so no family module loads before its game plays).
        """
        _add(self.answer_readers, "answer reader", name, reader)

    def answer_reader(self, name: str) -> AnswerReader:
        """Returns the answer reader registered as ``name`` (importing it if registered by path)."""
        reader = _get(self.answer_readers, "answer reader", name)
        if isinstance(reader, str):
            module_name, _, function = reader.partition(":")
            reader = self.answer_readers[name] = getattr(importlib.import_module(module_name), function)
        return reader

    def add_prompt_style(self, name: str, module: str) -> None:
        """Registers a paper's prompt structure (``Observation``'s ``prompt_style``) by its module's name.

        The module provides ``released_prompt(observation)``, ``retry_message(observation)`` and
        ``REQUEST_OPTIONS`` (see :mod:`stratbench.scaffolds.prompt`).
        """
        _add(self.prompt_styles, "prompt style", name, module)

    def add_guide_folder(self, package: str, folder: str) -> None:
        """Registers a folder of strategy guides (``<game>.md``) inside ``package``, for the ``guide`` scaffold."""
        if (package, folder) not in self.guide_folders:
            self.guide_folders.append((package, folder))

    def add_system_component(self, component: Callable[[], Any]) -> None:
        """Registers a system program some matches need (``component() -> system_components.Component``)."""
        self.system_components.append(component)

    def add_scaffold(self, name: str, factory: ScaffoldFactory) -> None:
        """Registers a scaffold factory ``factory(**settings) -> Scaffold`` under ``name``."""
        _add(self.scaffolds, "scaffold", name, factory)

    def add_metric(self, game: str, name: str, metric: MatchMetric) -> None:
        """Registers a per-match metric computed for every match of ``game``."""
        _add(self.metrics.setdefault(game, {}), f"metric for {game}", name, metric)

    def add_annotator(self, game: str, name: str, annotator: Annotator) -> None:
        """Registers an LLM-judged metric, run after each match of ``game`` when
        ``--annotator-model`` is given."""
        _add(self.annotators.setdefault(game, {}), f"annotator for {game}", name, annotator)

    def add_report_section(self, name: str, builder: ReportSection) -> None:
        """Registers a per-family report section (tables of that family's metrics)."""
        _add(self.report_sections, "report section", name, builder)

    def add_board_renderer(self, game: str, renderer: BoardRenderer) -> None:
        """Registers how the replay viewer draws ``game``'s snapshots (``Game.snapshot``).

        ``renderer(snapshot)`` returns an inline ``<svg>`` (or None to fall back to
        the snapshot's text). Games without one are shown as text boards.
        """
        _add(self.board_renderers, "board renderer", game, renderer)

    def add_board_clicks(self, game: str, layout: BoardClicks) -> None:
        """Registers how a click on ``game``'s board, as its renderer draws it, reads as a move on the human
        seat's page (:mod:`stratbench.human_web.boards`).

        ``layout(observation)`` returns the grid over the drawing (``{"left", "top", "width", "height"}`` as
        shares of the image, ``rows``, ``columns``, and ``cells[row][column]``: the move a click there makes;
        or ``squares`` and ``moves``: ``{from+to: move}`` for a move of two clicks), or None where the
        observation cannot be played by clicking. Games without one are played through their action list.
        """
        _add(self.board_clicks, "board clicks", game, layout)

    def add_protocol(self, game: str, protocol: Protocol) -> None:
        """Registers a way of playing ``game`` other than its default (see :mod:`stratbench.protocols`)."""
        if protocol.name == DEFAULT:
            raise ValueError(f"protocol {DEFAULT!r} of {game} is the game's own: it cannot be registered")
        _add(self.protocols.setdefault(game, {}), f"protocol for {game}", protocol.name, protocol)

    def protocol(self, game: str, name: str) -> Protocol:
        """Returns the protocol ``name`` of ``game`` (``default`` always exists).

        Raises:
            ValueError: naming the game and the protocols it has.
        """
        if name == DEFAULT:
            return DEFAULT_PROTOCOL
        known = self.protocols.get(game, {})
        if name not in known:
            names = ", ".join([DEFAULT, *sorted(known)])
            raise ValueError(f"game {game!r} has no protocol {name!r}; its protocols: {names}")
        return known[name]

    def game(self, name: str, variant: str | None = None, **options: Any) -> Game:
        """Builds the game registered as ``name`` (in ``variant``, if given, with ``options``)."""
        factory = _get(self.games, "game", name)
        return factory(**options) if variant is None else factory(variant=variant, **options)

    def variants(self, name: str, options: dict[str, Any]) -> list[Variant] | None:
        """Returns the variants of game ``name``, or None if it has one form."""
        _get(self.games, "game", name)
        lister = self.variant_listers.get(name)
        return None if lister is None else list(lister(options))

    def agent_factory(self, name: str) -> AgentFactory:
        """Returns the agent factory registered as ``name``; ``kind:detail`` (``human:alice``) names the
        factory ``kind`` when no agent is registered under the whole name (the agent reads its detail from
        ``context.spec.kind``)."""
        if name not in self.agents and ":" in name and name.partition(":")[0] in self.agents:
            return self.agents[name.partition(":")[0]]
        return _get(self.agents, "agent", name)

    def scaffold(self, name: str, **settings: Any) -> Scaffold:
        """Builds the scaffold registered as ``name``."""
        return _get(self.scaffolds, "scaffold", name)(**settings)

    def check_agent(self, name: str) -> None:
        """Raises ValueError if no agent is registered as ``name`` (or as its ``kind`` in ``kind:detail``)."""
        self.agent_factory(name)

    def check_scaffold(self, name: str) -> None:
        """Raises ValueError if no scaffold is registered as ``name``."""
        _get(self.scaffolds, "scaffold", name)


def _add(table: dict[str, Any], kind: str, name: str, value: Any) -> None:
    if not name or not isinstance(name, str):
        raise ValueError(f"a {kind} needs a non-empty name")
    if name in table:
        raise ValueError(f"{kind} {name!r} is registered twice")
    table[name] = value


def _get(table: dict[str, Any], kind: str, name: str) -> Any:
    try:
        return table[name]
    except KeyError:
        known = ", ".join(sorted(table)) or "none"
        raise ValueError(f"unknown {kind} {name!r}; known: {known}") from None
