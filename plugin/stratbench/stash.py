"""The pytest stash keys and report properties the plugin's modules share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from stratbench.run.pool import MatchPool
    from stratbench.run.session import PlayedMatch, StratbenchSession

SESSION_KEY = pytest.StashKey["StratbenchSession"]()
"""The run's session (``config.stash``)."""
PLAYED_KEY = pytest.StashKey["PlayedMatch"]()
"""An item's played match."""
UNSCORED_KEY = pytest.StashKey[tuple[dict[str, Any], list[dict[str, Any]]]]()
"""An item's errored record and transcript, when its match failed."""
RECORDED_KEY = pytest.StashKey[bool]()
"""An item's record was attached to its report."""
REMOTE_KEY = pytest.StashKey[bool]()
"""This xdist worker runs on another machine than its controller."""
POOL_KEY = pytest.StashKey["MatchPool"]()
"""The process's match pool (``--stratbench-concurrency`` above 1)."""
POSITIONS_KEY = pytest.StashKey[dict[int, int]]()
"""Each collected item's position, for the match pool."""
POOL_ENTRY_KEY = pytest.StashKey[Any]()
"""What the match pool starts for an item: (node id, spec, suite), or None (``plugin._pool_entry``)."""
KEYS_CHECKED_KEY = pytest.StashKey[bool]()
"""The model keys were checked (once per run)."""
RECORD_PROPERTY = "stratbench_record"
"""The report property carrying a match's record (JSON)."""
TRANSCRIPT_PROPERTY = "stratbench_transcript"
"""The report property carrying a match's transcript (JSON)."""
RESULT_PROPERTY = "stratbench_result"
"""The report property carrying ``result|score`` for the status line."""
