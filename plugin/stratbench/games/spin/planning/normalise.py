"""Normalising PDDL that VAL accepts into PDDL unified-planning's reader accepts.

unified-planning's reader refuses several constructs that the International
Planning Competition's validator (VAL) accepts. :func:`normalise` rewrites
a domain and problem, parsed as s-expressions (:mod:`stratbench.games.spin.planning.sexpr`),
into an equivalent pair it reads, and reports every change:

* **names** it rejects (a dot, a slash, a leading digit...; its names are
  ``[a-z][a-z0-9_-]*``) are renamed consistently, to a name no other
  declaration uses;
* **names declared twice** in different roles are told apart: a function
  sharing a predicate's name, a predicate or function sharing an object's
  name (the reader would take the object for the fluent), a type sharing an
  object's name; the objects and actions keep their names;
* **a type declared a subtype of itself** loses that declaration;
* **``(either t1 ... tn)``** in a parameter, a quantified variable, a
  predicate's or a function's argument becomes the types' nearest common
  supertype; where that supertype has objects outside ``t1 ... tn``, a
  membership predicate true of exactly the members (given in the initial
  state) guards the action or the quantified formula, so the set of valid
  plans does not change;
* **an initial value of a function the domain never declares** is dropped
  (nothing can read it);
* **sections out of the reader's order** (``:constants`` before ``:types``...)
  are put in its order;
* **derived predicates** (``:derived``, which the reader does not know) are
  compiled away: each use in a precondition, a goal, an effect's condition
  or another derived predicate's body is replaced by the definition, its
  parameters bound to the use's arguments and its quantified variables
  renamed apart (several rules for one predicate are its disjunction). The
  set of valid plans does not change, since a derived predicate's value in
  a state is its definition's. One an action's effect or the initial state
  sets is refused, named (PDDL forbids both). Arguments are assumed to fit
  the derived predicate's declared types, as in a well-typed domain;
* **recursive derived predicates** (defined through themselves, directly or
  through others) have no finite substitution: substituting their rules
  as often as the least fixpoint may need (once per ground atom) grows the
  formula, and its grounding, exponentially. In a task with one, every
  derived predicate stays a predicate of the task, which no action sets,
  and their rules come back in :attr:`Normalised.derived_rules` (in the
  reader's names): the validator and the simulators value them in each
  state as VAL does, as the least fixpoint of their rules
  (:mod:`stratbench.games.spin.planning.derivation`), and messages name
  them as the task does. One negated within its own recursion (not
  stratified, as PDDL requires) is refused, named;
* **an object the domain names but only the problem declares**
  (``(have wrench)`` in a domain, ``wrench - tool`` in each problem's
  ``:objects``) is promoted to a constant of the domain, with its type, as
  common planners read it; the reader would not know the name in the domain;
* **a parameter name repeated in a predicate's or function's declaration**
  (``(in ?obj ?obj)``: the names mean nothing there) is renamed apart
  (``?obj``, ``?obj-2``); a repeated name in an action's parameters, a
  quantifier or a derived predicate's head would change what the
  construct means, and is refused, named.

:class:`NameMap` maps every renamed name back: the model sees, writes and
is told about the original names. A task that cannot be repaired raises
:class:`UnrepairableTask` naming the construct. A task needing no change
comes back with its texts untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from stratbench.games.spin.planning.sexpr import SExpr, SExprError, parse, render

__all__ = ["NameMap", "Normalised", "UnrepairableTask", "normalise"]

_LEGAL = re.compile(r"[a-z][a-z0-9_-]*\Z")
_ILLEGAL_CHARACTER = re.compile(r"[^a-z0-9_-]")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?\Z|[-+]?\.\d+\Z")
# Words the reader treats as operators at the head of an expression: a predicate or function of that name
# would be read as the operator.
_RESERVED = frozenset({
    "and", "or", "not", "imply", "exists", "forall", "when", "either", "always", "sometime", "sometime-before",
    "sometime-after", "at-most-once", "increase", "decrease", "assign", "scale-up", "scale-down",
})
_CONDITION_OPERATORS = frozenset({"and", "or", "not", "imply"})
_COMPARISONS = frozenset({"<", ">", "<=", ">=", "="})
_ARITHMETIC = frozenset({"+", "-", "*", "/"})
_NUMERIC_EFFECTS = frozenset({"assign", "increase", "decrease", "scale-up", "scale-down"})
# Heads of goal or constraint expressions that are not predicates (left for the reader to accept or name).
_NOT_PREDICATES = frozenset({
    "preference", "at", "over", "always", "sometime", "within", "at-most-once", "sometime-after", "sometime-before",
    "always-within", "hold-during", "hold-after",
})
_DOMAIN_ORDER = (":requirements", ":types", ":constants", ":predicates", ":functions")
_ACTION_SECTIONS = frozenset({":action", ":durative-action", ":process", ":event", ":derived"})
_EXAMPLES = 4
_ROLES = ("type", "object", "predicate", "function", "action")


class UnrepairableTask(ValueError):
    """Raised for a task the normaliser cannot turn into one unified-planning reads.

    Attributes:
        reason: One line naming the construct.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class NameMap:
    """The names the normaliser changed, per role (``type``, ``object``, ``predicate``, ``function``, ``action``;
    an obfuscated task's map, :meth:`stratbench.games.spin.planning.obfuscate.RenamedTask.shown_names`, also has
    ``variable``).

    Attributes:
        renamed: ``{role: {original: internal}}`` for the renamed names only (lower-case).
    """

    renamed: dict[str, dict[str, str]] = field(default_factory=dict)

    def internal(self, role: str, name: str) -> str | None:
        """Returns the name unified-planning knows for an original name, or None if that name was renamed away.

        An original name maps to itself unless it was renamed; a renamed
        name's new spelling is not an original name, so it maps to None.
        """
        renamed = self.renamed.get(role, {})
        if name in renamed:
            return renamed[name]
        return None if name in self._new_names(role) else name

    def original(self, role: str, name: str) -> str:
        """Returns the original spelling of a name unified-planning knows (itself when not renamed)."""
        return self._back(role).get(name, name)

    def original_fluent(self, name: str) -> str:
        """Returns the original name of a predicate or function."""
        back = self._back("predicate")
        return back[name] if name in back else self.original("function", name)

    def __bool__(self) -> bool:
        return any(self.renamed.values())

    def _back(self, role: str) -> dict[str, str]:
        return {new: old for old, new in self.renamed.get(role, {}).items()}

    def _new_names(self, role: str) -> set[str]:
        renamed = self.renamed.get(role, {})
        return set(renamed.values()) - set(renamed)


