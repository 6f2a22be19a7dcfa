"""The human seat played through the page: each decision is shown there and the checked move comes back.

The page gets exactly what a model in the same seat is shown (the seat's
:class:`~stratbench.core.types.Observation`: its text, legal actions,
open-ended prompts, messages and outcome), plus, in games without hidden
information, the board (and, where one player moves at a time, the moves
played and the others' last move with the model's reply text:
:mod:`stratbench.human_web.boards`), every player named by agent and role
(:mod:`stratbench.human_web.seating`). A move typed or clicked is read by the
same parser the models' answers go through (:func:`~stratbench.scaffolds.parsing.parse_answer`)
and checked against the legal actions before the match gets it; the game
still has the last word (its refusal comes back as the next attempt's
feedback, within the suite's illegal-move tolerance, as for a model). When
the match ends the page gets the final board, the moves and one sentence
saying how it ended for the person.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, IllegalActionError, Observation
from stratbench.human_web import boards
from stratbench.human_web.seating import Seating, result_sentence, seating_of
from stratbench.human_web.table import HumanTable


def check_move(text: str, observation: Observation) -> Action:
    """Reads the page's text as an action of ``observation``, as a model's answer is read.

    Raises:
        ActionParseError: when no action can be read (the parser's own message).
        IllegalActionError: when the action read is not among the legal or open-ended actions.
    """
    from stratbench.scaffolds.parsing import parse_answer  # lean: the parsers load with the first move

    if observation.negotiation is not None:
        return Action.from_text(text.strip())
    action = parse_answer(text, observation)
    if action.id in observation.open_ended:
        if not action.response:
            raise IllegalActionError(f"{action.id} is open-ended: write your answer after '{action.id}: '")
        return action
    by_lower = {legal.lower(): legal for legal in observation.legal_actions}
    if action.id.lower() not in by_lower:
        shown = ", ".join(observation.legal_actions[:60]) + (", ..." if len(observation.legal_actions) > 60 else "")
        raise IllegalActionError(f"{action.id!r} is not a legal action. Legal actions: {shown}")
    return Action(by_lower[action.id.lower()], action.response)


class WebHuman:
    """Asks one player's decisions on the page.

    Args:
        context: The agent's context (its game, player and the match's transcript).
        table: The page's shared state.
        name: The person's name, shown on the page.
    """

    def __init__(self, context: AgentContext, table: HumanTable, name: str) -> None:
        self.context = context
        self.table = table
        self.name = name
        self.key = f"match-{id(context.transcript)}"
        info = context.game.info
        roles = {player: context.game.role(player) for players in info.sides for player in players}
        labels = table.seat_labels.get(str(context.options.get("match_id")))
        self.seating: Seating = seating_of(labels, info.sides, roles, context.spec.label, context.side)

    def _match(self) -> dict[str, Any]:
        context = self.context
        info = context.game.info
        return {"game": info.name, "name": self.name, "label": context.spec.label, "side": context.side,
                "players": [list(players) for players in info.sides], "versus": self.seating.versus(),
                "others": self.seating.others()}

    def _played(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The moves so far (each named: ``You (X)``, ``random (O)``) and the others' last move with the model's
        reply text, where the game lets the page list moves; else nothing."""
        if not boards.shows_moves(self.context.game.info):
            return {"moves": None, "last_other": None}
        moves = [{**move, "by": self.seating.name(move["player"])} for move in boards.moves_played(events)]
        mine = {player for side in self.seating.mine for player in self.seating.sides[side]}
        last = boards.last_move_of_others(events, mine)
        if last is not None:
            last["by"] = self.seating.name(last["player"])
        return {"moves": moves, "last_other": last}

    def view(self, observation: Observation) -> dict[str, Any]:
        """What the page shows for ``observation`` (JSON-safe)."""
        info = self.context.game.info
        view: dict[str, Any] = {
            "game": observation.game,
            "title": observation.rules.title,
            "rules": observation.rules.summary,
            "player": observation.player,
            "role": observation.role or f"player {observation.player}",
            "turn": observation.turn,
            "attempt": observation.attempt,
            "feedback": observation.feedback or "",
            "text": observation.text,
            "legal": list(observation.legal_actions),
            "open_ended": dict(observation.open_ended),
            "messages": [dict(message) for message in observation.messages],
            "outcome": observation.outcome or "",
            "negotiation": observation.negotiation is not None,
            "board": None,
            "click": None,
            "moves": None,
            "last_other": None,
        }
        if boards.shows_board(info):
            events = list(self.context.transcript.to_list())
            renderers, clicks = _board_parts()
            view["board"] = boards.board_svg(renderers, info.name, events)
            view["click"] = boards.click_layout(observation, clicks)
            view.update(self._played(events))
        return view

    async def act(self, observation: Observation) -> Action:
        """Shows the decision on the page and waits for the person's checked move."""
        self.table.begin_match(self.key, self._match())
        view = self.view(observation)
        given_up = threading.Event()
        try:
            return await asyncio.to_thread(self.table.ask, view, lambda text: check_move(text, observation), given_up)
        except asyncio.CancelledError:  # the match was stopped (--match-timeout): free the page for the next
            given_up.set()
            raise

    def finish(self) -> None:
        """Shows how the match ended: its ``end`` event (or the forfeit or error that ended it) in one sentence
        from the person's side, the final board, the moves and the others' last move."""
        self.table.begin_match(self.key, self._match())
        self.table.end_match(self.key, self.summary(list(self.context.transcript.to_list())))

    def summary(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The end of the match told by ``events`` (JSON-safe): ``scores``, ``terminal``, ``forfeit`` (the
        reason) and ``forfeit_by`` (the player), or ``error``; ``sentence`` (:func:`result_sentence`),
        ``scores_line``, and, in a game without hidden information, the final ``board``, ``moves`` and
        ``last_other``."""
        ends = [e for e in events if e.get("kind") in ("end", "error")]
        forfeits = [e for e in events if e.get("kind") == "fallback" and e.get("policy") == "forfeit"]
        summary: dict[str, Any] = {}
        if ends and ends[-1].get("kind") == "end":
            summary["scores"] = ends[-1].get("scores")
            summary["terminal"] = ends[-1].get("terminal")
        elif ends:
            summary["error"] = ends[-1].get("error")
        if forfeits:
            summary["forfeit"] = forfeits[-1].get("reason")
            summary["forfeit_by"] = forfeits[-1].get("player")
        summary["sentence"] = result_sentence(self.seating, summary)
        if summary.get("scores"):
            summary["scores_line"] = self.seating.scores_line(summary["scores"])
        info = self.context.game.info
        if boards.shows_board(info):
            renderers, _ = _board_parts()
            summary["board"] = boards.board_svg(renderers, info.name, events)
            summary.update(self._played(events))
        return summary


def _board_parts() -> tuple[dict[str, Any], dict[str, Any]]:
    """The families' board renderers and click layouts (none without a registry)."""
    from stratbench.scaffolds.family_parts import NoRegistryError, current_registry  # lean: as parse_answer

    try:
        registry = current_registry()
    except NoRegistryError:
        return {}, {}
    return dict(registry.board_renderers), dict(registry.board_clicks)
