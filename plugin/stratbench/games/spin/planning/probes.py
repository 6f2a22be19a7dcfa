"""SPIN-Bench's core-competency probes (§4.2, Appendix C.1): generation and scoring.

**Factual retrieval.** A planning trajectory is shown with every state
transition spelled out; the model reports the state after a given step.
Difficulty is the number of *mutable* properties (ball locations and door
states, which actions change; ball colours never change and are shown as
distractors). Trajectories are 1-50 steps long; the asked step is drawn
uniformly from the trajectory. An answer is correct when every mutable
property has its right value.

**Spatial tracking.** A robot on a floortile-like grid starts at a
coordinate and makes a sequence of relative moves; the model gives the final
coordinate. The axis convention is stated in the prompt: x is the column and
grows to the right, y is the row and grows upwards, so ``up`` is
``(x, y + 1)`` and ``right`` is ``(x + 1, y)``. Moves never leave the grid.

Everything is generated from a seed: the same (variant, seed) gives the same
task.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from stratbench.games.spin.planning.plan_parsing import json_objects

__all__ = [
    "DIRECTIONS",
    "FactualTask",
    "SpatialTask",
    "factual_prompt",
    "factual_task",
    "read_position",
    "read_state",
    "score_factual",
    "spatial_prompt",
    "spatial_task",
]

_COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")
_ROOMS = 4
_GRID = 6
DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
"""Each move's change of (x, y): x grows to the right, y grows upwards."""
_DOLLARS = re.compile(r"\$\$(.*?)\$\$", re.DOTALL)
_PAIR = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


@dataclass(frozen=True)
class FactualTask:
    """A factual-retrieval task.

    Attributes:
        properties: The mutable properties, in order (``ball1``, ``door1``...).
        static: The static facts (ball colours).
        initial: Each mutable property's initial value.
        steps: Per step: the action, the facts it deletes and adds, as PDDL atoms.
        asked_step: The step after which the state is asked (1-based).
        answer: Each mutable property's value after ``asked_step``.
    """

    properties: tuple[str, ...]
    static: tuple[str, ...]
    initial: dict[str, str]
    steps: tuple[dict[str, Any], ...]
    asked_step: int
    answer: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SpatialTask:
    """A spatial-tracking task: ``start`` plus ``moves`` on a ``size`` x ``size`` grid ends at ``answer``."""

    size: int
    start: tuple[int, int]
    moves: tuple[str, ...]
    answer: tuple[int, int]


def _atom(prop: str, value: str) -> str:
    if prop.startswith("ball"):
        return f"(at {prop} {value})"
    return f"({value} {prop})"


