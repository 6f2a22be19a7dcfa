"""Reading an LLM-PySC2 reply: ``Team <name>:`` blocks of ``<Action(args)>``, and its messages.

The reply layout the prompt asks for::

    Analysis:
      ...
    Actions:
      Team Stalker-1:
        <Attack_Unit(0x100040001)>
        <Move_Screen([67, 96])>
    Communications:
      <MessageTo(Commander, '''We hold the ridge.''')>
      <ListenTo(Channel-1)>

As in the released translator, actions are read after an ``Actions:`` line
and before a ``Communications:`` line; a line holding ``Team`` and ``:``
opens a team block; markdown emphasis (``*``, backticks, a leading ``- ``) is
stripped first. ``strict=False`` (the project's default) also reads a reply
with no ``Actions:`` header from its first line. Arguments are parsed into
:class:`Tag`, :class:`Point`, :class:`TagList`, :class:`Number` and
:class:`Word` values; the translator decides whether they fit the action.

Entry point: :func:`parse_actions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ACTIONS_HEADER = re.compile(r"^\s*actions?\s*:", re.IGNORECASE)
_COMMS_HEADER = re.compile(r"^\s*communications?\s*:", re.IGNORECASE)
_TEAM_HEADER = re.compile(r"\bteam\s+([^:<>]+?)\s*:", re.IGNORECASE)
_ACTION = re.compile(r"<\s*([A-Za-z][\w.]*)\s*(?:\((.*?)\))?\s*>")
_MESSAGE = re.compile(r"<\s*MessageTo\s*\(\s*([^,()]+?)\s*,\s*'''(.*?)'''\s*\)\s*>", re.DOTALL)
_LISTEN = re.compile(r"<\s*ListenTo\s*\(\s*(Channel-\d+)\s*\)\s*>")
_NUMBER = r"[-+]?\d+(?:\.\d+)?"
_POINT = re.compile(rf"^\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]$")
_TAG = re.compile(r"^0x[0-9a-fA-F]+$")
_COMMUNICATION_ACTIONS = ("MessageTo", "ListenTo")


@dataclass(frozen=True)
class Tag:
    """A unit tag written ``0x…``."""

    value: int

    def __str__(self) -> str:
        return hex(self.value)


@dataclass(frozen=True)
class Point:
    """A coordinate written ``[x, y]`` (screen or minimap: the action decides)."""

    x: float
    y: float

    def __str__(self) -> str:
        return f"[{_number(self.x)}, {_number(self.y)}]"


@dataclass(frozen=True)
class TagList:
    """Several tags written ``[0x…, 0x…]`` (raw actions' ``unit_tags``)."""

    values: tuple[int, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(hex(v) for v in self.values) + "]"


@dataclass(frozen=True)
class Number:
    """A whole number (a control group, a queue slot)."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Word:
    """Any other argument (``now``, ``queued``, ``select``, a placeholder such as ``tag``)."""

    text: str

    def __str__(self) -> str:
        return self.text


Arg = Tag | Point | TagList | Number | Word


@dataclass(frozen=True)
class ParsedAction:
    """One ``<Name(args)>`` as read.

    Attributes:
        name: The action name.
        args: The arguments, in order.
    """

    name: str
    args: tuple[Arg, ...] = ()

    def to_text(self) -> str:
        """Renders the action in canonical form: ``<Name(arg, arg)>``."""
        return f"<{self.name}({', '.join(str(a) for a in self.args)})>"

    @property
    def tags(self) -> tuple[int, ...]:
        """The single tags among the arguments, in order."""
        return tuple(a.value for a in self.args if isinstance(a, Tag))

    @property
    def points(self) -> tuple[Point, ...]:
        """The coordinates among the arguments, in order."""
        return tuple(a for a in self.args if isinstance(a, Point))


@dataclass(frozen=True)
class TeamBlock:
    """The actions written under one ``Team <name>:`` header (name empty before any header)."""

    name: str
    actions: tuple[ParsedAction, ...]


@dataclass(frozen=True)
class OutgoingMessage:
    """A ``<MessageTo(target, '''text''')>``: to an agent's name or a ``Channel-i``."""

    to: str
    text: str


@dataclass(frozen=True)
class ParsedReply:
    """Everything read from one reply.

    Attributes:
        teams: The team blocks in the order written.
        messages: The messages to send (a later message to the same target replaces an earlier one).
        listens: The channels the agent joins.
        found_actions_header: Whether the reply had an ``Actions:`` line.
    """

    teams: tuple[TeamBlock, ...]
    messages: tuple[OutgoingMessage, ...] = ()
    listens: tuple[str, ...] = ()
    found_actions_header: bool = True

    def actions_of(self, team: str) -> tuple[ParsedAction, ...]:
        """Returns the actions written for ``team`` (all its blocks, in order)."""
        found: list[ParsedAction] = []
        for block in self.teams:
            if block.name == team:
                found.extend(block.actions)
        return tuple(found)


def parse_actions(text: str, *, strict: bool = False) -> ParsedReply:
    """Reads the team blocks, messages and channel joins of a reply.

    Args:
        text: The model's reply.
        strict: Read actions only after an ``Actions:`` line (the released
            translator); otherwise a reply without one is read from its start.

    Returns:
        The parsed reply; nothing in it is checked against a game yet.
    """
    lines = [_clean(line) for line in (text or "").splitlines()]
    start = next((i for i, line in enumerate(lines) if _ACTIONS_HEADER.match(line)), None)
    found_header = start is not None
    if start is None:
        start = len(lines) if strict else -1
    blocks: list[TeamBlock] = []
    name, actions = "", []
    for line in lines[start + 1:]:
        if _COMMS_HEADER.match(line):
            break
        header = _TEAM_HEADER.search(line.split("<", 1)[0])
        if header is not None:
            if actions or name:
                blocks.append(TeamBlock(name, tuple(actions)))
            name, actions = header.group(1).strip(), []
        for match in _ACTION.finditer(line):
            if match.group(1) in _COMMUNICATION_ACTIONS:
                continue
            actions.append(ParsedAction(match.group(1), parse_args(match.group(2) or "")))
    if actions or name:
        blocks.append(TeamBlock(name, tuple(actions)))
    return ParsedReply(tuple(blocks), _messages(text or ""), _listens(text or ""), found_header)


def parse_args(text: str) -> tuple[Arg, ...]:
    """Parses an argument list: commas split it except inside brackets."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return tuple(_arg(part.strip().strip("'\"")) for part in parts if part.strip())


def _arg(text: str) -> Arg:
    if _TAG.match(text):
        return Tag(int(text, 16))
    point = _POINT.match(text)
    if point is not None:
        return Point(float(point.group(1)), float(point.group(2)))
    if text.startswith("[") and text.endswith("]"):
        inner = [t.strip() for t in text[1:-1].split(",") if t.strip()]
        if inner and all(_TAG.match(t) for t in inner):
            return TagList(tuple(int(t, 16) for t in inner))
    if re.fullmatch(r"[-+]?\d+", text):
        return Number(int(text))
    return Word(text)


def _clean(line: str) -> str:
    line = line.replace("*", "").replace("`", "")
    return re.sub(r"^(\s*)- ", r"\1", line)


def _messages(text: str) -> tuple[OutgoingMessage, ...]:
    by_target: dict[str, OutgoingMessage] = {}
    for match in _MESSAGE.finditer(text):
        target = match.group(1).strip().strip("'\"")
        by_target.pop(target, None)
        by_target[target] = OutgoingMessage(target, match.group(2).strip())
    return tuple(by_target.values())


def _listens(text: str) -> tuple[str, ...]:
    seen: list[str] = []
    for match in _LISTEN.finditer(text):
        if match.group(1) not in seen:
            seen.append(match.group(1))
    return tuple(seen)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
