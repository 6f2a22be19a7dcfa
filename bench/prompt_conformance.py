"""The full prompt conformance check: every registered ``moves`` game, variant and protocol, many states.

For each game/variant/protocol (:func:`stratbench.testing.prompt_conformance.games_to_check`),
checks ``--samples`` decisions of seeded random playouts
(:func:`~stratbench.testing.prompt_conformance.conformance`) and prints the
decisions checked, the oracle answers read back, the open-ended decisions left
unchecked and the problems found, then every problem. Exits 1 when any is found.

Usage::

    PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python python bench/prompt_conformance.py \
        [--samples N] [--seed S] [--every-variant] [--game NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time

from stratbench.families import standalone_registry
from stratbench.testing.prompt_conformance import conformance, games_to_check


def main() -> int:
    """Runs the check and prints one line per game/variant/protocol, then the problems."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30, help="decisions checked per game/protocol")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every-variant", action="store_true", help="every variant, not each game's first")
    parser.add_argument("--game", action="append", default=[], help="only these games (repeatable)")
    args = parser.parse_args()
    registry = standalone_registry(("games", "protocols"))
    problems = []
    for case in games_to_check(registry, every_variant=args.every_variant):
        if args.game and case.name not in args.game:
            continue
        start = time.perf_counter()
        checked = conformance(registry, case.name, case.variant, case.protocol, samples=args.samples,
                              seed=args.seed)
        problems.extend(checked.problems)
        print(f"{case.label:42s} states {checked.states:4d}  answers {checked.answers:6d}  "
              f"open-ended unchecked {checked.unchecked:4d}  problems {len(checked.problems):4d}  "
              f"{time.perf_counter() - start:6.2f} s", flush=True)
    print(f"\n{len(problems)} problems")
    for problem in problems:
        print(f"- {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
