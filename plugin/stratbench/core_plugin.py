"""The components every family shares, registered through the same hooks: generic agents, the scaffolds and
their report sections."""

from __future__ import annotations

import pytest

from stratbench.registry import Registry
from stratbench.agents.human import HumanAgent
from stratbench.agents.random_agent import RandomAgent
from stratbench.scaffolds.constrained import constrained
from stratbench.scaffolds.cot import cot
from stratbench.scaffolds.direct import direct
from stratbench.scaffolds.guide import guide
from stratbench.scaffolds.rap import rap
from stratbench.scaffolds.revise import revise
from stratbench.report.memorisation import memorisation
from stratbench.report.model_cost import model_cost
from stratbench.report.scaffolds import scaffolds


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the agents any game can seat: random, human (the terminal)."""
    registry.add_agent("random", RandomAgent)
    registry.add_agent("human", HumanAgent)


@pytest.hookimpl
def pytest_stratbench_add_scaffolds(registry: Registry) -> None:
    """Registers the scaffolds: direct, cot, constrained, revise (reflect and revise), guide (a strategy
    guide in the prompt), rap (GameBench's RAP)."""
    registry.add_scaffold("direct", direct)
    registry.add_scaffold("cot", cot)
    registry.add_scaffold("constrained", constrained)
    registry.add_scaffold("revise", revise)
    registry.add_scaffold("guide", guide)
    registry.add_scaffold("rap", rap)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the models section (cost per decision, truncated answers, answer formats and efforts side by
    side), the memorisation gap (renamed tasks against their originals, ``--obfuscate``) and the scaffolds
    section (scaffolds side by side, the revise metrics)."""
    registry.add_report_section("model_cost", model_cost)
    registry.add_report_section("memorisation", memorisation)
    registry.add_report_section("scaffolds", scaffolds)
