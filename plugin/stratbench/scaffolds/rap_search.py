"""Monte-Carlo tree search as llm-reasoners' ``MCTS`` does it, with async model steps.

The search knows nothing of models: a :class:`SearchProblem` gives the
actions of a state, a cheap ``fast_reward`` for each, the ``step`` to the
next state and the full ``reward`` of an action once its state is known.

The defaults are llm-reasoners' ``MCTS`` defaults, which GameBench's RAP
kept except the depth: ``n_iters=10``, ``w_exp=1.0`` (UCT exploration
weight), ``cum_reward=sum``, ``calc_q=mean``, ``simulate_strategy='max'``
(follow the child with the highest fast reward), ``output_strategy=
'max_reward'`` (the visited trace with the highest summed reward) and
``uct_with_fast_reward=True`` (an unvisited child's Q is its fast reward).
GameBench's depth limit is 2: a state at that depth is terminal (its
``is_terminal``), which is where every trace ends.

Its one departure: a visited state whose predicted action list is empty
ends its trace in the output's depth-first search (llm-reasoners scores such
a trace -inf, and GameBench then plays a random action). Ties go to the
first action in order everywhere (``max`` and ``argmax`` keep the first), so
the search is deterministic given the problem's answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")

N_ITERS = 10
"""llm-reasoners' ``MCTS(n_iters=10)``."""
W_EXP = 1.0
"""llm-reasoners' ``MCTS(w_exp=1.0)``."""
DEPTH_LIMIT = 2
"""GameBench's ``DEPTH_LIMIT`` (llm-reasoners' own default is 5)."""


class SearchProblem(Protocol[S, A]):
    """The world model and search configuration the search calls."""

    async def actions(self, state: S) -> list[A]:
        """Returns the actions of ``state`` (empty: nothing to expand)."""
        ...

    async def fast_reward(self, state: S, action: A) -> tuple[float, dict[str, Any]]:
        """Returns the cheap reward of ``action`` in ``state`` and details passed on to :meth:`reward`."""
        ...

    async def step(self, state: S, action: A, depth: int) -> tuple[S, dict[str, Any]]:
        """Returns the state after ``action`` (at tree depth ``depth``) and details passed on to :meth:`reward`."""
        ...

    async def reward(self, state: S, action: A, next_state: S, **details: Any) -> tuple[float, dict[str, Any]]:
        """Returns the reward of ``action`` once its next state is known, and its parts."""
        ...


@dataclass(eq=False)
class Node(Generic[S, A]):
    """One node: the action that led to it and, once visited, its state."""

    action: A | None
    parent: Node[S, A] | None
    fast_reward: float = 0.0
    fast_details: dict[str, Any] = field(default_factory=dict)
    state: S | None = None
    reward: float = 0.0
    reward_details: dict[str, Any] = field(default_factory=dict)
    children: list[Node[S, A]] | None = None
    cum_rewards: list[float] = field(default_factory=list)
    terminal: bool = False

    def __post_init__(self) -> None:
        self.reward = self.fast_reward
        self.depth = 0 if self.parent is None else self.parent.depth + 1

    @property
    def visited(self) -> bool:
        """Whether the node's state was predicted."""
        return self.state is not None

    @property
    def q(self) -> float:
        """Mean cumulative reward through the node; the fast reward before its first visit."""
        if self.state is None or not self.cum_rewards:
            return self.fast_reward
        return sum(self.cum_rewards) / len(self.cum_rewards)


@dataclass
class SearchResult(Generic[S, A]):
    """The search's answer: the first action of the best trace, and the tree."""

    action: A | None
    trace: list[Node[S, A]]
    cum_reward: float
    root: Node[S, A]


