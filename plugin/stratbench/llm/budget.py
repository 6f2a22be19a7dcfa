"""The run's cost budget, shared by every xdist worker through a ledger file.

Each worker appends what it spent to one small file under an exclusive lock;
before a call, the total is read back. ``--max-cost`` is therefore a budget
for the whole run, not per worker. Calls already in flight may overshoot it
by their own cost.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path


class BudgetExceeded(RuntimeError):
    """Raised before a call when the run has spent its ``--max-cost``."""


@dataclass
class Budget:
    """A cost cap in USD backed by a ledger file.

    Args:
        max_cost: The cap in USD.
        ledger: The file where spending is recorded (created on first use).
    """

    max_cost: float
    ledger: Path

    def spent(self) -> float:
        """Returns the total spent so far by every process of the run."""
        if not self.ledger.exists():
            return 0.0
        with self.ledger.open("r") as handle:
            fcntl.flock(handle, fcntl.LOCK_SH)
            try:
                return sum(float(line) for line in handle if line.strip())
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def check(self) -> None:
        """Raises :class:`BudgetExceeded` when nothing is left to spend."""
        spent = self.spent()
        if spent >= self.max_cost:
            raise BudgetExceeded(f"--max-cost {self.max_cost:.2f} USD reached (spent {spent:.4f} USD)")

    def spend(self, cost_usd: float) -> None:
        """Records a call's cost."""
        if cost_usd <= 0:
            return
        self.ledger.parent.mkdir(parents=True, exist_ok=True)
        with self.ledger.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                handle.write(f"{cost_usd:.10f}\n")
                handle.flush()
                os.fsync(handle.fileno())
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
