"""The ``human`` agent: a person plays, in the terminal or in the browser.

Named ``human`` or ``human:<name>`` (``--stratbench-agent human:alice``; the
label names the person in records and ratings). In the terminal it prints the
rules once, then for every decision the observation, the legal actions and
any rejection reason, and reads one line (run pytest with ``-s``). With
``--human-web`` (or ``stratbench play``) it asks on a local page instead
(:mod:`stratbench.human_web`). Its moves are kept beside the match's cassette
and played back when the cassette replays (:mod:`stratbench.human_web.moves`).
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import threading
from typing import TextIO

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.human_web.moves import HumanMoves


_TERMINAL = threading.Lock()


class HumanAgent:
    """Reads actions typed by a person.

    Args:
        context: The agent context; ``options["human_input"]`` and
            ``options["human_output"]`` may replace stdin and stdout.
    """

    def __init__(self, context: AgentContext) -> None:
        from stratbench.human_web.agent import WebHuman  # lean: the page's code loads with a human seat
        from stratbench.human_web.run import active_table  # lean: the page's code loads with a human seat

        self.input: TextIO = context.options.get("human_input") or sys.stdin
        self.output: TextIO = context.options.get("human_output") or sys.stdout
        self.name = human_name(context.spec.kind)
        self.player = context.player
        self.options = context.options
        self.transcript = context.transcript
        self._shown_rules = False
        self._moves: HumanMoves | None = None
        table = active_table()
        self.web = WebHuman(context, table, self.name) if table is not None else None

    async def act(self, observation: Observation) -> Action:
        """Replays the recorded move when the match's cassette replays; else asks the person (on the page,
        or in the terminal) and records the move."""
        if self._moves is None:
            self._moves = HumanMoves.for_match(self.player, self.options)
        if self._moves.replaying:
            return self._moves.replay(observation)
        if self.web is not None:
            action = await self.web.act(observation)
        else:
            action = await asyncio.to_thread(self._ask_alone, observation)
        self._moves.record(observation, action)
        return action

    async def aclose(self) -> None:
        """Marks the recorded moves complete when the match reached its end, and shows the end on the page."""
        if self._moves is not None:
            self._moves.finish(ended=any(event.get("kind") == "end" for event in self.transcript.to_list()))
        if self.web is not None:
            self.web.finish()

    def _ask_alone(self, observation: Observation) -> Action:
        with _TERMINAL:  # team games ask several seats at once (Sea Battle): one prompt at a time
            return self._ask(observation)

    def _ask(self, observation: Observation) -> Action:
        out = self.output
        if not self._shown_rules:
            out.write(f"\n=== {observation.rules.title} ===\n{observation.rules.summary}\n")
            self._shown_rules = True
        if observation.feedback:
            out.write(f"\nRejected: {observation.feedback}\n")
        out.write(f"\n{observation.text}\n")
        if observation.legal_actions:
            out.write("Legal actions: " + ", ".join(observation.legal_actions) + "\n")
        for action_id, prompt in observation.open_ended.items():
            out.write(f"Open-ended: {action_id}: <text>  ({prompt})\n")
        out.write(f"Your action ({observation.role or 'player ' + str(observation.player)})> ")
        out.flush()
        line = self.input.readline()
        if not line:
            raise HarnessError("the human agent's input was closed (run pytest with -s to play)")
        return Action.from_text(line.strip())


def human_name(kind: str) -> str:
    """The person's name in an agent name ``human:<name>``; for plain ``human``, the user's login name."""
    _, _, name = kind.partition(":")
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "human"
