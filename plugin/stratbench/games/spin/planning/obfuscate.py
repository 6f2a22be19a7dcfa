"""A planning task under other names: the PDDL the model reads under ``--obfuscate``.

:func:`obfuscate_task` renames a domain's and a problem's types, constants,
objects, predicates, functions and actions (each kind with
:meth:`stratbench.core.obfuscation.Obfuscation.rename`, scope
``pddl:<domain>:<kind>``, avoiding every original name, every new name of
another kind and PDDL's keywords), and the domain's and the problem's own
names; ``total-cost``, which ``:action-costs`` defines, stays. Variables
become neutral ``?a1``, ``?a2``...: a ``?truck`` would tell what the
renaming hides. Keywords, requirements and numbers stay, and so does the
text's layout; comments (which may name anything) are dropped.

Each name is renamed where PDDL's grammar puts it (a predicate and an action
may share a name), on the parsed tree; the tree keeps its shape, so the new
atoms replace the old ones in the text one for one.

:class:`RenamedTask` maps back: :meth:`RenamedTask.original_steps` turns a
plan in the new names into the original's, and :meth:`RenamedTask.shown_names`
gives the validator a name map in which the names the model sees are the
new ones, so the original task's validator checks the plan and every
message it writes names what the model saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stratbench.games.spin.planning.normalise import NameMap
from stratbench.games.spin.planning.sexpr import SExpr, parse

if TYPE_CHECKING:
    from stratbench.core.obfuscation import Obfuscation
    from stratbench.games.spin.planning.reading import ReadTask

__all__ = ["KINDS", "RenamedTask", "obfuscate_task"]

KINDS = ("type", "constant", "object", "predicate", "function", "action", "domain", "problem")
"""The kinds of name renamed, in the order they are renamed (``domain`` and ``problem``: the tasks' own names)."""

KEYWORDS = frozenset({
    "and", "or", "not", "imply", "exists", "forall", "when", "either", "object", "number", "at", "over", "start",
    "end", "all", "always", "sometime", "within", "preference", "increase", "decrease", "assign", "scale-up",
    "scale-down", "total-time", "minimize", "maximize", "define", "domain", "problem", "true", "false", "undefined",
    "is-violated", "hold-during", "hold-after", "at-most-once", "sometime-before", "sometime-after",
    "always-within", "continuous", "duration",
})
"""Words PDDL gives a meaning: never a new name (a task may still declare one, ``at`` say, and it is renamed)."""

_KEPT = frozenset({"object", "number", "total-cost"})
"""Names PDDL defines, kept when a task declares them: the root type, numbers' type, and ``total-cost``
(``:action-costs``: planners read its increases as action costs, not as a numeric fluent)."""
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?\Z|[-+]?\.\d+\Z")
_TOKEN = re.compile(r";[^\n]*|\s+|\(|\)|[^\s();]+")
_QUANTIFIERS = ("forall", "exists")
_NUMERIC_HEADS = frozenset({
    "<", ">", "<=", ">=", "=", "+", "-", "*", "/", "assign", "increase", "decrease", "scale-up", "scale-down",
})
_ACTIONS = (":action", ":durative-action", ":process", ":event")
_ROLES = {  # the validator's roles (NameMap) and the kinds each holds
    "type": ("type",), "object": ("object", "constant"), "predicate": ("predicate",), "function": ("function",),
    "action": ("action",),
}


class _Unexpected(ValueError):
    """Raised when the renamed tree does not match the text atom for atom (never for text :func:`parse` reads)."""


@dataclass(frozen=True)
class RenamedTask:
    """A task's domain and problem under new names, and the way back.

    Attributes:
        domain: The domain text the model reads.
        problem: The problem text the model reads.
        names: ``{kind: {original: new}}`` for each of :data:`KINDS` and ``variable`` (``?x`` -> ``?a1``),
            lower-case.
    """

    domain: str
    problem: str
    names: dict[str, dict[str, str]]

    def originals(self) -> set[str]:
        """Returns every original name renamed (variables with their ``?``)."""
        return {name for names in self.names.values() for name in names}

    def original_steps(
        self, steps: tuple[tuple[str, tuple[str, ...]], ...]
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Returns plan steps in the new names written in the original names (a name not given stays as written)."""
        actions = {new: old for old, new in self.names["action"].items()}
        objects = {new: old for kind in ("object", "constant") for old, new in self.names[kind].items()}
        return tuple(
            (actions.get(name.lower(), name), tuple(objects.get(a.lower(), a) for a in args)) for name, args in steps
        )

    def renamed_steps(
        self, steps: tuple[tuple[str, tuple[str, ...]], ...]
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Returns plan steps in the original names written in the new names (the inverse of :meth:`original_steps`)."""
        objects = {**self.names["constant"], **self.names["object"]}
        return tuple(
            (self.names["action"].get(name.lower(), name), tuple(objects.get(a.lower(), a) for a in args))
            for name, args in steps
        )

    def shown_names(self, read: ReadTask) -> NameMap:
        """Returns a name map for the validator in which the model's names are the new ones.

        ``read`` is the original task as read; each new name maps to the name
        unified-planning knows for its original (the reader's own renames
        included), so a plan in the new names resolves to the original
        problem's actions and objects, and an original name is unknown.
        """
        renamed: dict[str, dict[str, str]] = {}
        for role, kinds in _ROLES.items():
            renamed[role] = {
                new: read.names.internal(role, old) or old for kind in kinds for old, new in self.names[kind].items()
            }
        renamed["variable"] = {new[1:]: old[1:] for old, new in self.names["variable"].items()}
        known = set(renamed["predicate"].values()) | set(renamed["function"].values())
        for fluent in read.problem.fluents:
            if fluent.name not in known:
                shown = self._membership(fluent.name)
                if shown is not None:
                    renamed["predicate"][shown] = fluent.name
        return NameMap(renamed)

    def _membership(self, name: str) -> str | None:
        """Returns the reader's membership predicate for an ``either`` type (``either-truck-plane``) in the new
        type names (``either-plum-fern``), or None for another name."""
        if not name.startswith("either-"):
            return None
        types = sorted(self.names["type"], key=len, reverse=True)
        rest, members = re.sub(r"-\d+$", "", name[len("either-"):]), []
        while rest:
            found = next((t for t in types if rest == t or rest.startswith(t + "-")), None)
            if found is None:
                return None
            members.append(self.names["type"][found])
            rest = rest[len(found) + 1:]
        return "either-" + "-".join(members) if members else None


def obfuscate_task(domain_text: str, problem_text: str, obfuscation: Obfuscation, domain: str) -> RenamedTask:
    """Renames a task's names with ``obfuscation`` (scope ``pddl:<domain>:<kind>``).

    Args:
        domain_text: The original domain PDDL.
        problem_text: The original problem PDDL.
        obfuscation: The renaming.
        domain: The task's domain as the dataset names it (``blocksworld``): the scope's middle part.

    Raises:
        SExprError: for text that is not one balanced s-expression (the reader refuses it too).
    """
    domain_tree = parse(domain_text, "domain")
    problem_tree = parse(problem_text, "problem")
    declared = _declarations(domain_tree, problem_tree)
    taken = set(KEYWORDS) | {name for names in declared.values() for name in names}
    names: dict[str, dict[str, str]] = {}
    for kind in KINDS:
        names[kind] = obfuscation.rename(declared[kind], f"pddl:{domain}:{kind}", taken=taken)
        taken |= set(names[kind].values())
    names["variable"] = _neutral_variables(declared["variable"])
    renamer = _Renamer(names, declared)
    return RenamedTask(
        _substituted(domain_text, renamer.domain(domain_tree)),
        _substituted(problem_text, renamer.problem(problem_tree)),
        names,
    )


def _neutral_variables(variables: list[str]) -> dict[str, str]:
    """Maps each variable, in order, to ``?a1``, ``?a2``..., skipping any spelling an original variable has."""
    originals = set(variables)
    renamed: dict[str, str] = {}
    number = 0
    for variable in variables:
        number += 1
        while f"?a{number}" in originals:
            number += 1
        renamed[variable] = f"?a{number}"
    return renamed


def _declarations(domain_tree: list[SExpr], problem_tree: list[SExpr]) -> dict[str, list[str]]:
    """Returns each kind's names, in the order first declared."""
    found: dict[str, dict[str, None]] = {kind: {} for kind in (*KINDS, "variable")}

    def add(kind: str, name: SExpr) -> None:
        if isinstance(name, str) and name not in _KEPT and not name.startswith(("?", ":")) \
                and not _NUMBER.match(name) and name != "-":
            found[kind][name] = None

    def types_in(items: list[SExpr]) -> None:
        for index, item in enumerate(items):
            if index and items[index - 1] == "-":
                for kind in item[1:] if isinstance(item, list) and item[:1] == ["either"] else [item]:
                    add("type", kind)

    for tree, what in ((domain_tree, "domain"), (problem_tree, "problem")):
        if len(tree) > 1 and isinstance(tree[1], list) and len(tree[1]) == 2:
            add(what, tree[1][1])
    for section in _sections(domain_tree):
        head = section[0]
        if head == ":types":
            for name in _named(section[1:]):
                add("type", name)
            types_in(section[1:])
        elif head == ":constants":
            for name in _named(section[1:]):
                add("constant", name)
            types_in(section[1:])
        elif head in (":predicates", ":functions"):
            for signature in section[1:]:
                if isinstance(signature, list) and signature and isinstance(signature[0], str):
                    add("predicate" if head == ":predicates" else "function", signature[0])
                    types_in(signature[1:])
            types_in(section[1:])
        elif head == ":derived" and len(section) > 1 and isinstance(section[1], list) and section[1]:
            add("predicate", section[1][0])
        elif head in _ACTIONS and len(section) > 1:
            add("action", section[1])
    for section in _sections(problem_tree):
        if section[0] == ":objects":
            for name in _named(section[1:]):
                if name not in found["constant"]:
                    add("object", name)
            types_in(section[1:])
    for tree in (domain_tree, problem_tree):
        for typed in _typed_lists(tree):
            types_in(typed)
        for atom in _atoms(tree):
            if atom.startswith("?") and atom != "?duration":
                found["variable"][atom] = None
    return {kind: list(names) for kind, names in found.items()}


def _sections(tree: list[SExpr]) -> list[list[SExpr]]:
    return [part for part in tree[2:] if isinstance(part, list) and part and isinstance(part[0], str)]


def _named(items: list[SExpr]) -> list[str]:
    """Returns the names of a typed list (not its types)."""
    return [item for index, item in enumerate(items)
            if isinstance(item, str) and item != "-" and not (index and items[index - 1] == "-")]


def _typed_lists(tree: SExpr) -> list[list[SExpr]]:
    """Returns every list holding a ``-`` (the typed lists of parameters and quantifiers)."""
    if isinstance(tree, str):
        return []
    found = [tree] if "-" in tree and any(isinstance(item, str) and item.startswith("?") for item in tree) else []
    for part in tree:
        found.extend(_typed_lists(part))
    return found


def _atoms(tree: SExpr) -> list[str]:
    if isinstance(tree, str):
        return [tree]
    return [atom for part in tree for atom in _atoms(part)]


class _Renamer:
    """Rewrites a parsed domain and problem, renaming each atom by its place in PDDL's grammar."""

    def __init__(self, names: dict[str, dict[str, str]], declared: dict[str, list[str]]) -> None:
        self.names = names
        self.predicates = set(declared["predicate"])
        self.functions = set(declared["function"])

    def domain(self, tree: list[SExpr]) -> list[SExpr]:
        out: list[SExpr] = [tree[0], self._header(tree[1], "domain")] if len(tree) > 1 else list(tree)
        for section in tree[2:]:
            out.append(self._domain_section(section))
        return out

    def problem(self, tree: list[SExpr]) -> list[SExpr]:
        out: list[SExpr] = [tree[0], self._header(tree[1], "problem")] if len(tree) > 1 else list(tree)
        for section in tree[2:]:
            if not isinstance(section, list) or not section:
                out.append(self._generic(section))
                continue
            head = section[0]
            if head == ":domain":
                out.append([head, *(self._get("domain", n) for n in section[1:])])
            elif head == ":objects":
                out.append([head, *self._typed(section[1:], "object")])
            elif head == ":requirements":
                out.append(section)
            elif head in (":init", ":goal", ":metric", ":constraints"):
                out.append([head, *(self._formula(part) for part in section[1:])])
            else:
                out.append(self._generic(section))
        return out

    def _header(self, header: SExpr, kind: str) -> SExpr:
        if isinstance(header, list) and len(header) == 2:
            return [header[0], self._get(kind, header[1])]
        return self._generic(header)

    def _domain_section(self, section: SExpr) -> SExpr:
        if not isinstance(section, list) or not section:
            return self._generic(section)
        head = section[0]
        if head == ":requirements":
            return section
        if head == ":types":
            return [head, *self._typed(section[1:], "type")]
        if head == ":constants":
            return [head, *self._typed(section[1:], "object")]
        if head in (":predicates", ":functions"):
            kind = "predicate" if head == ":predicates" else "function"
            return [head, *self._typed(section[1:], kind)]
        if head == ":derived" and len(section) == 3 and isinstance(section[1], list) and section[1]:
            return [head, self._signature(section[1], "predicate"), self._formula(section[2])]
        if head in _ACTIONS and len(section) > 1:
            out: list[SExpr] = [head, self._get("action", section[1])]
            for index, part in enumerate(section[2:], start=2):
                if section[index - 1] == ":parameters" and isinstance(part, list):
                    out.append(self._typed(part, "variable"))
                elif isinstance(part, str) and part.startswith(":"):
                    out.append(part)
                else:
                    out.append(self._formula(part))
            return out
        return self._generic(section)

    def _typed(self, items: list[SExpr], kind: str) -> list[SExpr]:
        """Renames a typed list: its names as ``kind`` (signatures for predicates and functions), its types."""
        out: list[SExpr] = []
        for index, item in enumerate(items):
            if index and items[index - 1] == "-":
                out.append(self._type(item))
            elif item == "-":
                out.append(item)
            elif isinstance(item, list):
                out.append(self._signature(item, kind) if kind in ("predicate", "function") else self._generic(item))
            else:
                out.append(self._term(item) if kind in ("variable", "object") else self._get(kind, item))
        return out

    def _signature(self, signature: list[SExpr], kind: str) -> list[SExpr]:
        if not signature:
            return signature
        return [self._get(kind, signature[0]), *self._typed(signature[1:], "variable")]

    def _type(self, kind: SExpr) -> SExpr:
        if isinstance(kind, list):
            return [kind[0], *(self._type(k) for k in kind[1:])] if kind[:1] == ["either"] else self._generic(kind)
        return self._get("type", kind)

    def _formula(self, node: SExpr, numeric: bool = False) -> SExpr:
        """Renames a condition, an effect, an initial fact or a numeric expression (``numeric``: a function's
        name wins over a predicate's)."""
        if isinstance(node, str):
            return self._term(node)
        if not node:
            return node
        head = node[0]
        if not isinstance(head, str):
            return [self._formula(part, numeric) for part in node]
        if head in _QUANTIFIERS and len(node) == 3 and isinstance(node[1], list):
            return [head, self._typed(node[1], "variable"), self._formula(node[2])]
        if head in _NUMERIC_HEADS:
            return [head, *(self._formula(part, True) for part in node[1:])]
        if (head in self.predicates or head in self.functions) and not _timed(node):
            function = head in self.functions and (numeric or head not in self.predicates)
            return [self._get("function" if function else "predicate", head),
                    *(self._formula(part, True) for part in node[1:])]
        return [head, *(self._formula(part, numeric) for part in node[1:])]

    def _term(self, atom: str) -> str:
        if atom.startswith("?"):
            return self.names["variable"].get(atom, atom)
        for kind in ("object", "constant", "function"):
            if atom in self.names[kind]:
                return self.names[kind][atom]
        return atom

    def _get(self, kind: str, name: SExpr) -> SExpr:
        return self.names[kind].get(name, name) if isinstance(name, str) else self._generic(name)

    def _generic(self, node: SExpr) -> SExpr:
        """Renames atoms where the grammar is not followed here: by the first kind that has the name."""
        if isinstance(node, list):
            return [self._generic(part) for part in node]
        if node.startswith("?"):
            return self.names["variable"].get(node, node)
        for kind in ("object", "constant", "predicate", "function", "action", "type"):
            if node in self.names[kind]:
                return self.names[kind][node]
        return node


def _timed(node: list[SExpr]) -> bool:
    """Tells ``(at start ...)``, ``(at end ...)`` and a timed ``(at 10 ...)`` from an atom of a predicate ``at``."""
    return node[0] == "at" and len(node) >= 2 and isinstance(node[1], str) \
        and (node[1] in ("start", "end") or bool(_NUMBER.match(node[1])))


def _substituted(text: str, tree: list[SExpr]) -> str:
    """Writes the renamed tree's atoms over the text's, one for one, keeping its layout; drops comments."""
    atoms = iter(_atoms(tree))
    lines = []
    for line in text.splitlines():
        out = []
        commented = False
        for match in _TOKEN.finditer(line):
            token = match.group()
            if token[0] == ";":
                commented = True
            elif token.isspace() or token in "()":
                out.append(token)
            else:
                new = next(atoms, None)
                if new is None:
                    raise _Unexpected("the renamed tree has fewer atoms than the text")
                out.append(token if new == token.lower() else new)
        written = "".join(out).rstrip()
        if written or not commented:
            lines.append(written)
    if next(atoms, None) is not None:
        raise _Unexpected("the renamed tree has more atoms than the text")
    return "\n".join(lines).strip("\n") + "\n"
