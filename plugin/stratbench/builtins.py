"""stratbench's own games, agents, scaffolds and metrics, registered through the hooks."""

from __future__ import annotations

import pytest

from stratbench.registry import Registry


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers the built-in games."""
    from stratbench.games.tictactoe import TicTacToe

    registry.add_game("tictactoe", TicTacToe)

    from stratbench.games.chess_game import ChessGame
    from stratbench.games.connect_four import ConnectFour

    registry.add_game("connect4", ConnectFour)
    registry.add_game("chess", ChessGame)

    from stratbench.games import diplomacy, hanabi

    registry.add_game("hanabi", hanabi.Hanabi, variants=hanabi.variants)
    registry.add_game("diplomacy", diplomacy.Diplomacy, variants=diplomacy.variants)
    registry.add_game("diplomacy-nopress", diplomacy.DiplomacyNoPress, variants=diplomacy.variants)

    from stratbench.games.pddl import pddl_game
    from stratbench.planning.dataset import list_variants

    registry.add_game("pddl", pddl_game, variants=list_variants)

    from stratbench.games.probes import FactualRetrieval, SpatialTracking, factual_variants, spatial_variants

    registry.add_game("factual_retrieval", FactualRetrieval, variants=factual_variants)
    registry.add_game("spatial_tracking", SpatialTracking, variants=spatial_variants)

    from stratbench.games.gamebench.air_land_sea import AirLandSea
    from stratbench.games.gamebench.sea_battle import SeaBattle

    registry.add_game("air_land_sea", AirLandSea)
    registry.add_game("sea_battle", SeaBattle)

    from stratbench.games.gamebench.hive import Hive
    from stratbench.games.gamebench.santorini import Santorini

    registry.add_game("hive", Hive)
    registry.add_game("santorini", Santorini)

    from stratbench.games.gamebench.codenames import Codenames

    registry.add_game("codenames", Codenames)

    from stratbench.games.gamebench.are_you_the_traitor import AreYouTheTraitor

    registry.add_game("are_you_the_traitor", AreYouTheTraitor)

    from stratbench.games.gamebench.pit import Pit

    registry.add_game("pit", Pit)

    from stratbench.games.gamebench.two_rooms import TwoRooms

    registry.add_game("two_rooms_and_a_boom", TwoRooms)

    from stratbench.games.gamebench.arctic_scavengers import ArcticScavengers

    registry.add_game("arctic_scavengers", ArcticScavengers)

    from stratbench.games.gamebench import atari_boxing

    registry.add_game("atari_boxing", atari_boxing.AtariBoxing, variants=atari_boxing.variants)

    from stratbench.games.advgame import GAME_IDS
    from stratbench.games.advgame import game as advgame

    for game_id in GAME_IDS:
        registry.add_game(game_id, advgame.factory(game_id), variants=advgame.variants)

    from stratbench.games.sc2 import game as sc2_game

    registry.add_game("sc2_mock", sc2_game.mock_game, variants=sc2_game.mock_variants)
    from stratbench.games.sc2.engine import games as sc2_engine_games

    registry.add_game("sc2_smac", sc2_engine_games.smac_game, variants=sc2_engine_games.smac_variants)
    registry.add_game("sc2_tasks", sc2_engine_games.tasks_game, variants=sc2_engine_games.tasks_variants)


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the built-in agents: random, minimax, human."""
    from stratbench.agents.human import HumanAgent
    from stratbench.agents.minimax import MinimaxAgent
    from stratbench.agents.random_agent import RandomAgent

    registry.add_agent("random", RandomAgent)
    registry.add_agent("minimax", MinimaxAgent)
    registry.add_agent("human", HumanAgent)

    from stratbench.agents import stockfish
    from stratbench.agents.c4_solver_agent import C4SolverAgent

    registry.add_agent("c4solver", C4SolverAgent)
    registry.add_agent("stockfish", stockfish.make_factory())
    for level in range(21):
        registry.add_agent(f"stockfish{level}", stockfish.make_factory(level))

    from stratbench.agents.diplomacy_baselines import HoldAgent, RandomOrdersAgent
    from stratbench.agents.hanabi_rules import HanabiRulesAgent

    registry.add_agent("hanabi-rules", HanabiRulesAgent)
    registry.add_agent("hold", HoldAgent)
    registry.add_agent("random-orders", RandomOrdersAgent)
    from stratbench.agents.diplomacy_baselines import OfflineOpponent
    from stratbench.games.diplomacy import PAPER_OPPONENTS

    for name in PAPER_OPPONENTS:  # Diplomacy's paper protocol: a model plays them when the run has one
        registry.add_model_seat(name, OfflineOpponent)

    from stratbench.agents.planner import PlannerAgent, RandomPlannerAgent

    registry.add_agent("planner", PlannerAgent)
    registry.add_agent("random_planner", RandomPlannerAgent)

    from stratbench.agents.probe_solver import ProbeSolverAgent

    registry.add_agent("probe_solver", ProbeSolverAgent)

    from stratbench.games.sc2.baselines import AttackNearestAgent, NoOpAgent

    registry.add_agent("sc2-noop", NoOpAgent)
    registry.add_agent("sc2-attack-nearest", AttackNearestAgent)

    from stratbench.games.sc2.engine.text_baselines import AttackMoveAgent, FocusFireAgent

    registry.add_agent("sc2-focus-fire", FocusFireAgent)
    registry.add_agent("sc2-attack-move", AttackMoveAgent)

    from stratbench.agents.advgame_writer import baseline_agent

    registry.add_agent("greedy", baseline_agent("greedy"))
    registry.add_agent("climber", baseline_agent("climber"))


