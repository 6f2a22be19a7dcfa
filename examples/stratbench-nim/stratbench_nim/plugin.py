"""The Nim family's plugin module (the ``stratbench`` entry point ``nim``): its game, perfect agent, metric,
board renderer, report section, strategy guide and ``--nim-heaps`` option."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import pytest
from stratbench.family_settings import FamilySettings
from stratbench.registry import Registry

from stratbench_nim import game


@dataclass(frozen=True)
class NimSettings(FamilySettings):
    """The heap sets ``--nim-heaps`` names, or ``random`` (empty: the game's default, 3,4,5).

    Each heap set is a variant of the game, so it is part of every match's id
    and settings hash already; :meth:`deciding` adds nothing (whatever it
    returns is hashed into every match of the run, other families' too).
    """

    family = "nim"
    nim_heaps: tuple[tuple[int, ...] | str, ...] = ()


def heaps_option(text: str) -> tuple[int, ...] | str:
    """Reads one ``--nim-heaps`` value; argparse names the option in its message."""
    try:
        return game.heaps_option(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@pytest.hookimpl
def pytest_stratbench_addoption(parser: pytest.Parser) -> None:
    """Adds ``--nim-heaps`` (repeatable: each one is a variant the suite plays)."""
    parser.getgroup("stratbench-nim", "stratbench: Nim").addoption(
        "--nim-heaps", type=heaps_option, action="append", default=[], metavar="N,N,...|random",
        help="Heap sizes of the Nim matches, like 3,4,5 (the default), or random (drawn from each match's seed); "
             "repeat for several heap sets")


@pytest.hookimpl
def pytest_stratbench_family_settings(config: pytest.Config) -> NimSettings:
    """Reads ``--nim-heaps``."""
    return NimSettings(nim_heaps=tuple(dict.fromkeys(config.getoption("nim_heaps"))))


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers ``nim/nim``, one variant per heap set."""
    registry.add_game(game.NAME, game.NimGame, variants=game.variants)


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers ``nim/perfect``."""
    from stratbench_nim.perfect import PerfectAgent

    registry.add_agent("nim/perfect", PerfectAgent)


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers the optimal-move metric."""
    from stratbench_nim.metrics import optimal_moves

    registry.add_metric(game.NAME, "optimal_moves", optimal_moves)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the Nim report section and the heaps renderer."""
    from stratbench_nim.board import heaps_svg
    from stratbench_nim.report import nim_section

    registry.add_report_section("nim", nim_section)
    registry.add_board_renderer(game.NAME, heaps_svg)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers the family's strategy guide (``guides/nim/nim.md``) for the ``guide`` scaffold."""
    registry.add_guide_folder("stratbench_nim", "guides")
