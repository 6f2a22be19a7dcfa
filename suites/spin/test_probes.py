"""SPIN-Bench's planning probes: factual retrieval and spatial tracking (§4.2, Appendix C.1).

Factual retrieval: a trajectory with every state transition spelled out;
report the state after step k. Variants ``d<mutable properties>-l<length>``
(2-16 properties, 1-50 steps). Spatial tracking: the final coordinate after a
sequence of up/down/left/right moves, with the axis convention stated in the
prompt. Variants ``l<moves>`` (1-50). Each item is generated from its seed
(``--matches`` items per setting) and scored 1 if right, else 0, once.

With no ``--model`` the floor (``random``, which cannot answer) and the
ceiling (``probe_solver``) run. ``--protocol paper`` plays them unchanged:
SPIN-Bench's released code has no prompt or reader of its own for the probes.
"""

import pytest


@pytest.mark.stratbench(
    game="factual_retrieval",
    baselines=["random", "probe_solver"],
    matches=2,
    illegal_tolerance=1,
    fallback="forfeit",
)
def test_factual_retrieval(match):
    match.play()


@pytest.mark.stratbench(
    game="spatial_tracking",
    baselines=["random", "probe_solver"],
    matches=2,
    illegal_tolerance=1,
    fallback="forfeit",
)
def test_spatial_tracking(match):
    match.play()
