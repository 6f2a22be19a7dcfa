"""A small s-expression reader and writer for PDDL.

:func:`parse` turns PDDL text into nested lists of lower-cased atoms (PDDL
is case-insensitive), dropping ``;`` comments; :func:`render` writes such a
tree back as PDDL text. Nothing here knows PDDL's grammar: that is
:mod:`stratbench.games.spin.planning.normalise`'s job.
"""

from __future__ import annotations

import re

__all__ = ["SExpr", "SExprError", "parse", "render"]

SExpr = str | list["SExpr"]
"""An atom, or a list of s-expressions."""

_TOKEN = re.compile(r";[^\n]*|\s+|\(|\)|[^\s();]+")


class SExprError(ValueError):
    """Raised for text that is not one balanced s-expression."""


def parse(text: str, what: str = "text") -> list[SExpr]:
    """Parses text holding exactly one parenthesised expression.

    Args:
        text: The PDDL text.
        what: What the text is (``domain``, ``problem``), for error messages.

    Raises:
        SExprError: for unbalanced parentheses, text outside the expression, or no expression.

    Examples:
        >>> parse("(define (domain D) ; a comment\\n (:types A))")
        ['define', ['domain', 'd'], [':types', 'a']]
    """
    stack: list[list[SExpr]] = []
    result: list[SExpr] | None = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == ";" or token.isspace():
            continue
        if result is not None:
            raise SExprError(f"the {what} has text after its closing parenthesis, near {token[:30]!r}")
        if token == "(":
            stack.append([])
        elif token == ")":
            if not stack:
                raise SExprError(f"the {what} has an unmatched ')'")
            done = stack.pop()
            if stack:
                stack[-1].append(done)
            else:
                result = done
        elif not stack:
            raise SExprError(f"the {what} has text outside parentheses, near {token[:30]!r}")
        else:
            stack[-1].append(token.lower())
    if stack:
        raise SExprError(f"the {what} has {len(stack)} unclosed '('")
    if result is None:
        raise SExprError(f"the {what} holds no PDDL expression")
    return result


def render(tree: SExpr, depth: int = 0) -> str:
    """Writes a tree as PDDL text: each section of the top-level form on its own line.

    Examples:
        >>> render(["define", ["domain", "d"], [":types", "a"]])
        '(define\\n (domain d)\\n (:types a))'
    """
    if isinstance(tree, str):
        return tree
    if depth == 0 and tree and tree[0] == "define":
        return "(define\n " + "\n ".join(render(part, 1) for part in tree[1:]) + ")"
    return "(" + " ".join(render(part, depth + 1) for part in tree) + ")"
