"""SPIN-Bench classical planning as a one-sided, one-decision game.

Each variant is one planning task, ``<domain>/<instance>``
(:mod:`stratbench.games.spin.planning.dataset`). The single player receives SPIN-Bench's
prompt (Appendix E.1) with the domain and problem PDDL verbatim, and answers
once with a plan; the open-ended action ``plan`` carries the whole answer.
``apply`` reads and validates it with unified-planning (after the reader's
normalisation, :mod:`stratbench.games.spin.planning.normalise`: the model sees and
answers in the task's own names; :attr:`PddlGame.normalisation` lists what
was changed, and the match record carries it); the game then ends,
scoring 1 for a valid plan and 0 otherwise, and ``terminal_reason`` says why
(``valid plan``, or the first failure: parse error, unknown action or object,
the first inapplicable step with its unmet preconditions, unmet goals).
SPIN-Bench is single-shot: a bad plan is scored, never retried.

Under the ``paper`` protocol (``protocol="paper"``) the answer is read as
SPIN-Bench's released code reads it: only the ``$$ ... $$`` JSON's ``plan``
string (:func:`stratbench.games.spin.planning.plan_parsing.released_plan`); an answer
without one is unreadable (the reader ``spin_pddl_plan`` rejects it, and
the task counts as failed, class Other). The request carries the released
code's system prompt.

Under an obfuscation (``--obfuscate``, PlanBench's "Mystery Blocksworld") the
model reads the task under other names (:mod:`stratbench.games.spin.planning.obfuscate`:
types, constants, objects, predicates, functions, actions, the domain's and
problem's names, neutral variables) and answers in them; the original task's
validator checks the plan with those names mapped back to the original ones,
so the verdict, the error kind, the plan length and the failed step are the
original's, and every message (reason, failed step, unmet conditions) names
what the model saw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.types import Action, Asking, HarnessError, Observation, Rules
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.obfuscate import obfuscate_task
from stratbench.games.spin.planning.plan_parsing import (
    PlanParseError,
    extract_plan,
    parse_plan_text,
    released_plan,
    render_plan,
)
from stratbench.games.spin.planning.prompt import RELEASED_SYSTEM_PROMPT, planning_prompt

if TYPE_CHECKING:
    from stratbench.core.obfuscation import Obfuscation
    from stratbench.games.spin.planning.obfuscate import RenamedTask

__all__ = ["INFO", "PROTOCOLS", "PddlGame", "PddlState", "RULES", "pddl_game"]

PLAN_ACTION = "plan"
PROTOCOLS = ("default", "paper")
PAPER_READER = "spin_pddl_plan"
"""The strict reader of the paper protocol (:data:`stratbench.scaffolds.parsing.PARSERS`)."""

INFO = GameInfo(
    name="pddl",
    num_players=1,
    sides=((0,),),
    max_turns=1,
    score_range=(0.0, 1.0),
    score_sum=None,
    family="spin",
)

RULES = Rules(
    title="PDDL classical planning (SPIN-Bench)",
    summary=(
        "You are given a planning domain and a task in PDDL. Give a plan, one grounded action per line "
        "in the form (action-name arg1 arg2 ...), that is executable from the initial state and reaches "
        "the goal. The plan is checked once: every action's preconditions must hold when it is applied, "
        "and the goal must hold at the end. A valid plan scores 1, anything else 0."
    ),
)

_PLAN_PROMPT = 'Your full answer, ending with the plan as $$ {"plan": "(action1)\\n(action2)..."} $$'


class PddlState(State):
    """A planning task before and after the one answer.

    Attributes:
        answer: The agent's whole answer once given, else None.
        check: The validation verdict once the answer is applied.
    """

    def __init__(self, game: PddlGame) -> None:
        super().__init__(game)
        self.answer: str | None = None
        self.check: Any = None

    def _current_players(self) -> list[int]:
        return [0]

    def _legal_actions(self, player: int) -> list[str]:
        return []

    def _open_ended(self, player: int) -> dict[str, str]:
        return {PLAN_ACTION: _PLAN_PROMPT}

    def _apply(self, actions: dict[int, Action]) -> None:
        assert isinstance(self.game, PddlGame)
        self.answer = actions[0].response
        self.check = self.game.check(self.answer)

    def _is_terminal(self) -> bool:
        return self.check is not None

    def _scores(self) -> list[float]:
        return [1.0 if self.check.valid else 0.0]

    def _terminal_reason(self) -> str:
        return "valid plan" if self.check.valid else self.check.reason

    def __str__(self) -> str:
        assert isinstance(self.game, PddlGame)
        return f"{self.game.variant}: {'unanswered' if self.check is None else self._terminal_reason()}"


class PddlGame(Game):
    """One planning task; without a variant, only the static facts (for collection).

    Args:
        variant: ``<domain>/<instance>``, resolved by :func:`stratbench.games.spin.planning.dataset.resolve`.
        prompt_style: ``e1`` (the paper's prompt) or ``code`` (the released code's).
        protocol: ``default`` (the lenient plan reader) or ``paper`` (the released code's reader).
        obfuscation: The renaming the model reads and answers in; None for the original names.
    """

    info = INFO
    rules = RULES
    supports_obfuscation = True

    def __init__(
        self, variant: str | None = None, *, prompt_style: str = "e1", protocol: str = "default",
        obfuscation: Obfuscation | None = None,
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown pddl protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
        self.variant = variant
        self.prompt_style = prompt_style
        self.protocol = protocol
        self.obfuscation = obfuscation
        self.instance = None if variant is None else dataset.resolve(variant)
        self._texts: tuple[str, str] | None = None
        self._renamed: RenamedTask | None = None
        self._shown: Any = None
        self._checks: dict[str, Any] = {}

    @property
    def original_texts(self) -> tuple[str, str]:
        """Returns the domain and problem PDDL texts as the dataset holds them."""
        if self.instance is None:
            raise HarnessError("the pddl game needs a variant (<domain>/<instance>)")
        if self._texts is None:
            self._texts = dataset.domain_problem(self.instance)
        return self._texts

    @property
    def renamed(self) -> RenamedTask | None:
        """Returns the task under the obfuscation's names (None without one).

        Raises:
            HarnessError: when the texts are not PDDL s-expressions (a dataset fault).
        """
        if self.obfuscation is None:
            return None
        if self._renamed is None:
            try:
                self._renamed = obfuscate_task(*self.original_texts, self.obfuscation, self.instance.domain)
            except ValueError as error:  # not one balanced s-expression: the reader refuses it too
                raise HarnessError(f"{self.variant}: cannot rename it: {error}") from None
        return self._renamed

    @property
    def texts(self) -> tuple[str, str]:
        """Returns the domain and problem PDDL texts the model reads (renamed under an obfuscation)."""
        renamed = self.renamed
        return self.original_texts if renamed is None else (renamed.domain, renamed.problem)

    def task(self) -> Any:
        """Returns the task as read: a ``ReadTask`` (normalised, parsed once per content).

        Under an obfuscation it is the original task with the names the model
        reads mapped to the original's (the same problem, the same validator).

        Raises:
            HarnessError: when unified-planning cannot read the task (a dataset fault).
        """
        from stratbench.games.spin.planning.reading import (  # lean: the reader loads at the first task
            PDDLReadError,
            ReadTask,
            read_task,
        )

        try:
            read = read_task(*self.original_texts)
        except PDDLReadError as error:
            raise HarnessError(f"{self.variant}: unified-planning cannot read it: {error.reason}") from None
        renamed = self.renamed
        if renamed is None:
            return read
        if self._shown is None or self._shown.problem is not read.problem:
            self._shown = ReadTask(read.problem, renamed.shown_names(read), read.changes, read.either_parameters)
        return self._shown

    def problem(self) -> Any:
        """Returns the task as a unified-planning ``Problem`` (in the normalised names)."""
        return self.task().problem

    @property
    def normalisation(self) -> tuple[str, ...]:
        """Returns the changes the reader made to the task so unified-planning reads it (empty when none)."""
        return self.task().changes

    def check(self, answer: str | None) -> Any:
        """Validates an answer in the names the model read (memoised per answer text); returns a ``PlanCheck``."""
        from stratbench.games.spin.planning.validation import (  # lean: the checker loads at the first answer
            check_answer,
            check_released_answer,
        )

        key = answer or ""
        if key not in self._checks:
            check = check_released_answer if self.protocol == "paper" else check_answer
            self._checks[key] = check(self.task(), answer)
        return self._checks[key]

    def new_initial_state(self, seed: int) -> PddlState:
        """Returns the unanswered task (the task is fixed by the variant, not the seed)."""
        self.texts  # noqa: B018 - fail early, before any agent is asked
        return PddlState(self)

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """After the answer: the plan read from it, step by step, with the validator's verdict on each step."""
        assert isinstance(state, PddlState)
        if state.check is None:
            return None
        check = state.check
        answer = state.answer or ""
        try:  # read as the verdict was: the released code's reader under the paper protocol
            read = parse_plan_text(released_plan(answer)) if self.protocol == "paper" else extract_plan(answer).steps
            steps = [render_plan([step]) for step in read]
        except (PlanParseError, ValueError):
            steps = []
        lines = []
        for number, step in enumerate(steps, start=1):
            if check.step is None or number < check.step:
                verdict = "applicable"
            elif number == check.step:
                verdict = "FAILS" + (f": unmet {', '.join(check.unmet)}" if check.unmet else "")
            else:
                verdict = "not reached"
            lines.append(f"{number:>3}. {step}   {verdict}")
        if not steps:
            lines.append("(no plan could be read)")
        summary = "valid: the goal is reached" if check.valid else f"invalid ({check.error_class}): {check.reason}"
        lines.append(summary)
        board = {"steps": steps, "check": check.to_dict(), "text": "\n".join(lines)}
        if self.renamed is not None:  # the plan mapped back, to set beside the original task's records
            back = self.renamed.original_steps(tuple(read)) if steps else ()
            board["original_steps"] = [render_plan([step]) for step in back]
        return board

    def role(self, player: int) -> str:
        """Returns ``"planner"``."""
        return "planner"

    def observe(self, state: State, player: int) -> Observation:
        """Returns the E.1 prompt with both PDDL texts, and the texts as data for programmatic agents."""
        assert isinstance(state, PddlState)
        domain, problem = self.texts
        paper = self.protocol == "paper"
        data = {"task": self.variant, "domain_pddl": domain, "problem_pddl": problem}
        if self.renamed is None:  # the files hold the original names
            data |= {"domain_path": str(self.instance.domain_path), "problem_path": str(self.instance.problem_path)}
        title = "Planning task" if self.renamed is not None else f"Planning task {self.variant}"
        return Observation(
            game=INFO.name,
            player=player,
            text=f"{title}.\n\nTask PDDL:\n{problem.strip()}",
            legal_actions=(),
            rules=RULES,
            open_ended=state.open_ended(player),
            role="planner",
            turn=state.turn,
            asking=Asking(
                instructions=_PLAN_PROMPT,
                prompt=planning_prompt(domain, problem, style=self.prompt_style),
                system_prompt=RELEASED_SYSTEM_PROMPT if paper else None,
                answer_parser=PAPER_READER if paper else "",
            ),
            data=data,
        )


def pddl_game(
    variant: str | None = None, *, protocol: str = "default", obfuscation: Obfuscation | None = None
) -> PddlGame:
    """Builds the ``pddl`` game for one variant (the registered factory); ``obfuscation`` renames what the model
    reads and writes (None: the original names)."""
    return PddlGame(variant, protocol=protocol, obfuscation=obfuscation)


pddl_game.supports_obfuscation = True  # type: ignore[attr-defined]  # the factory says it as the class does
