"""The paper protocol of the diplomacy family: SPIN-Bench's released Diplomacy code (§6).

``diplomacy`` (negotiation) plays Table 6's 2- to 5-agent seatings, where
every power the tested agent does not play belongs to an LLM opponent
(``diplomacy-opponent-N`` seats: the same name is one agent, one
conversation, for several powers), and ``diplomacy-nopress`` plays the
basic-skill game (France against six neutral powers). Both play to 1920 and
end when an agent's supply centres, summed over its powers, reach the
seating's threshold (25 with 2 agents, 20 with 3, else 18). The readers
below take SPIN-Bench's JSON: orders keyed by power, and messages keyed by
sending power with parallel ``recipients``/``messages`` lists, ``GLOBAL``
broadcasting.
"""

from __future__ import annotations

from typing import Any

from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.games.spin.diplomacy import _json_objects, _orders_object
from stratbench.protocols import Protocol
from stratbench.registry import Registry

SOURCE = (
    "SPIN-Bench (Yao et al., 2025) §4.3 and Appendix E.3, released code: diplomacy engine, Table 6 seatings, "
    "max_years=1920, winning_centers 25/20/18, negotiation JSON with GLOBAL"
)

_A, _B, _C, _D = "diplomacy-opponent-1", "diplomacy-opponent-2", "diplomacy-opponent-3", "diplomacy-opponent-4"
# Powers in alphabetical order: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY (Table 6).
PAPER_SEATINGS = {
    "2-agents": (_A, _A, _A, _A, "subject", "subject", "subject"),
    "3-agents": (_B, _B, _B, _A, _A, "subject", "subject"),
    "4-agents": (_A, _A, _B, _B, _C, "subject", _C),
    "5-agents": (_A, _A, _B, "subject", _C, _D, _C),
}
"""Table 6: who plays which power; the same opponent name is one agent."""
BASIC_SKILL = {"basic-skill": ("hold", "hold", "subject", "hold", "hold", "hold", "hold")}


def register(registry: Registry) -> None:
    """Registers the paper protocol of each game of the family."""
    suite: dict[str, Any] = {"illegal_tolerance": 10, "fallback": "drop", "baselines": ("hold", "random-orders")}
    registry.add_protocol("diplomacy", Protocol(
        "paper", source=SOURCE, game_options={"protocol": "paper"}, suite={**suite, "seatings": PAPER_SEATINGS},
    ))
    registry.add_protocol("diplomacy-nopress", Protocol(
        "paper", source=SOURCE, game_options={"protocol": "paper"}, suite={**suite, "seatings": BASIC_SKILL},
    ))


def read_orders(reply: str, observation: Observation) -> Action:
    """Reads a paper order answer: a JSON object whose ``orders`` is keyed by power.

    Raises:
        ActionParseError: when no such object is in the reply.
    """
    found, _ = _orders_object(reply)
    if not isinstance(found, dict):
        powers = observation.data.get("powers") or [observation.role]
        raise ActionParseError(
            f'No JSON object whose "orders" is keyed by power was found. Reply with a JSON object such as '
            f'{{"orders": {{"{powers[0]}": ["A PAR - BUR", "F BRE H"]}}}}, one list for each of {powers}.'
        )
    return Action("orders", reply)


def read_messages(reply: str, observation: Observation) -> list[Outgoing]:
    """Reads a paper negotiation answer: ``messages`` keyed by sending power (§6.5).

    Each sender's ``recipients[i]`` gets ``messages[i]``; ``GLOBAL`` goes to
    everyone. A sender the agent does not play, or an unknown recipient,
    yields a message to player -1, which the runner rejects and logs. A reply
    without such JSON sends nothing.
    """
    powers = list(observation.data.get("powers") or [])
    leads: dict[str, int] = dict(observation.data.get("leads") or {})
    for candidate in reversed(_json_objects(reply)):
        by_sender = candidate.get("messages")
        if not isinstance(by_sender, dict):
            continue
        outgoing: list[Outgoing] = []
        for sender, block in by_sender.items():
            sender_power = str(sender).strip().upper()
            if not isinstance(block, dict):
                continue
            recipients = block.get("recipients") or []
            texts = block.get("messages") or []
            recipients = [recipients] if isinstance(recipients, str) else list(recipients)
            texts = [texts] if isinstance(texts, str) else list(texts)
            for recipient, text in zip(recipients, texts):
                name = str(recipient).strip().upper()
                if not str(text).strip():
                    continue
                if sender_power not in powers:
                    to: tuple[int, ...] = (-1,)
                elif name == "GLOBAL":
                    to = ()
                else:
                    to = (leads.get(name, -1),)
                outgoing.append(Outgoing(str(text).strip(), to, sender_role=sender_power, to_roles=(name,)))
        return outgoing
    return []
