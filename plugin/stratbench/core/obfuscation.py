"""Memorisation probes: the same task under other names (``--obfuscate MODE[:SEED]``).

An :class:`Obfuscation` renames what the model reads and writes (a PDDL
domain's predicates and actions, a board's marks and cells, Hanabi's colours)
and leaves the task itself untouched, so a score on the renamed task against
the original's shows what a model knew by name rather than by reasoning
(PlanBench's "Mystery Blocksworld"). Three modes:

- ``random``: every name becomes a seeded meaningless token (``zorvek``);
- ``mystery``: every name becomes an unrelated real word (:data:`MYSTERY_WORDS`);
- ``deceptive``: every name becomes a word with a misleading meaning: another
  name of the same kind from the same task where there are two or more (the
  action that stacks is called ``unstack``), else a word from
  :data:`DECEPTIVE_WORDS`.

A renaming is a pure function of the mode, the seed, the salt
(``--seed-salt``: a team's private split, which no public cassette holds)
and the scope (the kind of name and the task), so a replay renames exactly
as the recording did. It is injective, and no new name equals an original
one.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

MODES = ("random", "mystery", "deceptive")

MYSTERY_WORDS = (
    "anchor", "apricot", "badger", "balcony", "bamboo", "banjo", "barrel", "basil", "beacon", "biscuit",
    "blossom", "bonnet", "bracelet", "bramble", "bucket", "buffalo", "bugle", "cabbage", "cactus", "camel",
    "canal", "candle", "canoe", "canyon", "carpet", "castle", "cedar", "cello", "chestnut", "chimney",
    "cinnamon", "clover", "cobalt", "comet", "compass", "copper", "coral", "cotton", "cricket", "crystal",
    "cushion", "cypress", "daisy", "dolphin", "dragon", "drizzle", "falcon", "feather", "fennel", "fern",
    "fiddle", "fjord", "flannel", "flute", "fossil", "galaxy", "garlic", "geyser", "ginger", "glacier",
    "goblet", "granite", "grape", "gravel", "harbor", "harp", "hazel", "hedge", "helmet", "heron",
    "hickory", "honey", "iguana", "island", "ivory", "jasmine", "jigsaw", "juniper", "kayak", "kettle",
    "kiwi", "lagoon", "lantern", "lavender", "lemon", "lettuce", "lilac", "lobster", "locket", "lotus",
    "magnet", "mango", "maple", "marble", "meadow", "melon", "mitten", "mosaic", "moss", "muffin",
    "nectar", "nutmeg", "oasis", "octopus", "olive", "onion", "orchid", "otter", "paddle", "pebble",
    "pelican", "pepper", "piano", "pigeon", "pillow", "pine", "plum", "pony", "poppy", "pumpkin",
    "quartz", "quill", "radish", "raven", "reef", "ribbon", "saddle", "saffron", "salmon", "sandal",
    "satin", "scarf", "sequoia", "shovel", "sparrow", "spinach", "sponge", "spruce", "squid", "teapot",
    "thimble", "thistle", "thunder", "tiger", "tulip", "tundra", "turnip", "umbrella", "velvet", "violin",
    "volcano", "walnut", "walrus", "willow", "wombat", "yarn", "yogurt", "zebra", "zephyr", "zinnia",
)
"""Unrelated real words for ``mystery`` (concrete nouns with no meaning in any game or planning domain)."""

DECEPTIVE_WORDS = (
    "remove", "destroy", "lose", "empty", "forbid", "undo", "drop", "hide", "block", "reverse", "sink",
    "break", "erase", "forfeit", "abandon", "unload", "release", "discard", "absent", "blocked", "broken",
    "full", "closed", "lost", "hidden", "illegal", "finished", "locked", "missing", "wrong", "opponent",
    "enemy", "nothing", "never", "start", "end", "none", "void", "false", "win",
)
"""Misleading words for ``deceptive`` where a kind of name has no other name to swap with."""

_SYLLABLES = tuple(c + v for c in "bdfgklmnprstvz" for v in "aeiou")
_SPEC = re.compile(r"^(?P<mode>[a-z]+)(?::(?P<seed>-?\d+))?$")


class ObfuscationError(ValueError):
    """A ``--obfuscate`` value that names no mode or no whole-number seed."""


@dataclass(frozen=True)
class Obfuscation:
    """A renaming of what the model reads and writes.

    Attributes:
        mode: One of :data:`MODES`.
        seed: Chooses the renaming (each seed is another variant).
        salt: ``--seed-salt``: mixed into every renaming, so a private split's names are its own.
    """

    mode: str
    seed: int = 0
    salt: str = field(default="", repr=False)  # a private split's secret: kept out of reprs (error messages)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ObfuscationError(f"unknown obfuscation mode {self.mode!r}; choose from {', '.join(MODES)}")

    @classmethod
    def parse(cls, text: str, salt: str = "") -> Obfuscation:
        """Reads ``MODE`` or ``MODE:SEED`` (seed 0 when not given).

        Raises:
            ObfuscationError: naming the value and what it should be.
        """
        found = _SPEC.match(text.strip())
        if found is None or found["mode"] not in MODES:
            raise ObfuscationError(f"expected MODE or MODE:SEED with MODE one of {', '.join(MODES)}, got {text!r}")
        return cls(found["mode"], int(found["seed"] or 0), salt)

    @property
    def tag(self) -> str:
        """The variant's id part: ``obf-mystery-s7``, with ``-k`` and the salt's :func:`salt_tag` when salted."""
        tag = f"obf-{self.mode}-s{self.seed}"
        return f"{tag}-k{salt_tag(self.salt)}" if self.salt else tag

    def spec(self) -> str:
        """The value ``--obfuscate`` takes for this renaming (the salt is given apart)."""
        return f"{self.mode}:{self.seed}"

    def rng(self, scope: str) -> random.Random:
        """A generator seeded by the mode, seed, salt and ``scope`` (the kind of name, the task)."""
        key = f"{self.mode}\0{self.seed}\0{self.salt}\0{scope}".encode()
        return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))

    def rename(
        self, names: Sequence[str], scope: str, *, taken: Iterable[str] = (), alphabet: str | None = None
    ) -> dict[str, str]:
        """Maps each name to its new name: injective, and (but for ``deceptive``'s swaps among the names
        themselves) never an original name nor one in ``taken``.

        Args:
            names: The names of one kind (a domain's actions), in a stable order.
            scope: What they are (``"pddl:blocksworld:action"``); another scope renames independently.
            taken: Names the new ones must avoid besides the originals (another kind's new names).
            alphabet: Where names must stay one character (a board's marks, Hanabi's colour letters):
                ``random`` and ``mystery`` draw each new name from these characters instead
                (``deceptive`` still swaps two or more names among themselves).

        Raises:
            ValueError: when ``alphabet`` has too few characters left for the names.
        """
        originals = list(dict.fromkeys(names))
        avoid = {name.lower() for name in originals} | {name.lower() for name in taken}
        rng = self.rng(scope)
        if self.mode == "deceptive" and len(originals) >= 2:
            return _derangement(originals, rng)
        pool = {"mystery": MYSTERY_WORDS, "deceptive": DECEPTIVE_WORDS}.get(self.mode)
        if alphabet is not None:
            return _characters(originals, alphabet, rng, avoid)
        renamed: dict[str, str] = {}
        for name in originals:
            candidate = self._fresh(rng, pool, avoid)
            avoid.add(candidate)
            renamed[name] = candidate
        return renamed

    @staticmethod
    def _fresh(rng: random.Random, pool: Sequence[str] | None, avoid: set[str]) -> str:
        if pool is not None:
            free = [word for word in pool if word not in avoid]
            if free:
                return rng.choice(free)
        while True:  # random tokens (and a pool used up): two to three syllables and a final consonant
            token = "".join(rng.choice(_SYLLABLES) for _ in range(rng.choice((2, 3)))) + rng.choice("klmnrstvx")
            if token not in avoid:
                return token


def _characters(names: list[str], alphabet: str, rng: random.Random, avoid: set[str]) -> dict[str, str]:
    """Each name becomes a distinct character of ``alphabet``, none an original or taken name."""
    free = [char for char in dict.fromkeys(alphabet) if char.lower() not in avoid]
    if len(free) < len(names):
        raise ValueError(f"{len(names)} names need {len(names)} free characters, {alphabet!r} has {len(free)}")
    return dict(zip(names, rng.sample(free, len(names))))


def _derangement(names: list[str], rng: random.Random) -> dict[str, str]:
    """Each name takes another's (a seeded permutation with no fixed point: a cyclic shift of a shuffle)."""
    order = list(names)
    rng.shuffle(order)
    return {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}


SALT_TAG_COST = {"n": 2 ** 14, "r": 8, "p": 1}
"""scrypt's cost for :func:`salt_tag`: about 16 MB and tens of milliseconds a try, once per salt and process."""


@functools.lru_cache(maxsize=8)
def salt_tag(salt: str) -> str:
    """The 6 hex digits a salted probe's id carries: a slow, memory-hard digest of the salt (scrypt), so that
    guessing a salt from the ids costs a scrypt per guess, and 24 bits say little about a salt of 12 or more
    characters (the shortest ``--seed-salt`` takes)."""
    key = hashlib.scrypt(salt.encode(), salt=b"stratbench --seed-salt id tag", dklen=16, **SALT_TAG_COST)
    return key.hex()[:6]


def renaming_of(record: dict[str, Any]) -> str | None:
    """The tag of the renaming a match record played (``obf-mystery-s7``), or None for an original task."""
    options = record.get("game_options") or {}
    tag = options.get("obfuscation_tag") if isinstance(options, dict) else None
    return str(tag) if tag else None


def renaming_part(record: dict[str, Any]) -> dict[str, Any]:
    """A probe's renaming as a match row's ``renaming`` (which keeps it from pairing with its original); nothing
    for an original."""
    tag = renaming_of(record)
    return {"renaming": tag} if tag else {}
