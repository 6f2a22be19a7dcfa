"""The run's cost budget, shared by every xdist worker through a ledger file.

Each worker appends what it spent to one small file under an exclusive lock;
before a call, the total is read back. ``--max-cost`` is therefore a budget
for the whole run, not per worker. Calls already in flight may overshoot it
by their own cost. A model litellm cannot price costs 0 USD per call, so the
budget cannot bound it unless the user gives its price (``--price``):
:func:`unpriced_models` names those models so the run can say so.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from stratbench.llm.litellm_env import import_litellm
from stratbench.llm.local import is_local


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
            raise BudgetExceeded(f"--max-cost {usd(self.max_cost)} USD reached (spent {usd(round(spent, 10))} USD)")

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


def usd(amount: float) -> str:
    """Writes an amount as the user would have typed it: no rounding, no exponent.

    Examples:
        >>> usd(0.000001), usd(0.003), usd(5.0), usd(2.5)
        ('0.000001', '0.003', '5', '2.5')
    """
    text = format(Decimal(repr(float(amount))), "f")
    return text[:-2] if text.endswith(".0") else text


def unpriced_models(models: list[str], prices: dict[str, tuple[float, float]]) -> list[str]:
    """Returns the models neither litellm's price map nor ``--price`` can price (``local/`` models are free)."""
    litellm = import_litellm()
    unpriced = []
    for model in dict.fromkeys(models):
        if is_local(model) or model in prices:
            continue
        try:
            litellm.cost_per_token(model=model, prompt_tokens=1000, completion_tokens=1000)
        except Exception:  # litellm raises several types for models missing from its map
            unpriced.append(model)
    return unpriced


def unpriced_note(max_cost: float, models: list[str]) -> str:
    """Returns the one-line warning that ``--max-cost`` cannot bound these models."""
    them, count = ("it", "counts") if len(models) == 1 else ("them", "count")
    return (
        f"--max-cost {usd(max_cost)} USD cannot bound {', '.join(models)}: litellm has no price for {them}, "
        f"so {them.replace('them', 'they')} {count} as 0 USD; give one with --price MODEL=IN,OUT (USD per million "
        f"input, output tokens)"
    )
