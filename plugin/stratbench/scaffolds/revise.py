"""The ``revise`` scaffold: reflect on feedback, critique the last decision, then decide (or answer again).

Two kinds of feedback open a critique call (purpose ``critique``) before the
model answers:

- an illegal or unreadable answer (a retry: ``Observation.feedback``): the
  model is told why it was rejected and critiques that answer; the next call
  asks for the revised answer in the conversation that holds the critique;
- an outcome (``Observation.outcome``, what happened since the player's last
  decision: Hanabi's play results, Diplomacy's phase results): the model
  critiques its last decision against it and ends with ``Revise: yes`` or
  ``Revise: no``; the exchange sits before the new decision's prompt.

Each critique is logged as a ``revision`` transcript event shaped like
AdvGameBench's revision rows (the player's revision index, the trigger,
negative feedback yes/no, changed yes/no; whether it improved is read from
the events that follow, :mod:`stratbench.metrics.revision`), so that
AdvGameBench's ORR, CSR and slope apply to every suite. A conversation that
continues an earlier one (``Observation.asking.conversation``) has its outcome
critique skipped: it already holds the phase's exchange.
"""

from __future__ import annotations

import re
from typing import Any

from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.llm.session import ModelSession
from stratbench.metrics.revision import REVISION_EVENT
from stratbench.scaffolds.base import ConversationScaffold

REJECTED_CRITIQUE = (
    "Before you answer again, critique your last answer in a few sentences: what was wrong with it, and "
    "what should you answer instead? Do not give the action yet."
)
OUTCOME_CRITIQUE = (
    "Critique your last decision in a few sentences in the light of what happened: was it a good decision, "
    "and should you change your approach? End with 'Revise: yes' if you will change your approach, "
    "otherwise 'Revise: no'."
)
REVISE_PROMPT = "Now give your revised answer."

_VERDICT = re.compile(r"revise\s*:\s*\**\s*(yes|no)\b", re.IGNORECASE)


def outcome_prompt(observation: Observation, last_action: str) -> str:
    """The user turn that reports the outcome of the last decision and asks for a critique."""
    return f"Your last decision was: {last_action}\n{observation.outcome}\n\n{OUTCOME_CRITIQUE}"


def verdict(critique: str) -> bool:
    """Reads ``Revise: yes`` (True) or ``Revise: no`` from a critique; the last one counts; none: no."""
    found = _VERDICT.findall(critique)
    return bool(found) and found[-1].lower() == "yes"


class RevisingScaffold(ConversationScaffold):
    """Critiques its last decision after a rejection or an outcome, then answers (see the module)."""

    def __init__(self, max_explains: int = 3, **settings: Any) -> None:
        super().__init__(max_explains=max_explains, **settings)
        self._last_action: str | None = None
        """The last decision's accepted-or-not answer, as action text (the reply when unreadable)."""
        self._revisions = 0

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Critiques a rejected answer before answering again; otherwise decides as ``direct`` (see :meth:`open`)."""
        retry = observation.feedback is not None and observation.turn == self._turn
        if retry:
            turn = {"role": "user", "content": f"Your answer was rejected: {observation.feedback}\n{REJECTED_CRITIQUE}"}
            critique = await session.complete([*self._messages, turn], purpose="critique", **self.settings)
            self._messages += [turn, {"role": "assistant", "content": critique.text}]
        before = self._last_action
        try:
            action = await super().decide(observation, session)
        except ActionParseError:
            self._last_action = str(self._messages[-1]["content"]).strip()
            if retry:
                self._log(session, observation, "illegal", negative=True, changed=self._last_action != before)
            raise
        self._last_action = action.to_text()
        if retry:
            self._log(session, observation, "illegal", negative=True, changed=self._last_action != before)
        return action

    async def open(self, observation: Observation, session: ModelSession) -> list[dict[str, Any]]:
        """Opens the decision; with an outcome since an earlier decision, the critique exchange comes first."""
        messages = await super().open(observation, session)
        if not observation.outcome or self._last_action is None or observation.negotiation is not None:
            return messages
        turn = {"role": "user", "content": outcome_prompt(observation, self._last_action)}
        critique = await session.complete([*messages[:-1], turn], purpose="critique", **self.settings)
        messages[-1:-1] = [turn, {"role": "assistant", "content": critique.text}]
        self._log(session, observation, "outcome", negative=observation.outcome_negative,
                  changed=verdict(critique.text))
        return messages

    def retry_message(self, observation: Observation) -> str | None:
        """Asks for the revised answer, repeating the rejection and the answer format."""
        asked = super().retry_message(observation)
        return REVISE_PROMPT if asked is None else f"{REVISE_PROMPT}\n{asked}"

    def _log(self, session: ModelSession, observation: Observation, trigger: str, *, negative: bool,
             changed: bool) -> None:
        self._revisions += 1
        session.transcript.add(REVISION_EVENT, turn=observation.turn, player=session.player, index=self._revisions,
                               trigger=trigger, negative=negative, changed=changed)


def revise(**settings: Any) -> RevisingScaffold:
    """Builds the reflect-and-revise scaffold.

    Args:
        **settings: Request settings passed to every call (``max_tokens``...).
    """
    return RevisingScaffold(**settings)
