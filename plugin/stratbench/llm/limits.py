"""Provider limits: how many calls a model may have in flight, per minute and in tokens per minute.

One :class:`ModelGate` per model and event loop is shared by every match of
the process, so the limits hold for the process as a whole. A 429 from the
provider pauses the model for every match (for the ``Retry-After`` the
provider sent, else the retry's own backoff) and halves the calls it may have
in flight; each success then gives one back, up to the configured limit
(additive increase, multiplicative decrease).

Limits come from ``--model-concurrency``, ``--model-rpm`` and ``--model-tpm``
(``MODEL=N``, or a bare ``N`` for every model), else from litellm's model map
(``rpm`` and ``tpm`` where it lists them), else none (only the concurrency
default).
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from stratbench.llm.litellm_env import import_litellm

DEFAULT_CONCURRENCY = 64
"""Calls one model may have in flight when no limit is given: above the default match concurrency."""

WINDOW_S = 60.0
"""The span RPM and TPM are counted over."""


@dataclass(frozen=True)
class ModelLimits:
    """The limits of one model (None: none)."""

    concurrency: int = DEFAULT_CONCURRENCY
    rpm: float | None = None
    tpm: float | None = None


@dataclass
class LimitSettings:
    """The limits given on the command line, by model string (``*``: every model)."""

    concurrency: dict[str, int] = field(default_factory=dict)
    rpm: dict[str, float] = field(default_factory=dict)
    tpm: dict[str, float] = field(default_factory=dict)

    def for_model(self, model: str, known: dict[str, float] | None = None) -> ModelLimits:
        """Returns a model's limits: its own flag, else the ``*`` flag, else litellm's ``known`` rpm/tpm."""
        known = known or {}

        def pick(table: dict[str, Any], name: str) -> Any:
            return table.get(model, table.get("*", known.get(name)))

        return ModelLimits(
            concurrency=int(pick(self.concurrency, "concurrency") or DEFAULT_CONCURRENCY),
            rpm=pick(self.rpm, "rpm"),
            tpm=pick(self.tpm, "tpm"),
        )


def parse_limit(option: str, text: str) -> tuple[str, float]:
    """Reads one ``MODEL=N`` (or ``N``: every model) value of a limit flag.

    Raises:
        ValueError: naming the option, when N is not a positive number.
    """
    model, sep, number = text.rpartition("=")
    model = model if sep else "*"
    try:
        value = float(number)
    except ValueError:
        value = 0.0
    if value <= 0 or not model:
        raise ValueError(f"{option} {text!r}: expected MODEL=N or N with N a positive number")
    return model, value


def known_limits(model: str) -> dict[str, float]:
    """Returns the rpm and tpm litellm's model map lists for a model (empty when it lists none)."""
    litellm = import_litellm()
    entry = litellm.model_cost.get(model) or litellm.model_cost.get(model.split("/", 1)[-1]) or {}
    return {name: float(entry[name]) for name in ("rpm", "tpm") if isinstance(entry.get(name), (int, float))}


def estimate_tokens(messages: list[dict[str, Any]], max_tokens: int | None) -> int:
    """Returns a request's token estimate for TPM: about four characters a token, plus the answer's cap."""
    chars = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            chars += sum(len(str(part.get("text", ""))) for part in content if isinstance(part, dict))
        else:
            chars += len(str(content or ""))
    return chars // 4 + 1 + (max_tokens or 0)


class ModelGate:
    """Admits one model's calls within its limits; shared by every match of the process.

    Args:
        limits: The model's limits.
        clock: Monotonic seconds (a test passes its own).
        sleep: Waits that many seconds.
    """

    def __init__(
        self,
        limits: ModelLimits,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self.allowed = limits.concurrency
        """Calls that may be in flight now (halved by a 429, then raised by one per success)."""
        self.in_flight = 0
        self.paused_until = 0.0
        self.throttled = 0
        """429s seen by this gate."""
        self._starts: collections.deque[float] = collections.deque()
        self._tokens: collections.deque[tuple[float, int]] = collections.deque()
        self._changed = asyncio.Event()

    def _wait_for(self, tokens: int) -> float:
        """Returns how long the next call must wait (0: it may start now)."""
        now = self.clock()
        while self._starts and self._starts[0] <= now - WINDOW_S:
            self._starts.popleft()
        while self._tokens and self._tokens[0][0] <= now - WINDOW_S:
            self._tokens.popleft()
        waits = [self.paused_until - now]
        if self.limits.rpm is not None and len(self._starts) >= self.limits.rpm:
            waits.append(self._starts[0] + WINDOW_S - now)
        if self.limits.tpm is not None and self._tokens:
            used = sum(n for _, n in self._tokens)
            if used + tokens > self.limits.tpm:
                waits.append(self._tokens[0][0] + WINDOW_S - now)
        return max(waits)

    async def acquire(self, tokens: int = 0) -> None:
        """Waits until a call of ``tokens`` estimated tokens may start, then counts it as started."""
        while True:
            if self.in_flight >= self.allowed:
                self._changed.clear()
                await self._changed.wait()
                continue
            delay = self._wait_for(tokens)
            if delay > 0:
                await self.sleep(delay)
                continue
            break
        now = self.clock()
        self.in_flight += 1
        self._starts.append(now)
        if tokens:
            self._tokens.append((now, tokens))

    def release(self, *, ok: bool) -> None:
        """Counts a call finished; a success gives back one slot a 429 took."""
        self.in_flight -= 1
        if ok and self.allowed < self.limits.concurrency:
            self.allowed += 1
        self._changed.set()

    def throttle(self, pause_s: float) -> None:
        """Records a 429: every call of the model waits ``pause_s`` and fewer may be in flight."""
        self.throttled += 1
        self.paused_until = max(self.paused_until, self.clock() + pause_s)
        self.allowed = max(1, self.allowed // 2)

    def to_dict(self) -> dict[str, Any]:
        """Returns the gate's limits and state as builtins (for the report)."""
        return {"concurrency": self.limits.concurrency, "rpm": self.limits.rpm, "tpm": self.limits.tpm,
                "allowed": self.allowed, "throttled": self.throttled}
