"""Fixtures of the planning tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from planning_toys import (
    BLOCKS_DOMAIN,
    BLOCKS_P01,
    BLOCKS_P02,
    COUNTERS_DOMAIN,
    COUNTERS_P01,
    ROOMS_DOMAIN,
    ROOMS_P01,
    write_dataset,
)


@pytest.fixture
def toy_dataset(tmp_path: Path) -> Path:
    """Returns a small readable dataset directory: blocksworld, counters, rooms."""
    return write_dataset(
        tmp_path / "toy",
        {
            "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01, "p02": BLOCKS_P02}),
            "counters": (COUNTERS_DOMAIN, {"p01": COUNTERS_P01}),
            "rooms": (ROOMS_DOMAIN, {"p01": ROOMS_P01}),
        },
    )
