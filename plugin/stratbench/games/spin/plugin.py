"""The SPIN-Bench family as a plugin: its games, agents, metrics, report sections, boards, protocols and options.

:mod:`stratbench.families` imports this module at pytest start, so it stays cheap to import: each hook
imports its family's modules only when called (the lean rule for function-local imports).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from stratbench.family_settings import FamilySettings
from stratbench.registry import Registry

GAMES = ("tictactoe", "connect4", "chess", "hanabi", "diplomacy", "diplomacy-nopress", "pddl",
         "factual_retrieval", "spatial_tracking")
"""The family's games, by registered name."""


@dataclass(frozen=True)
class SpinSettings(FamilySettings):
    """SPIN-Bench's options: the Stockfish binary, a PDDL dataset, the model of Diplomacy's LLM opponents."""

    family = "spin"
    stockfish: str | None = None
    pddl_dir: Path | None = None
    diplomacy_opponent: str | None = None

    def deciding(self) -> dict[str, Any]:
        """The Stockfish binary decides chess matches against it (always hashed, as before families)."""
        return {"stockfish": self.stockfish}

    def models(self) -> dict[str, str]:
        """``--diplomacy-opponent``'s model, when given."""
        return {"--diplomacy-opponent": self.diplomacy_opponent} if self.diplomacy_opponent else {}


@pytest.hookimpl
def pytest_stratbench_addoption(parser: pytest.Parser) -> None:
    """Adds ``--stockfish``, ``--pddl-dir`` and ``--diplomacy-opponent``."""
    from stratbench.options import model_string

    group = parser.getgroup("stratbench-spin", "stratbench: SPIN-Bench")
    group.addoption("--stockfish", default=None, metavar="PATH",
                    help="Stockfish binary (default: stockfish on PATH, then /usr/games/stockfish)")
    group.addoption("--pddl-dir", default=None, metavar="DIR",
                    help="Run a PDDL dataset in SPIN-Bench's layout (<domain>/domain.pddl, <domain>/instances/*.pddl)")
    group.addoption("--diplomacy-opponent", type=model_string, default=None, metavar="MODEL",
                    help="Model of the LLM opponents in Diplomacy's paper protocol (default: the subject's model)")


