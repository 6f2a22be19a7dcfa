"""The GameBench family as a plugin: its nine games and Atari Boxing, metrics, report sections, board and protocol.

:mod:`stratbench.families` imports this module at pytest start, so it stays cheap to import: each hook
imports its family's modules only when called (the lean rule for function-local imports).
"""

from __future__ import annotations

from typing import Any

import pytest

from stratbench.registry import Registry


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers GameBench's games (:data:`stratbench.games.gamebench.GAME_IDS`) and Atari Boxing."""
    from stratbench.games.gamebench import atari_boxing
    from stratbench.games.gamebench.air_land_sea import AirLandSea
    from stratbench.games.gamebench.arctic_scavengers import ArcticScavengers
    from stratbench.games.gamebench.are_you_the_traitor import AreYouTheTraitor
    from stratbench.games.gamebench.codenames import Codenames
    from stratbench.games.gamebench.hive import Hive
    from stratbench.games.gamebench.pit import Pit
    from stratbench.games.gamebench.santorini import Santorini
    from stratbench.games.gamebench.sea_battle import SeaBattle
    from stratbench.games.gamebench.two_rooms import TwoRooms

    registry.add_game("air_land_sea", AirLandSea)
    registry.add_game("sea_battle", SeaBattle)
    registry.add_game("hive", Hive)
    registry.add_game("santorini", Santorini)
    registry.add_game("codenames", Codenames)
    registry.add_game("are_you_the_traitor", AreYouTheTraitor)
    registry.add_game("pit", Pit)
    registry.add_game("two_rooms_and_a_boom", TwoRooms)
    registry.add_game("arctic_scavengers", ArcticScavengers)
    registry.add_game("atari_boxing", atari_boxing.AtariBoxing, variants=atari_boxing.variants)


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers Are You the Traitor?'s conversation statistics."""
    from stratbench.games.gamebench.are_you_the_traitor import conversation_stats

    registry.add_metric("are_you_the_traitor", "conversation", conversation_stats)


def hive_board(board: dict[str, Any]) -> str:
    """Draws a Hive snapshot: its tiles on the hex grid."""
    from stratbench.games.gamebench.hive_render import render_svg

    return render_svg([tuple(tile) for tile in board["tiles"]], int(board["turn"]))


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers GameBench's category table and ratings, and Hive's board renderer."""
    from stratbench.games.gamebench.report import gamebench_categories, gamebench_ratings

    registry.add_report_section("gamebench_categories", gamebench_categories)
    registry.add_report_section("gamebench_ratings", gamebench_ratings)
    registry.add_board_renderer("hive", hive_board)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers GameBench's paper protocol, its answer reader and prompt structure, and its strategy guides."""
    from stratbench.games.gamebench import paper_protocol as gamebench

    gamebench.register(registry)
    registry.add_answer_reader("gamebench", "stratbench.games.gamebench.paper_protocol:read_answer")
    registry.add_prompt_style("gamebench", "stratbench.games.gamebench.paper_protocol")
    registry.add_guide_folder("stratbench.games.gamebench", "guides")
