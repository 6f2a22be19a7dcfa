"""LLM-PySC2's text interface on pysc2's own mock environment (no game binary).

Each match is a short skirmish on ``pysc2.env.mock_sc2_env.SC2TestEnv``
(:mod:`stratbench.games.sc2.mock_battle`): own Protoss units against Zerg
units, with pysc2's real observation and action transforms and a small fixed
combat rule. Variants: ``2s1z_vs_4zg`` and ``3s_vs_2r`` with one agent (the
LLM-SMAC layout), and ``2s1z_vs_4zg-2agents`` with one agent per unit type
that may message the other. Score: 1 win, 0.5 tie, 0 loss; the metrics carry
KD, invalid actions and per-agent counts. Baselines act through the same text
interface: ``sc2-noop`` (no actions) and ``sc2-attack-nearest``. An empty reply
is asked again once, then the decision plays no action.

``--protocol paper`` prompts and reads as the released code (docs/PROTOCOLS.md).
"""

import pytest


@pytest.mark.stratbench(
    game="sc2_mock",
    baselines=["sc2-noop", "sc2-attack-nearest"],
    matches=1,
    illegal_tolerance=2,
    fallback="drop",
)
def test_mock_skirmish(match):
    match.play()
