"""LLM-PySC2's tasks (those with scenario files) on the offline StarCraft II engine, as text.

Backend ``engine``; baselines ``sc2-focus-fire`` and ``sc2-attack-move`` act through the text interface.
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