@dataclass(frozen=True)
class Normalised:
    """A task rewritten for unified-planning.

    Attributes:
        domain: The domain text to parse (the original text when nothing changed).
        problem: The problem text to parse (likewise).
        names: The renamed names, to map back.
        changes: One line per change made, in order; empty when none.
        either_parameters: ``{action: (None or the member types, per parameter)}`` (internal names) for actions
            with ``either``-typed parameters, to check an argument's type as the original task does.
        derived_rules: In a task with recursive derived predicates, the rules of every derived predicate, one
            ``(:derived (name ?x - type) body)`` each, in internal names; empty otherwise.
    """

    domain: str
    problem: str
    names: NameMap = field(default_factory=NameMap)
    changes: tuple[str, ...] = ()
    either_parameters: dict[str, tuple[tuple[str, ...] | None, ...]] = field(default_factory=dict)
    derived_rules: tuple[str, ...] = ()


def normalise(domain_text: str, problem_text: str) -> Normalised:
    """Rewrites a domain and a problem into PDDL unified-planning reads, with the changes made.

    Raises:
        UnrepairableTask: for text that is not PDDL, or a construct with no equivalent it reads.
    """
    try:
        domain_tree = parse(domain_text, "domain")
        problem_tree = parse(problem_text, "problem")
    except SExprError as error:
        raise UnrepairableTask(str(error)) from None
    rewriter = _Rewriter(domain_tree, problem_tree)
    rewriter.run()
    if not rewriter.changes:
        return Normalised(domain_text, problem_text)
    return Normalised(
        render(rewriter.domain_out),
        render(rewriter.problem_out),
        NameMap({role: dict(names) for role, names in rewriter.rename.items() if names}),
        tuple(rewriter.changes),
        dict(rewriter.either_parameters),
        tuple(rewriter.derived_rules),
    )


def _sections(tree: list[SExpr], header: str, what: str) -> tuple[str, list[list[SExpr]]]:
    """Returns the name in ``(define (<header> name) ...)`` and the sections after it."""
    if len(tree) < 2 or tree[0] != "define" or not isinstance(tree[1], list) or len(tree[1]) != 2 \
            or tree[1][0] != header or not isinstance(tree[1][1], str):
        raise UnrepairableTask(f"the {what} does not start with (define ({header} <name>) ...)")
    sections = []
    for part in tree[2:]:
        if not isinstance(part, list) or not part or not isinstance(part[0], str) or not part[0].startswith(":"):
            raise UnrepairableTask(f"the {what} has a part that is not a (:section ...): {_short(part)}")
        sections.append(part)
    return tree[1][1], sections


def _typed(items: list[SExpr], where: str) -> list[tuple[str, SExpr | None]]:
    """Reads a typed list ``a b - t c - (either u v) d`` into ``(name, type or None)`` pairs."""
    pairs: list[tuple[str, SExpr | None]] = []
    pending: list[str] = []
    index = 0
    while index < len(items):
        item = items[index]
        if item == "-":
            if index + 1 >= len(items) or not pending:
                raise UnrepairableTask(f"a malformed typed list in {where}: {_short(items)}")
            kind = items[index + 1]
            pairs.extend((name, kind) for name in pending)
            pending = []
            index += 2
            continue
        if not isinstance(item, str):
            raise UnrepairableTask(f"a malformed typed list in {where}: {_short(items)}")
        pending.append(item)
        index += 1
    pairs.extend((name, None) for name in pending)
    return pairs


def _is_either(kind: SExpr | None) -> bool:
    return isinstance(kind, list) and len(kind) >= 2 and kind[0] == "either" and all(isinstance(k, str) for k in kind)