@pytest.hookimpl
def pytest_stratbench_add_scaffolds(registry: Registry) -> None:
    """Registers the built-in scaffolds: direct, cot, constrained, revise (reflect and revise), guide (a strategy
    guide in the prompt), rap (GameBench's RAP)."""
    from stratbench.scaffolds.constrained import constrained
    from stratbench.scaffolds.cot import cot
    from stratbench.scaffolds.direct import direct
    from stratbench.scaffolds.guide import guide
    from stratbench.scaffolds.rap import rap
    from stratbench.scaffolds.revise import revise

    registry.add_scaffold("direct", direct)
    registry.add_scaffold("cot", cot)
    registry.add_scaffold("constrained", constrained)
    registry.add_scaffold("revise", revise)
    registry.add_scaffold("guide", guide)
    registry.add_scaffold("rap", rap)


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers the built-in per-match metrics."""
    from stratbench.metrics.tictactoe import move_quality

    registry.add_metric("tictactoe", "move_quality", move_quality)

    from stratbench.metrics import chess as chess_metrics
    from stratbench.metrics import connect_four

    registry.add_metric("connect4", "move_quality", connect_four.move_quality)
    registry.add_metric("chess", "move_quality", chess_metrics.move_quality)
    registry.add_metric("chess", "game_record", chess_metrics.game_record)

    from stratbench.metrics.diplomacy import diplomacy_metrics
    from stratbench.metrics.hanabi import play_stats
    from stratbench.metrics.negotiation import annotate_negotiation

    registry.add_metric("hanabi", "play_stats", play_stats)

    from stratbench.games.gamebench.are_you_the_traitor import conversation_stats

    registry.add_metric("are_you_the_traitor", "conversation", conversation_stats)
    registry.add_metric("diplomacy", "diplomacy", diplomacy_metrics)
    registry.add_metric("diplomacy-nopress", "diplomacy", diplomacy_metrics)
    registry.add_annotator("diplomacy", "negotiation", annotate_negotiation)

    from stratbench.metrics.pddl import plan_validity

    registry.add_metric("pddl", "plan_validity", plan_validity)

    from stratbench.metrics.probes import probe_score

    registry.add_metric("factual_retrieval", "probe_score", probe_score)
    registry.add_metric("spatial_tracking", "probe_score", probe_score)

    from stratbench.games.advgame import GAME_IDS
    from stratbench.metrics.advgame import match_metrics

    for game_id in GAME_IDS:
        registry.add_metric(game_id, "advgame", match_metrics)

    from stratbench.metrics.sc2 import episode_metrics

    registry.add_metric("sc2_mock", "sc2", episode_metrics)
    registry.add_metric("sc2_smac", "sc2", episode_metrics)
    registry.add_metric("sc2_tasks", "sc2", episode_metrics)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the built-in report sections."""
    from stratbench.report.advgame import advgame
    from stratbench.report.sections import (
        diplomacy,
        gamebench_categories,
        gamebench_ratings,
        hanabi,
        negotiation,
        planning,
        probes,
        solver_games,
    )
    from stratbench.report.spin_table1 import spin_table1

    registry.add_report_section("solver_games", solver_games)
    registry.add_report_section("spin_table1", spin_table1)
    registry.add_report_section("hanabi", hanabi)
    registry.add_report_section("diplomacy", diplomacy)
    registry.add_report_section("negotiation", negotiation)
    registry.add_report_section("gamebench_categories", gamebench_categories)
    registry.add_report_section("gamebench_ratings", gamebench_ratings)
    registry.add_report_section("planning", planning)
    registry.add_report_section("probes", probes)
    registry.add_report_section("advgame", advgame)
    from stratbench.report.scaffolds import scaffolds

    registry.add_report_section("scaffolds", scaffolds)  # cost per decision, scaffolds side by side, revise
    from stratbench.report.replay import BUILTIN_BOARD_RENDERERS

    for game, renderer in BUILTIN_BOARD_RENDERERS.items():
        registry.add_board_renderer(game, renderer)

    from stratbench.report.sc2 import sc2_tables

    registry.add_report_section("sc2", sc2_tables)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers the built-in games' paper protocols (``--protocol paper``)."""
    from stratbench.paper_protocols import register_all

    register_all(registry)