class MCTS(Generic[S, A]):
    """UCT search with llm-reasoners' defaults (see the module docstring)."""

    def __init__(self, problem: SearchProblem[S, A], *, depth: int = DEPTH_LIMIT, iterations: int = N_ITERS,
                 w_exp: float = W_EXP) -> None:
        if depth < 1 or iterations < 1:
            raise ValueError(f"depth and iterations must be at least 1, got {depth} and {iterations}")
        self.problem, self.depth, self.iterations, self.w_exp = problem, depth, iterations, w_exp

    async def search(self, root_state: S) -> SearchResult[S, A]:
        """Runs ``iterations`` iterations from ``root_state`` and returns the best trace's first action."""
        root: Node[S, A] = Node(action=None, parent=None, state=root_state)
        for _ in range(self.iterations):
            await self.iterate(root)
        cum_reward, trace = self._best_trace([root])
        action = trace[1].action if len(trace) > 1 and cum_reward > -math.inf else None
        return SearchResult(action=action, trace=trace, cum_reward=cum_reward, root=root)

    async def iterate(self, root: Node[S, A]) -> list[Node[S, A]]:
        """One iteration: select, expand, simulate, back-propagate."""
        path = self._select(root)
        if not self._ends(path[-1]):
            await self._expand(path[-1])
            await self._simulate(path)
        self._back_propagate(path)
        return path

    @staticmethod
    def _ends(node: Node[S, A]) -> bool:
        """GameBench's terminal test: the node's state is at the depth limit.

        llm-reasoners also stops at ``depth_limit=5`` (its default), which
        never binds before GameBench's own test at depth 5 or less; an
        unvisited node at the depth limit is stepped when selected.
        """
        return node.terminal

    def _select(self, node: Node[S, A]) -> list[Node[S, A]]:
        path = []
        while True:
            path.append(node)
            if not node.children or self._ends(node):
                return path
            node = max(node.children, key=self._uct)

    def _uct(self, node: Node[S, A]) -> float:
        assert node.parent is not None
        parent_visits = len(node.parent.cum_rewards)
        explore = math.sqrt(math.log(parent_visits) / max(1, len(node.cum_rewards))) if parent_visits else 0.0
        return node.q + self.w_exp * explore

    async def _expand(self, node: Node[S, A]) -> None:
        if node.state is None:
            assert node.parent is not None and node.parent.state is not None and node.action is not None
            node.state, aux = await self.problem.step(node.parent.state, node.action, node.depth)
            node.reward, node.reward_details = await self.problem.reward(
                node.parent.state, node.action, node.state, **node.fast_details, **aux
            )
            node.terminal = node.depth >= self.depth
        if node.terminal:
            return
        children = []
        for action in await self.problem.actions(node.state):
            fast, details = await self.problem.fast_reward(node.state, action)
            children.append(Node(action=action, parent=node, fast_reward=fast, fast_details=details))
        node.children = children

    async def _simulate(self, path: list[Node[S, A]]) -> None:
        node = path[-1]
        while True:
            if node.state is None:
                await self._expand(node)
            if self._ends(node) or not node.children:
                return
            rewards = [child.fast_reward for child in node.children]
            node = node.children[rewards.index(max(rewards))]
            path.append(node)

    @staticmethod
    def _back_propagate(path: list[Node[S, A]]) -> float:
        total = 0.0
        for node in reversed(path):
            total += node.reward
            node.cum_rewards.append(total)
        return total

    def _best_trace(self, path: list[Node[S, A]]) -> tuple[float, list[Node[S, A]]]:
        """The visited trace with the highest summed reward (llm-reasoners' ``_dfs_max_reward``)."""
        node = path[-1]
        if node.terminal or (node.visited and node.children == [] and len(path) > 1):
            return sum(n.reward for n in path[1:]), path
        visited = [child for child in node.children or [] if child.visited]
        if not visited:
            return -math.inf, path
        best: tuple[float, list[Node[S, A]]] = (-math.inf, path)
        for child in visited:
            candidate = self._best_trace([*path, child])
            if candidate[0] > best[0]:
                best = candidate
        return best