@pytest.hookimpl
def pytest_stratbench_family_settings(config: pytest.Config) -> SpinSettings:
    """Reads the family's options."""
    pddl_dir = config.getoption("pddl_dir")
    return SpinSettings(stockfish=config.getoption("stockfish"),
                        pddl_dir=Path(pddl_dir).resolve() if pddl_dir else None,
                        diplomacy_opponent=config.getoption("diplomacy_opponent"))


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers Tic-Tac-Toe, Connect Four, chess, Hanabi, Diplomacy (with and without press), PDDL and the probes."""
    from stratbench.games.spin import diplomacy, hanabi
    from stratbench.games.spin.chess_game import ChessGame
    from stratbench.games.spin.connect_four import ConnectFour
    from stratbench.games.spin.pddl import pddl_game
    from stratbench.games.spin.probes import FactualRetrieval, SpatialTracking, factual_variants, spatial_variants
    from stratbench.games.spin.tictactoe import TicTacToe
    from stratbench.games.spin.planning.dataset import list_variants

    registry.add_game("tictactoe", TicTacToe)
    registry.add_game("connect4", ConnectFour)
    registry.add_game("chess", ChessGame)
    registry.add_game("hanabi", hanabi.Hanabi, variants=hanabi.variants)
    registry.add_game("diplomacy", diplomacy.Diplomacy, variants=diplomacy.variants)
    registry.add_game("diplomacy-nopress", diplomacy.DiplomacyNoPress, variants=diplomacy.variants)
    registry.add_game("pddl", pddl_game, variants=list_variants)
    registry.add_game("factual_retrieval", FactualRetrieval, variants=factual_variants)
    registry.add_game("spatial_tracking", SpatialTracking, variants=spatial_variants)


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the solvers and engines (minimax, c4solver, stockfish, stockfish0..20), Hanabi's and Diplomacy's
    baselines, Diplomacy's paper opponents (model seats), the planners and the probe solver; and Stockfish as a
    system component."""
    from stratbench.games.spin.agents import stockfish
    from stratbench.games.spin.agents.c4_solver_agent import C4SolverAgent
    from stratbench.games.spin.agents.diplomacy_baselines import HoldAgent, OfflineOpponent, RandomOrdersAgent
    from stratbench.games.spin.agents.hanabi_rules import HanabiRulesAgent
    from stratbench.games.spin.agents.minimax import MinimaxAgent
    from stratbench.games.spin.agents.planner import PlannerAgent, RandomPlannerAgent
    from stratbench.games.spin.agents.probe_solver import ProbeSolverAgent
    from stratbench.games.spin.diplomacy import PAPER_OPPONENTS

    registry.add_agent("minimax", MinimaxAgent)
    registry.add_agent("c4solver", C4SolverAgent)
    registry.add_agent("stockfish", stockfish.make_factory())
    for level in range(21):
        registry.add_agent(f"stockfish{level}", stockfish.make_factory(level))
    registry.add_system_component(stockfish.component)
    registry.add_agent("hanabi-rules", HanabiRulesAgent)
    registry.add_agent("hold", HoldAgent)
    registry.add_agent("random-orders", RandomOrdersAgent)
    for name in PAPER_OPPONENTS:  # Diplomacy's paper protocol: a model plays them when the run has one
        registry.add_model_seat(name, OfflineOpponent, model_option="diplomacy_opponent")
    registry.add_agent("planner", PlannerAgent)
    registry.add_agent("random_planner", RandomPlannerAgent)
    registry.add_agent("probe_solver", ProbeSolverAgent)


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers move quality (solver games), chess's game record, Hanabi's and Diplomacy's statistics,
    the negotiation annotator, plan validity and the probes' score."""
    from stratbench.games.spin.metrics import chess as chess_metrics
    from stratbench.games.spin.metrics import connect_four
    from stratbench.games.spin.metrics.diplomacy import diplomacy_metrics
    from stratbench.games.spin.metrics.hanabi import play_stats
    from stratbench.games.spin.metrics.negotiation import annotate_negotiation
    from stratbench.games.spin.metrics.pddl import plan_validity
    from stratbench.games.spin.metrics.probes import probe_score
    from stratbench.games.spin.metrics.tictactoe import move_quality

    registry.add_metric("tictactoe", "move_quality", move_quality)
    registry.add_metric("connect4", "move_quality", connect_four.move_quality)
    registry.add_metric("chess", "move_quality", chess_metrics.move_quality)
    registry.add_metric("chess", "game_record", chess_metrics.game_record)
    registry.add_metric("hanabi", "play_stats", play_stats)
    registry.add_metric("diplomacy", "diplomacy", diplomacy_metrics)
    registry.add_metric("diplomacy-nopress", "diplomacy", diplomacy_metrics)
    registry.add_annotator("diplomacy", "negotiation", annotate_negotiation)
    registry.add_metric("pddl", "plan_validity", plan_validity)
    registry.add_metric("factual_retrieval", "probe_score", probe_score)
    registry.add_metric("spatial_tracking", "probe_score", probe_score)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the family's report sections, its games' board renderers and their boards' click layouts."""
    from stratbench.games.spin import boards
    from stratbench.games.spin.report import diplomacy, hanabi, negotiation, planning, probes, solver_games
    from stratbench.games.spin.spin_table1 import spin_table1

    registry.add_report_section("solver_games", solver_games)
    registry.add_report_section("spin_table1", spin_table1)
    registry.add_report_section("hanabi", hanabi)
    registry.add_report_section("diplomacy", diplomacy)
    registry.add_report_section("negotiation", negotiation)
    registry.add_report_section("planning", planning)
    registry.add_report_section("probes", probes)
    registry.add_board_renderer("chess", boards.chess_board)
    registry.add_board_renderer("tictactoe", boards.tictactoe_board)
    registry.add_board_renderer("connect4", boards.connect4_board)
    registry.add_board_renderer("diplomacy", boards.diplomacy_board)
    registry.add_board_renderer("diplomacy-nopress", boards.diplomacy_board)
    registry.add_board_renderer("hanabi", boards.hanabi_board)
    registry.add_board_clicks("chess", boards.chess_clicks)
    registry.add_board_clicks("tictactoe", boards.tictactoe_clicks)
    registry.add_board_clicks("connect4", boards.connect4_clicks)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers SPIN-Bench's paper protocols, their strict answer readers and the family's strategy guides."""
    from stratbench.games.spin.paper_protocols import diplomacy, hanabi, planning, probes, solver_games

    for module in (solver_games, planning, probes, hanabi, diplomacy):
        module.register(registry)
    registry.add_answer_reader("diplomacy-paper-orders", "stratbench.games.spin.paper_protocols.diplomacy:read_orders")
    registry.add_answer_reader("diplomacy-paper-messages", "stratbench.games.spin.paper_protocols.diplomacy:read_messages")
    registry.add_answer_reader("spin_pddl_plan", "stratbench.games.spin.paper_protocols.planning:read_plan_answer")
    registry.add_answer_reader("spin_hanabi_json", "stratbench.games.spin.paper_protocols.hanabi:read_action_answer")
    registry.add_answer_reader("spin-json", "stratbench.games.spin.paper_protocols.solver_games:read_json_action")
    registry.add_guide_folder("stratbench.games.spin", "guides")
