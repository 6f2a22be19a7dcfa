"""Turning parsed text actions into pysc2 ``FunctionCall``s, with the selection steps and validation.

Two stages, because pysc2 acts one call per game step on the *current*
selection and camera:

1. :func:`plan` (when the reply arrives) checks each team block against the
   agent's teams and each action against its team's action space and argument
   form, and expands it into :class:`Step` s: a camera step and selection steps
   for the team (``select_point`` on its first unit, ``toggle`` for the others),
   then the action's calls. At most ``max_actions`` actions per team are kept;
   the first call of a team's first action is forced to ``now`` (the released
   queue rule).
2. :func:`resolve` (just before the step is executed) binds tags to the units'
   current screen or minimap positions, clamps coordinates, refuses attacks on
   own units and checks the function against ``available_actions``. A step
   that fails becomes ``no_op`` and its reason is fed back to the agent next
   decision, worded as the released validators word it (``cannot find unit
   0x… on screen``, ``(x, y) is alliance``, ``[Invalid Func] …``).

Besides the named actions of :mod:`~stratbench.games.sc2.action_space`, every
pysc2 function can be written under its own name with pysc2's arguments
(``<Attack_screen(now, [10, 20])>``, ``<select_point(toggle, [3, 4])>``), and
every raw function with the prefix ``Raw_`` (``<Raw_Attack_unit(now,
[0x100040001], 0x100080001)>``; only in a raw action space). So the text
interface reaches pysc2's complete action space.

Entry points: :func:`translate` (plan and resolve against one observation),
:func:`plan`, :func:`resolve`, :func:`select_team`, :func:`default_teams`,
:func:`function_form`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratbench.games.sc2.action_grammar import (
    Number,
    ParsedAction,
    ParsedReply,
    Point,
    Tag,
    TagList,
    Word,
)
from stratbench.games.sc2.action_space import ACTIONS
from stratbench.games.sc2.config import DEFAULTS, TeamConfig, TeamView
from stratbench.games.sc2.unit_table import ALLY, SELF, UnitTable
from stratbench.games.sc2.pysc2_compat import import_pysc2

RAW_PREFIX = "Raw_"


@dataclass(frozen=True)
class Step:
    """One pysc2 call to make, with where its arguments come from.

    Attributes:
        team: The team it acts for.
        source: The text action it comes from (empty for camera and selection steps).
        function: The pysc2 function name (a raw one when ``raw``).
        templates: Argument templates (see :mod:`~stratbench.games.sc2.action_space`) or literal values.
        tags: The action's tags, for ``…_tag`` templates.
        points: The action's coordinates, for ``screen``/``minimap`` templates.
        raw: Whether ``function`` is one of pysc2's raw functions.
    """

    team: str
    source: str
    function: str
    templates: tuple[Any, ...]
    tags: tuple[int, ...] = ()
    points: tuple[tuple[float, float], ...] = ()
    raw: bool = False


@dataclass(frozen=True)
class Rejected:
    """A text action that was not (or not fully) executed, and why."""

    team: str
    action: str
    reason: str


@dataclass
class Plan:
    """What :func:`plan` made of one reply.

    Attributes:
        steps: The calls to make, in order.
        rejected: Actions refused before execution.
        accepted: The accepted actions' canonical texts, per team (the "Last Step Actions" echo).
    """

    steps: list[Step] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    accepted: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Translation:
    """What :func:`translate` made of one reply against one observation.

    Attributes:
        calls: The pysc2 calls, in order (a refused step is ``no_op``).
        rejected: Actions refused at planning, and steps refused at resolution.
        accepted: The accepted actions' texts, per team.
    """

    calls: list[Any] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    accepted: dict[str, list[str]] = field(default_factory=dict)


def plan(reply: ParsedReply, teams: tuple[TeamView, ...], *, max_actions: int = DEFAULTS.max_actions,
         raw_space: bool = False, strict_teams: bool = False) -> Plan:
    """Checks a parsed reply against the agent's teams and expands it into steps.

    Args:
        reply: The parsed reply.
        teams: The agent's teams this decision.
        max_actions: Actions kept per team.
        raw_space: Whether the environment takes raw actions (``Raw_`` forms).
        strict_teams: Refuse a block without a team header even when the agent has one team.
    """
    result = Plan()
    by_name = {team.name: team for team in teams}
    for block in reply.teams:
        name = block.name
        if not name and len(teams) == 1 and not strict_teams:
            name = teams[0].name
        name = _match_team(name, by_name)
        team = by_name.get(name)
        if team is None:
            for action in block.actions:
                known = ", ".join(by_name) or "none"
                result.rejected.append(Rejected(block.name, action.to_text(),
                                                f"there is no team {block.name!r} (your teams: {known})"))
            continue
        kept = result.accepted.setdefault(team.name, [])
        selected = False
        for action in block.actions:
            if len(kept) >= max_actions:
                result.rejected.append(Rejected(team.name, action.to_text(),
                                                f"only {max_actions} actions per team are executed"))
                continue
            steps, reason = _expand(action, team, raw_space)
            if reason is not None:
                result.rejected.append(Rejected(team.name, action.to_text(), reason))
                continue
            if not selected and any(not s.raw for s in steps):
                result.steps.extend(select_team(team))
                selected = True
            if not kept and steps:
                steps[0] = _now(steps[0])
            result.steps.extend(steps)
            kept.append(action.to_text())
    result.accepted = {team: texts for team, texts in result.accepted.items() if texts}
    return result


def resolve(step: Step, table: UnitTable, available: Any, *, screen_size: int = DEFAULTS.screen_size,
            minimap_size: int = DEFAULTS.minimap_size, check_available: bool = True) -> tuple[Any | None, str | None]:
    """Binds a step to the current observation.

    Returns:
        ``(call, None)`` to execute; ``(None, None)`` for a step with nothing to
        do (a camera already in place); ``(no_op call, reason)`` when refused.
    """
    actions = import_pysc2().actions
    functions = actions.RAW_FUNCTIONS if step.raw else actions.FUNCTIONS
    function = functions[step.function]
    if step.function == "move_camera" and step.templates and step.templates[0] == "camera_tag":
        unit = table.by_tag(step.tags[0]) if step.tags else None
        if unit is None or unit.screen is not None:
            return None, None
    args: list[Any] = []
    for template in step.templates:
        value, reason = _bind(template, step, table, screen_size, minimap_size)
        if reason is not None:
            return _no_op(actions, step.raw), reason
        args.append(value)
    if function.name.startswith("Attack") and not step.raw:
        target = _attack_target(step, table)
        if target is not None:
            return _no_op(actions, step.raw), target
    if check_available and not step.raw and int(function.id) not in {int(a) for a in available}:
        return _no_op(actions, step.raw), f"[Invalid Func] {int(function.id)}/{function.name} is not available now"
    try:
        call = actions.FunctionCall.init_with_validation(function.name, args, raw=step.raw)
    except (KeyError, ValueError) as error:
        return _no_op(actions, step.raw), f"[Invalid Args] {error}"
    return call, None


def translate(reply: ParsedReply, observation: Any, *, teams: tuple[TeamView, ...] | None = None,
              max_actions: int = DEFAULTS.max_actions, raw_space: bool = False,
              check_available: bool = True) -> Translation:
    """Plans a reply and resolves every step against one observation.

    The steps' calls are what an executor sends one per game step when the
    observation does not change in between (a mock environment, a test).

    Args:
        reply: The parsed reply.
        observation: The pysc2 observation the reply answers.
        teams: The agent's teams; None: :func:`default_teams` of the observation.
        max_actions: Actions kept per team.
        raw_space: Whether the environment takes raw actions.
        check_available: Refuse functions missing from ``available_actions``.
    """
    table = UnitTable.from_observation(observation)
    if teams is None:
        teams = default_teams(table)
    planned = plan(reply, teams, max_actions=max_actions, raw_space=raw_space)
    screen, minimap = _sizes(observation)
    result = Translation(rejected=list(planned.rejected), accepted=planned.accepted)
    for step in planned.steps:
        call, reason = resolve(step, table, observation["available_actions"], screen_size=screen,
                               minimap_size=minimap, check_available=check_available)
        if reason is not None:
            result.rejected.append(Rejected(step.team, step.source, reason))
        if call is not None:
            result.calls.append(call)
    return result


def default_teams(table: UnitTable) -> tuple[TeamView, ...]:
    """Returns one team per own unit type, named ``<Type>-1`` (LLM-SMAC's names), with the default action space."""
    kinds: dict[str, list[Any]] = {}
    for unit in table.of(SELF):
        kinds.setdefault(unit.type_name, []).append(unit)
    return tuple(TeamView(f"{kind}-1", TeamConfig(f"{kind}-1", (kind,)), tuple(units)) for kind, units in kinds.items())


def function_form(name: str, args: tuple[Any, ...]) -> str:
    """Renders a pysc2 function in the text form the translator reads (``<Attack_screen(now, [1, 2])>``)."""
    return ParsedAction(name, args).to_text()


def _match_team(name: str, by_name: dict[str, TeamView]) -> str:
    if name in by_name:
        return name
    lowered = {key.lower(): key for key in by_name}
    return lowered.get(name.lower().removeprefix("team ").strip(), name)


def select_team(team: TeamView) -> list[Step]:
    """Returns the steps that select exactly a team: camera to its first unit if needed, then point and toggles."""
    first, *others = team.tags
    steps = [Step(team.name, "", "move_camera", ("camera_tag",), tags=(first,)),
             Step(team.name, "", "select_point", ("select", "unit_screen"), tags=(first,))]
    steps.extend(Step(team.name, "", "select_point", ("toggle", "unit_screen"), tags=(tag,)) for tag in others)
    return steps


def _now(step: Step) -> Step:
    templates = tuple("now" if t == "queued" else t for t in step.templates)
    return Step(step.team, step.source, step.function, templates, step.tags, step.points, step.raw)


def _expand(action: ParsedAction, team: TeamView, raw_space: bool) -> tuple[list[Step], str | None]:
    text = action.to_text()
    named = ACTIONS.get(action.name)
    if named is not None:
        if action.name not in team.config.action_names():
            return [], f"{action.name} is not a valid action for Team {team.name}"
        kinds = tuple("tag" if isinstance(a, Tag) else "point" if isinstance(a, Point) else "other"
                      for a in action.args)
        wanted = tuple("tag" if k == "tag" else "point" for k in named.args)
        if kinds != wanted:
            return [], f"{action.name} expects {named.signature()}"
        points = tuple((p.x, p.y) for p in action.points)
        return [Step(team.name, text, fn, templates, action.tags, points) for _, fn, templates in named.calls], None
    return _function_steps(action, team, raw_space)


def _function_steps(action: ParsedAction, team: TeamView, raw_space: bool) -> tuple[list[Step], str | None]:
    actions = import_pysc2().actions
    raw = action.name.startswith(RAW_PREFIX)
    name = action.name[len(RAW_PREFIX):] if raw else action.name
    table = actions.RAW_FUNCTIONS if raw else actions.FUNCTIONS
    try:
        function = table[name]
    except KeyError:
        return [], f"{action.name} is not a valid action for Team {team.name}"
    if raw and not raw_space:
        return [], f"{action.name} is a raw action; this game takes feature-layer actions"
    if not raw and raw_space:
        return [], f"{action.name} is a feature-layer action; this game takes raw actions"
    if len(action.args) != len(function.args):
        expected = ", ".join(a.name for a in function.args)
        return [], f"{action.name} expects ({expected})"
    templates: list[Any] = []
    for arg, arg_type in zip(action.args, function.args):
        value = _literal(arg, arg_type)
        if value is None:
            return [], f"{action.name}: {arg} is not a valid {arg_type.name}"
        templates.append(("literal", value, arg_type.name))
    return [Step(team.name, action.to_text(), function.name, tuple(templates), raw=raw)], None


def _literal(arg: Any, arg_type: Any) -> Any:
    if arg_type.values is not None:
        if isinstance(arg, Word) and arg.text in arg_type.values.__members__:
            return arg.text
        if isinstance(arg, Number) and arg.value in {int(v) for v in arg_type.values}:
            return arg.value
        return None
    if arg_type.name in ("screen", "screen2", "minimap", "world"):
        return [arg.x, arg.y] if isinstance(arg, Point) else None
    if arg_type.name == "unit_tags":
        if isinstance(arg, TagList):
            return list(arg.values)
        return [arg.value] if isinstance(arg, Tag) else None
    if arg_type.name == "target_unit_tag":
        return [arg.value] if isinstance(arg, Tag) else None
    if isinstance(arg, Number) and 0 <= arg.value < arg_type.sizes[0]:
        return arg.value
    return None


def _bind(template: Any, step: Step, table: UnitTable, screen_size: int,
          minimap_size: int) -> tuple[Any, str | None]:
    if isinstance(template, tuple) and template[0] == "literal":
        value, kind = template[1], template[2]
        if kind in ("screen", "screen2", "minimap"):
            size = minimap_size if kind == "minimap" else screen_size
            return [_clamp(value[0], size), _clamp(value[1], size)], None
        if kind == "world":
            return [round(value[0]), round(value[1])], None
        return value, None
    if template in ("now", "queued", "select", "add", "toggle"):
        return template, None
    if template == "camera_tag":
        unit = table.by_tag(step.tags[0])
        assert unit is not None
        return list(unit.minimap), None
    if template in ("screen", "minimap"):
        size = screen_size if template == "screen" else minimap_size
        if not step.points:
            return None, f"a {template} coordinate is missing"
        x, y = step.points[0]
        return [_clamp(x, size), _clamp(y, size)], None
    index = 1 if template.endswith("tag2") else 0
    if index >= len(step.tags):
        return None, "a unit tag is missing"
    tag = step.tags[index]
    unit = table.by_tag(tag)
    if template == "minimap_tag":
        if unit is None:
            return None, f"cannot find unit {hex(tag)}"
        return list(unit.minimap), None
    if unit is None or unit.screen is None:
        return None, f"cannot find unit {hex(tag)} on screen"
    x, y = unit.screen
    if template.startswith("screen1"):
        return [_clamp(x - 1, screen_size), _clamp(y - 1, screen_size)], None
    if template.startswith("screen2"):
        return [_clamp(x + 1, screen_size), _clamp(y + 1, screen_size)], None
    return [x, y], None


def _attack_target(step: Step, table: UnitTable) -> str | None:
    for template in step.templates:
        if template in ("screen_tag", "screen_tag2"):
            unit = table.by_tag(step.tags[1 if template == "screen_tag2" else 0])
            if unit is not None and unit.alliance in (SELF, ALLY) and unit.screen is not None:
                return f"({unit.screen[0]}, {unit.screen[1]}) is alliance"
    return None


def _clamp(value: float, size: int) -> int:
    return int(min(max(round(value), 0), size - 1))


def _no_op(actions: Any, raw: bool) -> Any:
    return actions.RAW_FUNCTIONS.no_op() if raw else actions.FUNCTIONS.no_op()


def _sizes(observation: Any) -> tuple[int, int]:
    screen = observation["feature_screen"].shape[-1] if "feature_screen" in observation else DEFAULTS.screen_size
    minimap = observation["feature_minimap"].shape[-1] if "feature_minimap" in observation else DEFAULTS.minimap_size
    return int(screen), int(minimap)