def _short(part: SExpr, limit: int = 60) -> str:
    text = render(part) if isinstance(part, list) else part
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Rewriter:
    """Collects a task's declarations, decides the renames, and rewrites both trees."""

    def __init__(self, domain_tree: list[SExpr], problem_tree: list[SExpr]) -> None:
        self.domain_name, self.domain_sections = _sections(domain_tree, "domain", "domain")
        self.problem_name, self.problem_sections = _sections(problem_tree, "problem", "problem")
        self.domain_name_out = self.domain_name
        self.problem_name_out = self.problem_name
        self.changes: list[str] = []
        self.rename: dict[str, dict[str, str]] = {role: {} for role in _ROLES}
        self.either_parameters: dict[str, tuple[tuple[str, ...] | None, ...]] = {}
        self.parents: dict[str, str | None] = {}
        self.type_order: list[str] = []
        self.objects: dict[str, str | None] = {}
        self.constants: set[str] = set()
        self.predicates: set[str] = set()
        self.functions: set[str] = set()
        self.actions: set[str] = set()
        self.memberships: dict[tuple[str, ...], str] = {}
        self.derived: dict[str, list[tuple[list[str], SExpr]]] = {}
        self.kept: dict[str, list[tuple[list[tuple[str, SExpr | None]], SExpr]]] = {}
        self.recursion_groups: dict[str, set[str]] = {}
        self.derived_rules: list[str] = []
        self.promoted: dict[str, SExpr | None] = {}
        self.rewriting_domain = False
        self.variables: set[str] = _variables(domain_tree) | _variables(problem_tree)
        self.domain_out: list[SExpr] = []
        self.problem_out: list[SExpr] = []

    # -- declarations ---------------------------------------------------------------------------------------

    def run(self) -> None:
        self._read_types()
        self._read_objects()
        self._read_fluents_and_actions()
        self._read_derived()
        self._decide_renames()
        self._rewrite()

    def _domain_section(self, name: str) -> list[SExpr] | None:
        return next((s for s in self.domain_sections if s[0] == name), None)

    def _problem_section(self, name: str) -> list[SExpr] | None:
        return next((s for s in self.problem_sections if s[0] == name), None)

    def _read_types(self) -> None:
        section = self._domain_section(":types")
        for name, parent in _typed(section[1:], "the domain's :types") if section else []:
            if isinstance(parent, list):
                raise UnrepairableTask(
                    f"a type declared as a subtype of an 'either' type ('{name} - {_short(parent)}')"
                )
            if name == parent:
                self.changes.append(f"type '{name}' was declared a subtype of itself: that declaration is dropped")
                parent = None
            if name not in self.parents:
                self.type_order.append(name)
                self.parents[name] = parent
            elif self.parents[name] is None:
                self.parents[name] = parent
        for parent in list(self.parents.values()):
            if parent is not None and parent != "object" and parent not in self.parents:
                self.parents[parent] = None
                self.type_order.append(parent)

    def _read_objects(self) -> None:
        constants = self._domain_section(":constants")
        objects = self._problem_section(":objects")
        declared: dict[str, SExpr | None] = {}
        for where, section in (("the domain's :constants", constants), ("the problem's :objects", objects)):
            for name, kind in _typed(section[1:], where) if section else []:
                if isinstance(kind, list):
                    raise UnrepairableTask(f"an object declared with an 'either' type ('{name} - {_short(kind)}')")
                if name in declared:
                    if declared[name] != kind:
                        raise UnrepairableTask(
                            f"an object declared twice with different types ('{name}': {declared[name] or 'object'} "
                            f"and {kind or 'object'})"
                        )
                    self.changes.append(f"object '{name}' is declared twice: the problem's declaration is dropped")
                    continue
                declared[name] = kind
                if section is constants:
                    self.constants.add(name)
        self.objects = {name: kind for name, kind in declared.items() if isinstance(kind, str) or kind is None}

    def _read_fluents_and_actions(self) -> None:
        predicates = self._domain_section(":predicates")
        for signature in predicates[1:] if predicates else []:
            if isinstance(signature, list) and signature and isinstance(signature[0], str):
                self.predicates.add(signature[0])
        functions = self._domain_section(":functions")
        for signature in functions[1:] if functions else []:
            if isinstance(signature, list) and signature and isinstance(signature[0], str):
                self.functions.add(signature[0])
        for section in self.domain_sections:
            if section[0] in _ACTION_SECTIONS and len(section) > 1 and isinstance(section[1], str):
                self.actions.add(section[1])

    def _read_derived(self) -> None:
        """Reads the ``(:derived (name ?params) body)`` rules: substituted, or kept when one is recursive."""
        arities: dict[str, int] = {}
        for section in self.domain_sections:
            if section[0] != ":derived":
                continue
            if len(section) != 3 or not isinstance(section[1], list) or not section[1] \
                    or not isinstance(section[1][0], str):
                raise UnrepairableTask(f"a malformed derived predicate (not (:derived (name ?x...) body)): "
                                       f"{_short(section)}")
            name = section[1][0]
            parameters = _typed(section[1][1:], f"the derived predicate {name!r}")
            repeated = _repeated(parameters)
            if repeated is not None:
                raise UnrepairableTask(f"a derived predicate declaring a parameter twice ('{repeated}' in '{name}')")
            if arities.setdefault(name, len(parameters)) != len(parameters):
                raise UnrepairableTask(
                    f"a derived predicate defined with {arities[name]} and {len(parameters)} parameters ('{name}')"
                )
            self.derived.setdefault(name, []).append(([variable for variable, _ in parameters], section[2]))
            self.kept.setdefault(name, []).append((parameters, section[2]))
            self.predicates.add(name)
        if not self.derived:
            return
        uses = {name: {head for _, body in rules for head in _heads(body) if head in self.derived}
                for name, rules in self.derived.items()}
        reached = {name: reached_from(name, uses) for name in self.derived}
        recursive = sorted(name for name in self.derived if name in reached[name])
        names = sorted(self.derived)
        if not recursive:
            self.kept = {}
            self.changes.append(
                f"compiled away {len(names)} derived predicate{'s' if len(names) > 1 else ''} "
                f"({', '.join(repr(n) for n in names)}): each use is replaced by its definition"
            )
            return
        self.recursion_groups = {name: {other for other in reached[name] if name in reached[other]} | {name}
                                 for name in names}
        self.derived = {}
        listed = ", ".join(repr(n) for n in recursive[:-1]) + " and " * (len(recursive) > 1) + repr(recursive[-1])
        self.changes.append(
            f"kept {len(names)} derived predicate{'s' if len(names) > 1 else ''} ({', '.join(repr(n) for n in names)}) "
            f"as predicates, since {listed} {'are' if len(recursive) > 1 else 'is'} recursive: their value in each "
            "state is the least fixpoint of their rules, as VAL computes it"
        )

    def _expanded(self, node: list[SExpr]) -> SExpr:
        """Returns a derived predicate's use replaced by its definition (a disjunction for several rules)."""
        name, arguments = str(node[0]), node[1:]
        bodies = []
        for parameters, body in self.derived[name]:
            if len(arguments) != len(parameters):
                raise UnrepairableTask(
                    f"the derived predicate '{name}' used with {len(arguments)} arguments, declared with "
                    f"{len(parameters)} ({_short(node, 40)})"
                )
            bodies.append(self._substituted(body, dict(zip(parameters, arguments))))
        return bodies[0] if len(bodies) == 1 else ["or", *bodies]

    def _substituted(self, node: SExpr, binding: dict[str, SExpr]) -> SExpr:
        """Returns ``node`` with its free variables bound per ``binding``, its quantified ones renamed apart."""
        if isinstance(node, str):
            return binding.get(node, node)
        if len(node) == 3 and node[0] in ("exists", "forall") and isinstance(node[1], list):
            renamed = dict(binding)
            for item in node[1]:
                if isinstance(item, str) and item.startswith("?"):
                    fresh = _fresh(item, self.variables)
                    self.variables.add(fresh)
                    renamed[item] = fresh
            declared = [renamed.get(item, item) if isinstance(item, str) else item for item in node[1]]
            return [node[0], declared, self._substituted(node[2], renamed)]
        return [self._substituted(part, binding) for part in node]

    # -- renames ----------------------------------------------------------------------------------------------

    def _decide_renames(self) -> None:
        taken = set(self.parents) | set(self.objects) | self.predicates | self.functions | self.actions
        taken |= {self.domain_name, self.problem_name, "object", "number"}
        declared = {
            "type": list(self.type_order),
            "object": list(self.objects),
            "predicate": sorted(self.predicates),
            "function": sorted(self.functions),
            "action": sorted(self.actions),
        }
        clashes: dict[str, list[tuple[str, str]]] = {}
        for role, names in declared.items():
            for name in names:
                internal = self._disambiguated(role, name)
                reason = "clash"
                if internal == name:
                    reason = "illegal"
                    if _LEGAL.match(name) and not (role in ("predicate", "function") and name in _RESERVED):
                        continue
                internal = _fresh(_legal(internal), taken)
                taken.add(internal)
                self.rename[role][name] = internal
                clashes.setdefault(f"{role}:{reason}", []).append((name, internal))
        for key, pairs in clashes.items():
            role, reason = key.split(":")
            listed = ", ".join(f"'{old}' -> '{new}'" for old, new in pairs[:_EXAMPLES])
            more = f" and {len(pairs) - _EXAMPLES} more" if len(pairs) > _EXAMPLES else ""
            plural = "s" if len(pairs) > 1 else ""
            if reason == "clash":
                why = "its name is declared in another role too"
            elif role in ("predicate", "function") and any(old in _RESERVED for old, _ in pairs):
                why = "a name unified-planning reads as an operator, or characters it rejects"
            else:
                why = "characters unified-planning's names do not allow"
            self.changes.append(f"renamed {len(pairs)} {role}{plural} ({why}): {listed}{more}")
        for what, name in (("domain", self.domain_name), ("problem", self.problem_name)):
            if not _LEGAL.match(name):
                new = _fresh(_legal(name), taken)
                taken.add(new)
                self.changes.append(f"renamed the {what} '{name}' -> '{new}' (characters unified-planning rejects)")
                if what == "domain":
                    self.domain_name_out = new
                else:
                    self.problem_name_out = new

    def _disambiguated(self, role: str, name: str) -> str:
        """Returns ``name`` with a role suffix when another role's declaration uses it, else ``name``."""
        if role == "function" and name in self.predicates:
            return f"{name}-fn"
        if role in ("predicate", "function") and name in self.objects:
            return f"{name}-{'pred' if role == 'predicate' else 'fn'}"
        if role == "type" and name in self.objects:
            return f"{name}-type"
        return name

    # -- rewriting --------------------------------------------------------------------------------------------

    def _rewrite(self) -> None:
        domain_name, problem_name = self.domain_name_out, self.problem_name_out
        actions: list[SExpr] = []
        sections: dict[str, list[SExpr]] = {}
        original_order = [s[0] for s in self.domain_sections if s[0] in _DOMAIN_ORDER]
        self.rewriting_domain = True
        for section in self.domain_sections:
            head = section[0]
            if head == ":types":
                sections[head] = [head, *self._typed_out(self._type_pairs(), "type")]
            elif head == ":constants":
                constants = [(n, k) for n, k in _typed(section[1:], "") if isinstance(k, str) or k is None]
                sections[head] = [head, *self._typed_out(constants, "object")]
            elif head == ":predicates":
                declared = [s for s in section[1:] if not (isinstance(s, list) and s and s[0] in self.derived)]
                sections[head] = [head, *(self._signature(s, "predicate") for s in declared)]
            elif head == ":derived":
                continue
            elif head == ":requirements":  # the reader refuses the derived predicates' requirement
                sections[head] = [part for part in section if part != ":derived-predicates"]
            elif head == ":functions":
                sections[head] = [head, *self._functions(section[1:])]
            elif head in (":action", ":process", ":event"):
                actions.append(self._action(section))
            elif head in _DOMAIN_ORDER:
                sections[head] = section
            else:
                actions.append(self._generic(section))
        self._write_kept_rules(sections)
        self.rewriting_domain = False
        self._write_promoted(sections)
        problem_out: list[SExpr] = ["define", ["problem", problem_name]]
        init: list[SExpr] | None = None
        for section in self.problem_sections:
            head = section[0]
            if head == ":domain":
                problem_out.append([":domain", domain_name])
            elif head == ":objects":
                pairs = [(n, k) for n, k in _typed(section[1:], "") if n not in self.constants]
                problem_out.append([head, *self._typed_out(pairs, "object")])
            elif head == ":init":
                init = [head, *self._init(section[1:])]
                problem_out.append(init)
            elif head == ":goal":
                problem_out.append([head, *(self._condition(part) for part in section[1:])])
            elif head == ":metric":
                problem_out.append([head, *(self._numeric(p) if isinstance(p, list) else p for p in section[1:])])
            else:
                problem_out.append(self._generic(section))
        if self.memberships:
            predicates = sections.setdefault(":predicates", [":predicates"])
            predicates.extend([name, "?x"] for name in self.memberships.values())
            if init is None:
                init = [":init"]
                problem_out.append(init)
            init.extend(self._membership_facts())
        ordered = [sections[h] for h in _DOMAIN_ORDER if h in sections]
        if [s[0] for s in ordered if s[0] in original_order] != original_order:
            self.changes.append(
                "put the domain's sections in the order unified-planning reads them "
                f"({', '.join(s[0] for s in ordered)})"
            )
        self.domain_out = ["define", ["domain", domain_name], *ordered, *actions]
        self.problem_out = problem_out

    def _write_kept_rules(self, sections: dict[str, list[SExpr]]) -> None:
        """Writes the kept derived predicates' rules in internal names, and declares any undeclared one."""
        if not self.kept:
            return
        declared = {s[0] for s in self._domain_section(":predicates") or [] if isinstance(s, list) and s}
        for name in sorted(self.kept):
            rules = self.kept[name]
            if name not in declared:
                sections.setdefault(":predicates", [":predicates"]).append(
                    [self._name("predicate", name), *self._typed_out(rules[0][0], "variable")]
                )
            for parameters, body in rules:
                guards = [g for v, k in parameters if (g := self._either_guard(v, k)) is not None]
                condition = self._condition(body)
                if guards:
                    condition = ["and", *guards, condition]
                self._check_fixpoint(name, condition)
                head = [self._name("predicate", name), *self._typed_out(parameters, "variable")]
                self.derived_rules.append(render([":derived", head, condition]))

    def _check_fixpoint(self, name: str, condition: SExpr) -> None:
        """Refuses a rule negating its own recursion: it has no least fixpoint (PDDL requires stratification)."""
        group = {self._name("predicate", other): other for other in self.recursion_groups[name]}

        def walk(node: SExpr, positive: bool) -> None:
            if not isinstance(node, list) or not node:
                return
            head = node[0]
            if head == "not":
                for part in node[1:]:
                    walk(part, not positive)
            elif head == "imply" and len(node) == 3:
                walk(node[1], not positive)
                walk(node[2], positive)
            elif head in ("and", "or"):
                for part in node[1:]:
                    walk(part, positive)
            elif head in ("exists", "forall") and len(node) == 3:
                walk(node[2], positive)
            elif head in group and not positive:
                raise UnrepairableTask(
                    f"a recursive derived predicate negated in its own recursion ('{group[head]}' in '{name}'): "
                    "PDDL requires derived predicates to be stratified"
                )

        walk(condition, True)

    def _write_promoted(self, sections: dict[str, list[SExpr]]) -> None:
        """Declares the problem's objects the domain names as constants of the domain, and says so."""
        if not self.promoted:
            return
        section = self._domain_section(":constants")
        constants = [(n, k) for n, k in _typed(section[1:], "") if isinstance(k, str) or k is None] if section else []
        sections[":constants"] = [":constants", *self._typed_out([*constants, *self.promoted.items()], "object")]
        names = sorted(self.promoted)
        one = len(names) == 1
        self.changes.append(
            f"promoted {len(names)} object{'' if one else 's'} the domain names but only the problem "
            f"declares to {'a constant' if one else 'constants'} of the domain (as common planners read "
            f"{'it' if one else 'them'}): " + ", ".join(f"'{n}' - {self.promoted[n] or 'object'}" for n in names)
        )

    def _type_pairs(self) -> list[tuple[str, SExpr | None]]:
        return [(name, self.parents[name]) for name in self.type_order]

    def _typed_out(self, pairs: Iterable[tuple[str, SExpr | None]], role: str) -> list[SExpr]:
        out: list[SExpr] = []
        untyped: list[SExpr] = []
        for name, kind in pairs:
            written = self._name(role, name) if role != "variable" else _variable(name)
            if kind is None:
                untyped.append(written)
                continue
            if untyped:  # an untyped name before a typed one would take that type: say 'object'
                out.extend([*untyped, "-", "object"])
                untyped = []
            out.extend([written, "-", self._type(kind)])
        return [*out, *untyped]

    def _type(self, kind: SExpr) -> SExpr:
        if isinstance(kind, str):
            return self._name("type", kind)
        if _is_either(kind):
            return self._name("type", self._common_supertype(kind[1:]))
        return kind

    def _name(self, role: str, name: str) -> str:
        return self.rename[role].get(name, name)

    def _signature(self, signature: SExpr, role: str) -> SExpr:
        if not isinstance(signature, list) or not signature or not isinstance(signature[0], str):
            return signature
        parameters = _typed(signature[1:], f"the {role} {signature[0]!r}")
        if _repeated(parameters) is not None:
            parameters = self._renamed_apart(parameters, role, signature[0])
        for _, kind in parameters:
            if _is_either(kind):
                self.changes.append(
                    f"the {role} '{signature[0]}' has an argument of type {_short(kind)}: "
                    f"typed as their common supertype '{self._common_supertype(kind[1:])}'"
                )
        return [self._name(role, signature[0]), *self._typed_out(parameters, "variable")]

    def _renamed_apart(
        self, parameters: list[tuple[str, SExpr | None]], role: str, name: str
    ) -> list[tuple[str, SExpr | None]]:
        """Returns a declaration's parameters with each repeated name renamed to one no parameter of it uses."""
        taken = {variable for variable, _ in parameters}
        seen: set[str] = set()
        out = []
        for variable, kind in parameters:
            if variable in seen:
                fresh = _fresh(variable, taken)
                taken.add(fresh)
                out.append((fresh, kind))
            else:
                seen.add(variable)
                out.append((variable, kind))
        listed = " ".join(variable for variable, _ in out)
        self.changes.append(
            f"the {role} '{name}' declares a parameter name more than once (names mean nothing there): "
            f"renamed apart as ({name} {listed})"
        )
        return out

    def _functions(self, items: list[SExpr]) -> list[SExpr]:
        out: list[SExpr] = []
        for item in items:
            out.append(self._signature(item, "function") if isinstance(item, list) else item)
        return out

    def _action(self, section: list[SExpr]) -> SExpr:
        out: list[SExpr] = [section[0], self._name("action", section[1]) if isinstance(section[1], str) else section[1]]
        guards: list[SExpr] = []
        members: list[tuple[str, ...] | None] = []
        index = 2
        while index < len(section):
            key = section[index]
            value = section[index + 1] if index + 1 < len(section) else None
            index += 2
            if key == ":parameters" and isinstance(value, list):
                parameters = _typed(value, f"the parameters of '{section[1]}'")
                repeated = _repeated(parameters)
                if repeated is not None:
                    raise UnrepairableTask(f"an action declaring a parameter twice ('{repeated}' in '{section[1]}')")
                for variable, kind in parameters:
                    guard = self._either_guard(variable, kind)
                    if guard is not None:
                        guards.append(guard)
                    members.append(tuple(kind[1:]) if _is_either(kind) else None)
                    if _is_either(kind):
                        self.changes.append(
                            f"parameter {variable} of '{section[1]}' has type {_short(kind)}: typed as their common "
                            f"supertype '{self._common_supertype(kind[1:])}'"
                            + (" with a membership precondition" if guard is not None else "")
                        )
                out.extend([key, self._typed_out(parameters, "variable")])
            elif key == ":precondition" and value is not None:
                out.extend([key, value])
            elif key == ":effect" and value is not None:
                out.extend([key, self._effect(value)])
            else:
                out.extend([key] if value is None else [key, self._generic(value)])
        if any(m is not None for m in members):
            name = self._name("action", section[1])
            self.either_parameters[name] = tuple(
                None if m is None else tuple(self._name("type", t) for t in m) for m in members
            )
        if ":precondition" in out or guards:
            position = out.index(":precondition") + 1 if ":precondition" in out else None
            condition = self._condition(out[position]) if position is not None else None
            parts = [*guards, *([condition] if condition not in (None, []) else [])]
            merged: SExpr = parts[0] if len(parts) == 1 else ["and", *parts] if parts else []
            if position is None:
                effect_at = out.index(":effect") if ":effect" in out else len(out)
                out[effect_at:effect_at] = [":precondition", merged]
            else:
                out[position] = merged
        return out

    # -- either types -----------------------------------------------------------------------------------------

    def _ancestors(self, kind: str) -> list[str]:
        chain = [kind]
        while (parent := self.parents.get(chain[-1])) is not None and parent not in chain:
            chain.append(parent)
        return chain if chain[-1] == "object" else [*chain, "object"]

    def _common_supertype(self, members: list[SExpr]) -> str:
        chains = [self._ancestors(str(m)) for m in members]
        shared = set(chains[0]).intersection(*chains[1:])
        return next(t for t in chains[0] if t in shared)

    def _is_member(self, kind: str | None, members: tuple[str, ...]) -> bool:
        return any(m in self._ancestors(kind or "object") for m in members)

    def _either_guard(self, variable: str, kind: SExpr | None) -> SExpr | None:
        """Returns the membership atom guarding an ``either``-typed variable, or None when its supertype is exact."""
        if not _is_either(kind):
            return None
        members = tuple(str(k) for k in kind[1:])
        supertype = self._common_supertype(list(members))
        outside = [o for o, k in self.objects.items() if self._is_member(k, (supertype,))
                   and not self._is_member(k, members)]
        if not outside:
            return None
        if members not in self.memberships:
            taken = set(self.parents) | set(self.objects) | self.predicates | self.functions | self.actions
            taken |= set(self.memberships.values()) | {n for names in self.rename.values() for n in names.values()}
            self.memberships[members] = _fresh("either-" + "-".join(_legal(m) for m in members), taken)
        return [self.memberships[members], _variable(variable)]

    def _membership_facts(self) -> list[SExpr]:
        facts: list[SExpr] = []
        for members, predicate in self.memberships.items():
            facts.extend(
                [predicate, self._name("object", o)] for o, k in self.objects.items() if self._is_member(k, members)
            )
        return facts

    # -- formulas ---------------------------------------------------------------------------------------------

    def _condition(self, node: SExpr) -> SExpr:
        if not isinstance(node, list) or not node:
            return node
        head = node[0]
        if head in _CONDITION_OPERATORS:
            return [head, *(self._condition(part) for part in node[1:])]
        if head in ("exists", "forall") and len(node) == 3 and isinstance(node[1], list):
            variables = _quantified(node)
            guards = [g for v, k in variables if (g := self._either_guard(v, k)) is not None]
            body = self._condition(node[2])
            if guards:
                guard = guards[0] if len(guards) == 1 else ["and", *guards]
                body = ["and", guard, body] if head == "exists" else ["imply", guard, body]
            self._note_either(variables, node)
            return [head, self._typed_out(variables, "variable"), body]
        if head in _COMPARISONS:
            return [head, *(self._numeric(part) for part in node[1:])]
        if isinstance(head, str) and (head not in _NOT_PREDICATES or self._declared_atom(node)):
            if head in self.derived:
                return self._condition(self._expanded(node))
            if head not in self.predicates and head not in self.functions:
                raise UnrepairableTask(f"an undeclared predicate ('{head}' in {_short(node, 40)})")
            return [self._fluent(head), *(self._term(part) for part in node[1:])]
        return self._generic(node)

    def _declared_atom(self, node: list[SExpr]) -> bool:
        """Tells whether a node headed by a PDDL keyword (``at``...) is an atom of a declared predicate or function.

        Classical domains often declare ``(at ?x ?l)``; only ``(at start ...)``, ``(at end ...)`` and a timed
        ``(at 10 ...)`` are the keyword.
        """
        head = node[0]
        if head not in self.predicates and head not in self.functions:
            return False
        timed = head == "at" and len(node) >= 2 and isinstance(node[1], str) \
            and (node[1] in ("start", "end") or bool(_NUMBER.match(node[1])))
        return not timed

    def _effect(self, node: SExpr) -> SExpr:
        if not isinstance(node, list) or not node:
            return node
        head = node[0]
        literal = node[1] if head == "not" and len(node) == 2 else node
        if isinstance(literal, list) and literal and (literal[0] in self.derived or literal[0] in self.kept):
            raise UnrepairableTask(f"a derived predicate set by an action's effect ('{literal[0]}'): PDDL derives "
                                   "it from its definition only")
        if head == "and":
            return ["and", *(self._effect(part) for part in node[1:])]
        if head == "not" and len(node) == 2:
            return ["not", self._condition(node[1])]
        if head == "when" and len(node) == 3:
            return ["when", self._condition(node[1]), self._effect(node[2])]
        if head == "forall" and len(node) == 3 and isinstance(node[1], list):
            variables = _quantified(node)
            guards = [g for v, k in variables if (g := self._either_guard(v, k)) is not None]
            body = self._effect(node[2])
            if guards:
                body = ["when", guards[0] if len(guards) == 1 else ["and", *guards], body]
            self._note_either(variables, node)
            return ["forall", self._typed_out(variables, "variable"), body]
        if head in _NUMERIC_EFFECTS:
            return [head, *(self._numeric(part) for part in node[1:])]
        return self._condition(node)

    def _note_either(self, variables: list[tuple[str, SExpr | None]], node: SExpr) -> None:
        for variable, kind in variables:
            if _is_either(kind):
                self.changes.append(
                    f"quantified {variable} of type {_short(kind)} in {_short(node, 40)}: typed as their common "
                    f"supertype '{self._common_supertype(kind[1:])}'"
                )

    def _numeric(self, node: SExpr) -> SExpr:
        if isinstance(node, str):
            if node.startswith("?") or _NUMBER.match(node):
                return _variable(node) if node.startswith("?") else node
            return self._name("function", node) if node in self.functions else self._term(node)
        if not node:
            return node
        head = node[0]
        if head in _ARITHMETIC:
            return [head, *(self._numeric(part) for part in node[1:])]
        if isinstance(head, str) and head in self.functions:
            return [self._name("function", head), *(self._term(part) for part in node[1:])]
        if isinstance(head, str):
            return [self._fluent(head), *(self._term(part) for part in node[1:])]
        return self._generic(node)

    def _fluent(self, name: str) -> str:
        if name in self.predicates:
            return self._name("predicate", name)
        return self._name("function", name)

    def _term(self, node: SExpr) -> SExpr:
        if isinstance(node, str):
            if node.startswith("?"):
                return _variable(node)
            if node not in self.objects and not _NUMBER.match(node):
                raise UnrepairableTask(f"an undeclared object or constant ('{node}')")
            if self.rewriting_domain and node in self.objects and node not in self.constants:
                self.promoted[node] = self.objects[node]
                self.constants.add(node)
            return self._name("object", node)
        return self._numeric(node)

    def _init(self, facts: list[SExpr]) -> list[SExpr]:
        out: list[SExpr] = []
        dropped: list[tuple[str, str]] = []
        for fact in facts:
            if isinstance(fact, list) and len(fact) == 3 and fact[0] == "=" and isinstance(fact[1], list) \
                    and fact[1] and isinstance(fact[1][0], str) and fact[1][0] not in self.functions \
                    and fact[1][0] not in self.predicates:
                dropped.append((fact[1][0], _short(fact, 40)))
                continue
            if isinstance(fact, list) and fact and (fact[0] in self.derived or fact[0] in self.kept):
                raise UnrepairableTask(f"a derived predicate given in the initial state ('{fact[0]}'): PDDL derives "
                                       "it from its definition only")
            timed = isinstance(fact, list) and len(fact) == 3 and fact[0] == "at" and isinstance(fact[1], str) \
                and bool(_NUMBER.match(fact[1]))
            out.append(self._generic(fact) if timed else self._condition(fact))
        if dropped:
            names = sorted({name for name, _ in dropped})
            several = len(dropped) > 1
            self.changes.append(
                f"dropped {len(dropped)} initial value{'s' if several else ''} of undeclared "
                f"function{'s' if len(names) > 1 else ''} {', '.join(repr(n) for n in names)} "
                f"(nothing can read {'them' if several else 'it'}): "
                + ", ".join(text for _, text in dropped[:_EXAMPLES]) + (" ..." if len(dropped) > _EXAMPLES else "")
            )
        return out

    def _generic(self, node: SExpr) -> SExpr:
        """Renames atoms where the structure is not interpreted (durative actions, constraints): by any role."""
        if isinstance(node, list):
            return [self._generic(part) for part in node]
        if node.startswith("?"):
            return _variable(node)
        for role in ("object", "predicate", "function", "action", "type"):
            if node in self.rename[role]:
                return self.rename[role][node]
        return node


