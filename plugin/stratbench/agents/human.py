"""The ``human`` agent: a person plays in the terminal.

It prints the rules once, then for every decision the observation, the legal
actions and any rejection reason, and reads one line. Run pytest with ``-s``
so the terminal is not captured.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, HarnessError, Observation


_TERMINAL = threading.Lock()


class HumanAgent:
    """Reads actions typed by a person.

    Args:
        context: The agent context; ``options["human_input"]`` and
            ``options["human_output"]`` may replace stdin and stdout.
    """

    def __init__(self, context: AgentContext) -> None:
        self.input: TextIO = context.options.get("human_input") or sys.stdin
        self.output: TextIO = context.options.get("human_output") or sys.stdout
        self._shown_rules = False

    async def act(self, observation: Observation) -> Action:
        """Shows the state and reads the person's action."""
        return await asyncio.to_thread(self._ask_alone, observation)

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
