"""The 21 SPIN-Bench planning domains, written for stratbench, with seeded instance generators.

Each domain is a package ``planning/domains/<name>/`` holding:

* ``domain.pddl`` — the domain, written for this project, readable by
  unified-planning's ``PDDLReader``;
* ``generator.py`` — a seeded instance generator with this interface::

      NAME: str          # the directory name, e.g. "blocksworld"
      CATEGORY: str      # "spatial" | "sequential" | "resource" (SPIN-Bench's scorer taxonomy)
      DESCRIPTION: str   # one sentence
      TIERS: tuple[str, ...] = ("easy", "medium", "hard")
      def generate(seed: int, tier: str) -> str:
          '''Returns a problem in PDDL, deterministic for (seed, tier).'''

Generated problems use only identifiers unified-planning accepts (letters,
digits, ``-`` and ``_``; no dots) and are solvable by the project's default
planners within seconds at every tier.
"""

DOMAIN_NAMES = (
    "drone", "floortile", "grid", "depots", "logistics", "rovers", "sokoban", "termes",
    "assembly", "blocksworld", "briefcaseworld", "multi_agent_coordination",
    "cooperate_sequential_gripper", "elevator", "barman", "counters", "markettrader",
    "satellite", "freecell", "settlersnumeric", "sugar",
)
"""The domain package names, in SPIN-Bench's Appendix B.2 order."""