def _quantified(node: list[SExpr]) -> list[tuple[str, SExpr | None]]:
    """Returns a quantifier's typed variables, refusing a variable declared twice."""
    variables = _typed(node[1], f"a quantifier: {_short(node)}")
    repeated = _repeated(variables)
    if repeated is not None:
        raise UnrepairableTask(f"a quantifier declaring a variable twice ('{repeated}' in {_short(node, 40)})")
    return variables


def _repeated(pairs: list[tuple[str, SExpr | None]]) -> str | None:
    """Returns the first name declared more than once in a typed list, or None."""
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            return name
        seen.add(name)
    return None


def _variables(tree: SExpr) -> set[str]:
    """Returns every ``?variable`` written in a tree."""
    if isinstance(tree, str):
        return {tree} if tree.startswith("?") else set()
    return set().union(*(_variables(part) for part in tree)) if tree else set()


def _heads(tree: SExpr) -> set[str]:
    """Returns the head of every list in a tree (the predicates a formula names, with its operators)."""
    if isinstance(tree, str) or not tree:
        return set()
    heads = {tree[0]} if isinstance(tree[0], str) else set()
    return heads.union(*(_heads(part) for part in tree))


def reached_from(start: str, uses: dict[str, set[str]]) -> set[str]:
    """Returns the names ``start`` uses, directly or through others (``start`` itself when it is recursive)."""
    reached: set[str] = set()
    stack = [start]
    while stack:
        for used in uses.get(stack.pop(), ()):
            if used not in reached:
                reached.add(used)
                stack.append(used)
    return reached


def _variable(name: str) -> str:
    """Returns a variable (``?x``) with characters unified-planning rejects replaced; other names unchanged."""
    if not name.startswith("?") or _LEGAL.match(name[1:]):
        return name
    return "?" + _legal(name[1:])


def _legal(name: str) -> str:
    """Returns ``name`` with each character unified-planning rejects replaced by ``_``, starting with a letter."""
    cleaned = _ILLEGAL_CHARACTER.sub("_", name)
    if not cleaned[:1].isalpha():
        cleaned = "n" + cleaned
    return cleaned


def _fresh(name: str, taken: set[str]) -> str:
    """Returns ``name``, or ``name-2``, ``name-3``... whichever no declaration uses."""
    if name not in taken:
        return name
    suffix = 2
    while f"{name}-{suffix}" in taken:
        suffix += 1
    return f"{name}-{suffix}"