def factual_task(difficulty: int, length: int, seed: int) -> FactualTask:
    """Generates a factual-retrieval task with ``difficulty`` mutable properties and ``length`` steps.

    Half the properties (rounded up) are ball locations among four rooms, the
    rest door states (open or closed). Each step moves one ball to another
    room or toggles one door.

    Raises:
        ValueError: for a difficulty or length below 1.
    """
    if difficulty < 1 or length < 1:
        raise ValueError(f"difficulty and length must be at least 1, got {difficulty} and {length}")
    rng = random.Random(f"factual:{difficulty}:{length}:{seed}")
    balls = [f"ball{i}" for i in range(1, (difficulty + 1) // 2 + 1)]
    doors = [f"door{i}" for i in range(1, difficulty // 2 + 1)]
    rooms = [f"room{i}" for i in range(1, _ROOMS + 1)]
    state = {b: rng.choice(rooms) for b in balls}
    state.update({d: rng.choice(("open", "closed")) for d in doors})
    initial = dict(state)
    static = tuple(f"(color {b} {rng.choice(_COLOURS)})" for b in balls)
    steps = []
    for _ in range(length):
        prop = rng.choice(balls + doors)
        old = state[prop]
        if prop.startswith("ball"):
            new = rng.choice([r for r in rooms if r != old])
            action = f"(move {prop} {old} {new})"
        else:
            new = "closed" if old == "open" else "open"
            action = f"({'close' if old == 'open' else 'open'}-door {prop})"
        state[prop] = new
        steps.append({"action": action, "deleted": [_atom(prop, old)], "added": [_atom(prop, new)],
                      "property": prop, "value": new})
    asked = rng.randint(1, length)
    answer = dict(initial)
    for step in steps[:asked]:
        answer[step["property"]] = step["value"]
    return FactualTask(tuple(balls + doors), static, initial, tuple(steps), asked, answer)


def factual_prompt(task: FactualTask) -> str:
    """Returns the factual-retrieval prompt: states, goal, trajectory with transitions, question."""
    final = dict(task.initial)
    for step in task.steps:
        final[step["property"]] = step["value"]
    lines = [
        "A robot works in a building with rooms room1 to room4. It moves balls between rooms and opens "
        "and closes doors. Ball colours never change.",
        "",
        "Static facts: " + " ".join(task.static),
        "Initial state s_init: " + " ".join(_atom(p, task.initial[p]) for p in task.properties),
        "Goal S_G: " + " ".join(_atom(p, final[p]) for p in task.properties),
        "",
        "Trajectory (each action with the facts it deletes and adds):",
    ]
    for number, step in enumerate(task.steps, start=1):
        deleted, added = " ".join(step["deleted"]), " ".join(step["added"])
        lines.append(f"Step {number}: {step['action']}  deletes {deleted}  adds {added}")
    example = {p: ("room1" if p.startswith("ball") else "open") for p in task.properties[:2]}
    lines += [
        "",
        f"Question: what is the state right after step {task.asked_step}? Give the value of every mutable "
        f"property: for each ball the room it is in, for each door 'open' or 'closed'. "
        f"The mutable properties are: {', '.join(task.properties)}.",
        "",
        "Reason as you need, then end with the answer in this exact format:",
        "$$",
        json.dumps({"state": example}) + "   (with every mutable property)",
        "$$",
    ]
    return "\n".join(lines)


def spatial_task(length: int, seed: int, size: int = _GRID) -> SpatialTask:
    """Generates a spatial-tracking task of ``length`` moves that stay on the grid.

    Raises:
        ValueError: for a length below 1 or a grid smaller than 2.
    """
    if length < 1 or size < 2:
        raise ValueError(f"length must be at least 1 and size at least 2, got {length} and {size}")
    rng = random.Random(f"spatial:{length}:{size}:{seed}")
    x, y = rng.randrange(size), rng.randrange(size)
    start = (x, y)
    moves = []
    for _ in range(length):
        options = [d for d, (dx, dy) in sorted(DIRECTIONS.items()) if 0 <= x + dx < size and 0 <= y + dy < size]
        move = rng.choice(options)
        dx, dy = DIRECTIONS[move]
        x, y = x + dx, y + dy
        moves.append(move)
    return SpatialTask(size, start, tuple(moves), (x, y))


def spatial_prompt(task: SpatialTask) -> str:
    """Returns the spatial-tracking prompt, stating the axis convention."""
    last = task.size - 1
    moves = "\n".join(f"{i}. {move}" for i, move in enumerate(task.moves, start=1))
    return (
        f"A robot paints a floor of {task.size} x {task.size} tiles. Each tile has a coordinate (x, y) with "
        f"x and y from 0 to {last}.\n"
        "Axis convention: x is the column and grows to the right; y is the row and grows upwards. "
        "So 'up' moves from (x, y) to (x, y+1), 'down' to (x, y-1), 'right' to (x+1, y) and "
        "'left' to (x-1, y). No move leaves the floor.\n\n"
        f"The robot starts on tile {_pair(task.start)} and makes these {len(task.moves)} moves in order:\n"
        f"{moves}\n\n"
        "Question: on which tile is the robot after the last move?\n\n"
        "Reason as you need, then end with the answer in this exact format:\n"
        '$$\n{"position": [x, y]}\n$$'
    )


def _pair(position: tuple[int, int]) -> str:
    return f"({position[0]}, {position[1]})"


def _json_after_dollars(answer: str) -> dict[str, Any] | None:
    for block in reversed(_DOLLARS.findall(answer or "")):
        text = block.strip().strip("`").removeprefix("json").strip()
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def read_state(answer: str | None) -> dict[str, str] | None:
    """Reads ``{"state": {property: value}}`` from an answer (``$$`` block or bare JSON), lower-cased."""
    if not answer:
        return None
    value = _json_after_dollars(answer)
    if value is None:
        candidates = [v for v in json_objects(answer) if isinstance(v, dict)]
        value = candidates[-1] if candidates else None
    if value is None:
        return None
    state = value.get("state", value)
    if not isinstance(state, dict):
        return None
    return {str(k).strip().lower(): str(v).strip().lower() for k, v in state.items()}


def score_factual(task: FactualTask, answer: str | None) -> tuple[bool, float]:
    """Returns (every mutable property right, share of mutable properties right)."""
    state = read_state(answer) or {}
    right = sum(1 for p in task.properties if state.get(p) == task.answer[p])
    return right == len(task.properties), right / len(task.properties)


def read_position(answer: str | None) -> tuple[int, int] | None:
    """Reads the final coordinate: ``{"position": [x, y]}`` in ``$$``, else the last ``(x, y)``."""
    if not answer:
        return None
    value = _json_after_dollars(answer)
    if value is not None:
        position = value.get("position")
        if isinstance(position, (list, tuple)) and len(position) == 2:
            try:
                return int(position[0]), int(position[1])
            except (TypeError, ValueError):
                return None
    pairs = _PAIR.findall(answer)
    return (int(pairs[-1][0]), int(pairs[-1][1])) if pairs else None
