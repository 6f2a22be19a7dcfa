"""LLM-SMAC's nine maps on the offline StarCraft II engine, through pysc2's SC2Env and the text interface.

Backend ``engine`` (no game binary): ``stratbench.games.sc2.engine``; ``--sc2-backend live`` plays the game. Baselines act through the
text interface: ``sc2-focus-fire`` (weakest enemy in range, Stalkers kite) and ``sc2-attack-move``.
"""

import pytest


@pytest.mark.stratbench(
    game="sc2_smac",
    baselines=["sc2-focus-fire", "sc2-attack-move"],
    matches=1,
    illegal_tolerance=2,
    fallback="drop",
)
def test_llm_smac(match):
    match.play()
