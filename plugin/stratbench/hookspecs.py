"""Hook specifications: how games, agents, scaffolds and metrics plug in.

Implement these with ``@pytest.hookimpl`` in a family's plugin module,
installed under the ``stratbench`` entry-point group (the built-in families
are installed that way: ``games/<family>/plugin.py``), or in a ``conftest.py``.
:mod:`stratbench.families` loads the families for pytest, the CLI and the
tests alike. A package registered only as a ``pytest11`` plugin still works
under pytest (deprecated for families: ``stratbench report`` must import it to
find it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from stratbench.family_settings import FamilySettings
    from stratbench.registry import Registry

hookspec = pytest.hookspec

# -------------------------------------------------------------------------
# a family's options and settings
# -------------------------------------------------------------------------


@hookspec(historic=True)
def pytest_stratbench_addoption(parser: pytest.Parser) -> None:
    """Adds a family's command-line options (called once per family, like ``pytest_addoption``).

    Args:
        parser: pytest's parser; put the options in a group of the family's own
            (``parser.getgroup("stratbench-mypkg", "stratbench: My games")``).

    Example:
        .. code-block:: python

            @pytest.hookimpl
            def pytest_stratbench_addoption(parser):
                parser.getgroup("stratbench-mypkg", "stratbench: My games").addoption("--mypkg-size", type=int, default=3)
    """


@hookspec
def pytest_stratbench_family_settings(config: pytest.Config) -> FamilySettings | None:
    """Returns a family's run settings, read from its options (one per family; None for none).

    Args:
        config: The pytest config (``config.getoption("mypkg_size")``).

    Returns:
        A :class:`stratbench.family_settings.FamilySettings` subclass; the run
        keeps it as ``RunSettings.families[settings.family]``, and agents and
        variant listers get its fields in their ``options``. Raise
        ``pytest.UsageError`` for a bad combination of options.
    """


# -------------------------------------------------------------------------
# registration
# -------------------------------------------------------------------------


@hookspec
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers games.

    Args:
        registry: Call ``registry.add_game(name, factory)``; ``factory()``
            returns a :class:`stratbench.core.game.Game`.

    Example:
        .. code-block:: python

            @pytest.hookimpl
            def pytest_stratbench_add_games(registry):
                registry.add_game("mypkg/mygame", MyGame)
    """


@hookspec
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers agents (baselines, solvers, engines, humans).

    Args:
        registry: Call ``registry.add_agent(name, factory)``; ``factory(context)``
            gets a :class:`stratbench.core.agent.AgentContext` and returns an
            object with ``async act(observation) -> Action``;
            ``registry.add_model_seat(name, factory, model_option=...)`` for a
            seat a model plays when the run has one;
            ``registry.add_system_component(factory)`` for a program outside
            Python some agents need (announced when missing).

    Example:
        .. code-block:: python

            @pytest.hookimpl
            def pytest_stratbench_add_agents(registry):
                registry.add_agent("mypkg/first", FirstLegalAgent)
    """


@hookspec
def pytest_stratbench_add_scaffolds(registry: Registry) -> None:
    """Registers scaffolds (how a model is prompted: direct, cot, ...).

    Args:
        registry: Call ``registry.add_scaffold(name, factory)``;
            ``factory(**settings)`` returns an object with
            ``async decide(observation, session) -> Action``.
    """


@hookspec
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers per-match metrics for a game.

    Args:
        registry: Call ``registry.add_metric(game, name, metric)``;
            ``metric(game, outcome, seed)`` returns ``{player: {name: value}}``.
            LLM-judged metrics use ``registry.add_annotator(game, name, annotator)``;
            ``await annotator(game, outcome, session)`` returns the same shape and
            runs only with ``--annotator-model``, its calls recorded in the match's cassette.
    """


@hookspec
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers report sections (per-family metric tables) and replay board renderers.

    Args:
        registry: Call ``registry.add_report_section(name, builder)``;
            ``builder(records)`` returns ``{"title", "columns", "rows", "note"}``
            or None when the records hold nothing for it; ``records`` are the
            scored ones, and a builder declaring an ``unscored`` keyword
            parameter also gets the skipped and errored ones, to show beside
            its rates (:mod:`stratbench.report.unplayed`). Call
            ``registry.add_board_renderer(game, renderer)``; ``renderer(snapshot)``
            draws one of the game's ``board`` snapshots (``Game.snapshot``) as an
            inline ``<svg>`` on the match's replay page.
    """


@hookspec
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers ways of playing a game other than its default (``paper``), and what they name.

    Args:
        registry: Call ``registry.add_protocol(game, Protocol(...))`` (see
            :mod:`stratbench.protocols`); ``registry.add_answer_reader(name, reader)``
            for a protocol's strict answer reader (``Observation.asking.answer_parser``),
            ``registry.add_prompt_style(name, module)`` for a paper's prompt
            structure (``Observation.asking.prompt_style``) and
            ``registry.add_guide_folder(package, folder)`` for the ``guide``
            scaffold's ``<game>.md`` strategy guides.

    Example:
        .. code-block:: python

            from stratbench.protocols import Protocol

            def pytest_stratbench_add_protocols(registry):
                registry.add_protocol("mygame", Protocol("paper", game_options={"wording": "paper"}))
    """


# -------------------------------------------------------------------------
# per match
# -------------------------------------------------------------------------


@hookspec
def pytest_stratbench_match_recorded(record: dict[str, Any]) -> None:
    """Called on the controller after a match's result record is stored.

    Args:
        record: The result record (builtin types only). Do not modify it.
    """
