"""The paper protocol of the probes family: SPIN-Bench's factual-retrieval and spatial-tracking probes.

SPIN-Bench's released code has no prompt, data or reader for these probes
(its folders for them hold only README stubs), so nothing differs from the
default: the paper protocol plays them exactly as the default does, and says so.
"""

from __future__ import annotations

from stratbench.protocols import Protocol
from stratbench.registry import Registry

GAMES = ("factual_retrieval", "spatial_tracking")
SOURCE = (
    "SPIN-Bench (arXiv 2503.12349) Appendix C.1 and §4.2; the released code (spinbench/spinbench) ships no "
    "prompt, data or reader for this probe, so the paper protocol is the default protocol unchanged"
)


def register(registry: Registry) -> None:
    """Registers the paper protocol of each probe: identical to the default."""
    for game in GAMES:
        registry.add_protocol(game, Protocol("paper", source=SOURCE))
