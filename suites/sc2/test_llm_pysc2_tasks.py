"""LLM-PySC2's eight tasks at levels 1-3 (24 scenario files, ``pvz_task<N>_level<L>``) as text.

Backend ``engine`` by default (``--sc2-backend live`` with ``SC2PATH`` and ``--sc2-maps`` plays the
released maps); baselines ``sc2-focus-fire`` and ``sc2-attack-move`` act through the text interface.
The variants are every ``llm-pysc2`` scenario file (``games/sc2/engine/games.py: tasks_variants``).
"""

import pytest


@pytest.mark.stratbench(
    game="sc2_tasks",
    baselines=["sc2-focus-fire", "sc2-attack-move"],
    matches=1,
    illegal_tolerance=2,
    fallback="drop",
)
def test_llm_pysc2_tasks(match):
    match.play()
