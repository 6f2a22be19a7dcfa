"""SPIN-Bench's planning prompt (Appendix E.1), and the released code's variant.

The paper's prompt (:data:`E1_TEMPLATE`, the default) puts the domain and the
problem PDDL verbatim between code fences, asks for a five-part systematic
analysis, and for the plan as JSON between ``$$`` markers. SPIN-Bench's
released prompt generator uses a shorter instruction block with the same
answer format (:data:`CODE_TEMPLATE`, ``style="code"``).
"""

from __future__ import annotations

__all__ = ["CODE_TEMPLATE", "E1_TEMPLATE", "RELEASED_SYSTEM_PROMPT", "STYLES", "planning_prompt"]

RELEASED_SYSTEM_PROMPT = "You are a helpful, creative, and smart assistant."
"""The system prompt SPIN-Bench's released model wrapper sends before every conversation (paper protocols)."""

E1_TEMPLATE = """Solve this planning problem:

Domain PDDL:
```
{domain}
```

Task PDDL:
```
{problem}
```

Please solve this PDDL planning problem using the following systematic approach:

1. Initial State Analysis:
  - List all objects and their initial states
  - Identify available actions and their preconditions
2. Goal State Analysis:
  - List all goal conditions
  - Identify the gap between initial and goal states
3. Plan Generation:
  - Build the plan step by step
  - For each action, explain:
    - * Why this action is chosen
    - * What preconditions are satisfied
    - * What effects it produces
4. Plan Verification:
  - Simulate the plan execution from initial state
  - Verify each action's preconditions are met
  - Confirm the goal state is achieved
5. Solution Output:

After completing the analysis, provide the final solution in this exact format:

Reasoning:

[Your step-by-step reasoning following the above structure]

$$
{{
  "plan": "(action1)\\n(action2)\\n(action3)..."
}}
$$

Requirements:

- Each action in the plan must be valid PDDL syntax
- Actions must be separated by '\\n'
- The JSON must contain only the 'plan' key
- The solution must be enclosed in $$ markers
- Verify that each action in the final plan is executable given the previous state
"""
"""The paper's prompt; ``{domain}`` and ``{problem}`` are the PDDL texts."""

CODE_TEMPLATE = """Solve this planning problem:

Domain PDDL:
```
{domain}
```

Task PDDL:
```
{problem}
```

First, reason about the problem step by step outside of the JSON. Then, provide only the final plan \
in JSON format, enclosed within $$ markers.

Required format:

Reason:
```
[your step-by-step reasoning]
```

$$
{{
  "plan": "(action1)\\n(action2)\\n(action3)..."
}}
$$

Important details:
- Inside the "plan" string, separate actions with the newline escape \\n
- The JSON must contain only the key "plan"
- The plan must contain only actions, in PDDL format
- Keep the Reason section outside the JSON
- Put the JSON between the $$ markers
"""
"""The released code's shorter instruction block (zero-shot), same answer format."""

STYLES = {"e1": E1_TEMPLATE, "code": CODE_TEMPLATE}
"""Prompt styles by name; ``e1`` is the default."""


def planning_prompt(domain: str, problem: str, *, style: str = "e1") -> str:
    """Returns the prompt for one task, the PDDL texts inserted verbatim.

    Raises:
        ValueError: for an unknown style.
    """
    try:
        template = STYLES[style]
    except KeyError:
        raise ValueError(f"unknown planning prompt style {style!r}; known: {', '.join(STYLES)}") from None
    return template.format(domain=domain.strip(), problem=problem.strip())
