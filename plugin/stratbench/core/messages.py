"""Message channels between seats: public and private messages in negotiation rounds.

A game declares when players may talk by returning a :class:`Negotiation`
from ``State.negotiation()`` (for example before each Diplomacy movement
phase). The runner then holds ``rounds`` rounds; in each, every participant
may send up to ``max_messages`` messages, public (to everyone) or private (to
chosen seats). Messages live in the state's :class:`MessageLog`, every player
sees the ones addressed to them in later observations, and each one is
recorded in the transcript. Nothing here is specific to one game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Negotiation:
    """A negotiation the game asks for before the players act.

    Attributes:
        phase: A name unique within the match (``"S1901M"``); each is held once.
        participants: The players who may talk.
        rounds: Rounds of messaging (SPIN-Bench Diplomacy: 3).
        max_messages: Messages per participant per round.
        max_chars: The longest message accepted.
        allow_private: Whether messages may go to chosen seats only.
        allow_public: Whether messages may go to everyone.
    """

    phase: str
    participants: tuple[int, ...]
    rounds: int = 3
    max_messages: int = 3
    max_chars: int = 2000
    allow_private: bool = True
    allow_public: bool = True


@dataclass(frozen=True)
class NegotiationTurn:
    """What an agent is told when it is its turn to talk (``Observation.negotiation``).

    Attributes:
        phase: The negotiation's phase name.
        round: This round, from 1.
        rounds: Rounds in this negotiation.
        max_messages: Messages this agent may send now.
        max_chars: The longest message accepted.
        recipients: The seats it may write to, as ``{player: role}``.
        allow_private: Whether private messages are allowed.
        allow_public: Whether public messages are allowed.
    """

    phase: str
    round: int
    rounds: int
    max_messages: int
    max_chars: int
    recipients: dict[int, str]
    allow_private: bool = True
    allow_public: bool = True


@dataclass(frozen=True)
class Outgoing:
    """A message an agent wants to send; ``to`` empty means public.

    An agent that plays several roles at once (SPIN-Bench's paper Diplomacy,
    one model for several powers) names the role it writes as in
    ``sender_role`` and the roles it writes to in ``to_roles``.
    """

    text: str
    to: tuple[int, ...] = ()
    sender_role: str = ""
    to_roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Message:
    """A delivered message.

    Attributes:
        sender: The sending player.
        recipients: The receiving players; empty for a public message.
        text: The message.
        phase: The negotiation's phase name.
        round: The round it was sent in.
        sender_role: The role the sender wrote as, when it plays several (else empty).
        recipient_roles: The roles it was written to, when named (else empty).
    """

    sender: int
    recipients: tuple[int, ...]
    text: str
    phase: str
    round: int
    sender_role: str = ""
    recipient_roles: tuple[str, ...] = ()

    @property
    def public(self) -> bool:
        """Tells whether everyone receives the message."""
        return not self.recipients

    def visible_to(self, player: int) -> bool:
        """Tells whether ``player`` sent or received the message."""
        return self.public or player == self.sender or player in self.recipients

    def to_dict(self) -> dict[str, Any]:
        """Returns the message as builtins (the role fields only when set)."""
        data: dict[str, Any] = {
            "sender": self.sender,
            "recipients": list(self.recipients),
            "text": self.text,
            "phase": self.phase,
            "round": self.round,
        }
        if self.sender_role or self.recipient_roles:
            data["sender_role"] = self.sender_role
            data["recipient_roles"] = list(self.recipient_roles)
        return data


@dataclass
class MessageLog:
    """All messages of a match, in the order they were delivered."""

    messages: list[Message] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    """The negotiation phases already held."""

    def visible_to(self, player: int) -> list[Message]:
        """Returns the messages ``player`` sent or received."""
        return [m for m in self.messages if m.visible_to(player)]

    def check(self, negotiation: Negotiation, sender: int, outgoing: Outgoing) -> str | None:
        """Returns why a message may not be sent, or None if it may."""
        if not outgoing.text.strip():
            return "the message is empty"
        if len(outgoing.text) > negotiation.max_chars:
            return f"the message is longer than {negotiation.max_chars} characters"
        if not outgoing.to and not negotiation.allow_public:
            return "public messages are not allowed here"
        if outgoing.to and not negotiation.allow_private:
            return "private messages are not allowed here"
        unknown = [p for p in outgoing.to if p not in negotiation.participants or p == sender]
        if unknown:
            return f"recipients {unknown} are not other participants"
        return None

    def post(self, sender: int, outgoing: Outgoing, phase: str, round_: int) -> Message:
        """Delivers a message that passed :meth:`check`."""
        message = Message(sender, tuple(sorted(set(outgoing.to))), outgoing.text.strip(), phase, round_,
                          outgoing.sender_role, tuple(outgoing.to_roles))
        self.messages.append(message)
        return message
