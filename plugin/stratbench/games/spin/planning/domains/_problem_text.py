"""Renders PDDL problem files for the domain generators, one fact a line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["problem_text", "check_tier"]


def check_tier(tier: str, tiers: Sequence[str]) -> None:
    """Raises ValueError naming the known tiers if ``tier`` is not one of them.

    Args:
        tier: The requested difficulty tier.
        tiers: The generator's ``TIERS``.
    """
    if tier not in tiers:
        raise ValueError(f"unknown tier {tier!r}; expected one of {', '.join(tiers)}")


def problem_text(
    name: str,
    domain: str,
    objects: Iterable[tuple[str, Sequence[str]]],
    init: Iterable[str],
    goal: Iterable[str],
    *,
    metric: str | None = None,
) -> str:
    """Returns a PDDL problem as text.

    Args:
        name: The problem name, e.g. ``"satellite-easy-s0"``.
        domain: The domain name as written in ``domain.pddl``.
        objects: ``(type, names)`` pairs, written in this order; types with
            no names are skipped.
        init: Initial facts and numeric assignments, each already in
            parentheses, e.g. ``"(at r1 room0)"`` or ``"(= (cash) 10)"``.
        goal: Goal conditions, each in parentheses; they are joined with ``and``.
        metric: An optional metric body, e.g. ``"minimize (total-cost)"``.

    Returns:
        The problem file's text, ending with a newline.

    Examples:
        >>> print(problem_text("p", "d", [("room", ["a", "b"])], ["(at a)"], ["(at b)"]), end="")
        (define (problem p)
          (:domain d)
          (:objects
            a b - room)
          (:init
            (at a))
          (:goal (and
            (at b))))
    """
    lines = [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    object_lines = [f"    {' '.join(names)} - {kind}" for kind, names in objects if names]
    lines.extend(object_lines)
    lines[-1] += ")"
    lines.append("  (:init")
    lines.extend(f"    {fact}" for fact in init)
    lines[-1] += ")"
    lines.append("  (:goal (and")
    lines.extend(f"    {condition}" for condition in goal)
    lines[-1] += "))"
    if metric:
        lines.append(f"  (:metric {metric})")
    lines[-1] += ")"
    return "\n".join(lines) + "\n"
