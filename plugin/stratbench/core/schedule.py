"""Match schedules: which matches a suite test expands into.

A suite declares its game, its fixed opponents, its baselines and how seats
rotate; the command line says which models and scaffolds are under test. The
schedule is a sorted, seeded, deterministic list of :class:`MatchSpec` so
every xdist worker collects the same items.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from stratbench.core.agent import AgentSpec
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.protocol_names import DEFAULT, id_prefix

SEAT_POLICIES = ("alternate", "half")

SECOND_SEAT_TAG = "second"
"""Under ``seats="half"``, the id part of a match where the subject (the pairing's first agent) sits second.

Under ``"alternate"`` the seed alone decides the seat (even: first), so the id
needs no tag; under ``"half"`` seed 0 is the subject's second seat with
``--matches 4`` and its first with ``--matches 1``, and the tag keeps the two
apart. A match where the subject sits first keeps the untagged id, so the
recordings made before the tag still replay.
"""

FIRST_SEAT_TAG = "first"
"""Under ``pairs=True`` in an ``"alternate"`` suite, the id part of an odd seed's match with the subject first.

Paired play (:func:`build_schedule`) plays each seed in both seatings. The
seating the suite's own policy gives a seed keeps its id; the other one is
tagged (``-first`` for an odd seed, ``-second`` for an even one under
``"alternate"``; ``-second`` under ``"half"``), so one id still names one
seating, with or without pairs.
"""


@dataclass(frozen=True)
class SuiteSpec:
    """What a suite test declares with ``@pytest.mark.stratbench(...)``.

    Attributes:
        game: The registered game name.
        opponents: Agent names the subjects play against (empty: round robin only,
            or solo games).
        baselines: Agents that are subjects too (always run; the only subjects
            when no model is given).
        matches: Matches per pairing (``--matches`` overrides).
        seats: ``"alternate"`` (subject seat flips every seed) or ``"half"``
            (the opponent takes the first seat in the first half: SPIN-Bench).
            Under ``"half"`` the seat depends on ``matches`` too, so the id of
            a match where the subject sits second ends ``-second-s<seed>``
            (:data:`SECOND_SEAT_TAG`): one id, one seating, one cassette.
        round_robin: Whether LLM subjects also play each other.
        illegal_tolerance: Attempts per decision before the fallback.
        fallback: ``"forfeit"``, ``"random"`` or ``"drop"`` (see :class:`~stratbench.core.runner.MatchRules`).
        variants: Game variants to play (instances, levels); None: the game's own list.
        seatings: For games with more than two sides: named seatings, each a
            tuple with one entry per side, ``"subject"`` or an agent name
            (``{"vs-hold": ("subject", "hold", "hold", ...)}``); the subject
            may take several sides.
        options: Extra game or suite settings.
        protocol: The protocol this suite plays (None: ``--protocol``'s, else
            ``default``; see :mod:`stratbench.protocols`).
    """

    game: str
    opponents: tuple[str, ...] = ()
    baselines: tuple[str, ...] = ("random",)
    matches: int = 10
    seats: str = "alternate"
    round_robin: bool = True
    illegal_tolerance: int = 10
    fallback: str = "forfeit"
    variants: tuple[str, ...] | None = None
    seatings: dict[str, tuple[str, ...]] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    protocol: str | None = None

    @classmethod
    def from_marker(cls, kwargs: dict[str, Any]) -> SuiteSpec:
        """Builds a spec from a marker's keyword arguments, checking them."""
        known = set(cls.__dataclass_fields__)
        unknown = set(kwargs) - known
        if unknown:
            raise ValueError(f"unknown stratbench marker arguments {sorted(unknown)}; known: {sorted(known)}")
        if "game" not in kwargs:
            raise ValueError("the stratbench marker needs game=<name>")
        values = dict(kwargs)
        for name in ("opponents", "baselines", "variants"):
            if name in values:
                raw = values[name]
                values[name] = (raw,) if isinstance(raw, str) else tuple(raw)
        if values.get("seatings") is not None:
            values["seatings"] = {str(k): tuple(v) for k, v in dict(values["seatings"]).items()}
            for name, seating in values["seatings"].items():
                if "subject" not in seating:
                    raise ValueError(f"seating {name!r} has no 'subject' side")
        spec = cls(**values)
        if spec.seats not in SEAT_POLICIES:
            raise ValueError(f"seats must be one of {SEAT_POLICIES}, got {spec.seats!r}")
        return spec


@dataclass(frozen=True)
class MatchSpec:
    """One match: who plays which side, with which seed.

    Attributes:
        game: The registered game name.
        sides: The agent of each side, in seat order.
        subject: The index of the side under test.
        seed: The match seed.
        id: The pytest parameter id (``gpt-4o+cot-vs-minimax-s3``).
        variant: The game variant, or None.
        skip: Why this match cannot run here, or None.
        protocol: The protocol it is played in.
        seating: The suite seating's token per side (``"subject"`` or an
            agent name), for suites with seatings; empty otherwise.
        obfuscation: For a memorisation probe (``--obfuscate``), the renaming
            it plays as ``MODE:SEED`` (:meth:`~stratbench.core.obfuscation.Obfuscation.spec`;
            the salt is the run's); None for the original.
        openings: ``"book"`` when the seed starts from its book position (``--openings book``), else ``"empty"``.
    """

    game: str
    sides: tuple[AgentSpec, ...]
    subject: int
    seed: int
    id: str
    variant: str | None = None
    skip: str | None = None
    protocol: str = "default"
    seating: tuple[str, ...] = ()
    obfuscation: str | None = None
    openings: str = "empty"

    @property
    def uses_llm(self) -> bool:
        """Tells whether any side calls a model."""
        return any(side.uses_llm for side in self.sides)


@dataclass(frozen=True)
class SubjectLimit:
    """A narrower schedule for one subject (the committed reference recordings).

    Attributes:
        matches: Matches per pairing, variant and seating for this subject
            (0: it does not play this suite).
        variants: The variants or seatings it plays; None for all of them.
        round_robin: Whether it joins the round robin between LLM subjects.
    """

    matches: int
    variants: frozenset[str] | None = None
    round_robin: bool = False

    def allows(self, *names: str | None) -> bool:
        """Tells whether the subject plays a match of this variant and seating (either one listed)."""
        given = [name for name in names if name is not None]
        return self.variants is None or not given or any(name in self.variants for name in given)


def build_schedule(
    suite: SuiteSpec,
    subjects: list[AgentSpec],
    *,
    num_sides: int,
    matches: int | None = None,
    base_seed: int = 0,
    variants: list[tuple[str, str | None]] | None = None,
    limits: dict[str, SubjectLimit] | None = None,
    pairs: bool = False,
) -> list[MatchSpec]:
    """Expands a suite into its matches.

    Args:
        suite: The suite's declaration.
        subjects: The agents under test (models × scaffolds, extra agents),
            the suite's baselines included.
        num_sides: Sides in the game (1: a subject plays every seat).
        matches: Matches per pairing; the suite's default if None.
        base_seed: The first seed; match ``i`` of a pairing uses ``base_seed + i``.
        variants: ``(name, skip reason or None)`` per game variant; None for one form.
        limits: Narrower schedules by subject label.
        pairs: In a two-seat game, play each seed in both seatings (a pair with
            the sides swapped, as the gate pairs matches): twice the matches,
            named as in :data:`FIRST_SEAT_TAG`. No effect on solo games and
            games with named seatings.

    Returns:
        The matches, sorted by id; a non-default protocol's ids start with its name.
    """
    specs = _expand(suite, subjects, num_sides=num_sides, matches=matches, base_seed=base_seed,
                    variants=variants, limits=limits, pairs=pairs)
    name = suite.protocol or DEFAULT
    if name != DEFAULT:
        specs = [replace(spec, id=id_prefix(name) + spec.id, protocol=name) for spec in specs]
    return specs


def _expand(
    suite: SuiteSpec,
    subjects: list[AgentSpec],
    *,
    num_sides: int,
    matches: int | None,
    base_seed: int,
    variants: list[tuple[str, str | None]] | None,
    limits: dict[str, SubjectLimit] | None,
    pairs: bool = False,
) -> list[MatchSpec]:
    count = suite.matches if matches is None else matches
    if count < 1:
        raise ValueError(f"matches must be at least 1, got {count}")
    labels = [s.label for s in subjects]
    duplicated = sorted({label for label in labels if labels.count(label) > 1})
    if duplicated:
        raise ValueError(f"agent given twice: {', '.join(duplicated)}")
    forms = variants if variants is not None else [(None, None)]
    limits = limits or {}

    def plays(subject: AgentSpec, *names: str | None) -> bool:
        limit = limits.get(subject.label)
        return limit is None or limit.allows(*names)

    def count_for(subject: AgentSpec) -> int:
        limit = limits.get(subject.label)
        return count if limit is None else limit.matches

    specs: list[MatchSpec] = []
    if num_sides == 1:
        for subject in subjects:
            for variant, skip in forms:
                if not plays(subject, variant):
                    continue
                for i in range(count_for(subject)):
                    seed = base_seed + i
                    specs.append(
                        MatchSpec(suite.game, (subject,), 0, seed, _id(subject.label, variant, seed), variant, skip)
                    )
        return sorted(specs, key=_order)
    if suite.seatings is not None:
        for subject in subjects:
            for name, seating in suite.seatings.items():
                if len(seating) != num_sides:
                    raise ValueError(f"seating {name!r} has {len(seating)} entries for {num_sides} sides")
                sides = tuple(subject if token == "subject" else AgentSpec(kind=token) for token in seating)
                for variant, skip in forms:
                    if not plays(subject, variant, name):
                        continue
                    for i in range(count_for(subject)):
                        seed = base_seed + i
                        specs.append(
                            MatchSpec(suite.game, sides, seating.index("subject"), seed,
                                      _id(f"{subject.label}-{name}", variant, seed), variant, skip,
                                      seating=tuple(seating))
                        )
        return sorted(specs, key=_order)
    if num_sides != 2:
        raise ValueError(f"a {num_sides}-sided game needs seatings=... in its stratbench marker")
    pairings: list[tuple[AgentSpec, AgentSpec]] = []
    for subject in subjects:
        for name in suite.opponents:
            pairings.append((subject, AgentSpec(kind=name)))
    if suite.round_robin:
        llm_subjects = [
            s for s in subjects if s.uses_llm and (s.label not in limits or limits[s.label].round_robin)
        ]
        pairings.extend(combinations(llm_subjects, 2))
    for subject, opponent in pairings:
        pairing_count = min(count_for(subject), count_for(opponent))
        for variant, skip in forms:
            if not (plays(subject, variant) and plays(opponent, variant)):
                continue
            for i in range(pairing_count):
                seed = base_seed + i
                native = _subject_first(suite.seats, i, pairing_count, seed)
                for subject_first in ((True, False) if pairs else (native,)):
                    sides = (subject, opponent) if subject_first else (opponent, subject)
                    seat = _seat_tag(suite.seats, subject_first, native)
                    form = "-".join(part for part in (variant, seat) if part) or None
                    specs.append(
                        MatchSpec(
                            game=suite.game,
                            sides=sides,
                            subject=0 if subject_first else 1,
                            seed=seed,
                            id=_id(f"{subject.label}-vs-{opponent.label}", form, seed),
                            variant=variant,
                            skip=skip,
                        )
                    )
    return sorted(specs, key=_seat_blind_order if suite.seats == "half" or pairs else _order)


def with_obfuscations(specs: list[MatchSpec], renamings: list[Obfuscation]) -> list[MatchSpec]:
    """Puts beside each match one more per renaming: the same sides, seed, variant and seating, its id
    ending ``-`` + the renaming's tag (``…-s0-obf-mystery-s7``), so it has its own cassette.

    Examples:
        >>> from stratbench.core.agent import AgentSpec
        >>> spec = MatchSpec("g", (AgentSpec(kind="random"),), 0, 3, "random-s3")
        >>> [s.id for s in with_obfuscations([spec], [Obfuscation("mystery", 7)])]
        ['random-s3', 'random-s3-obf-mystery-s7']
    """
    expanded = []
    for spec in specs:
        expanded.append(spec)
        expanded.extend(replace(spec, id=f"{spec.id}-{renaming.tag}", obfuscation=renaming.spec())
                        for renaming in renamings)
    return expanded


def from_book(spec: MatchSpec) -> MatchSpec:
    """The match started from its seed's book position (``--openings book``): its id ends ``-book``, so it has
    its own cassette and never pairs with a match from the game's own start.

    Examples:
        >>> from stratbench.core.agent import AgentSpec
        >>> from_book(MatchSpec("tictactoe", (AgentSpec(kind="random"),) * 2, 0, 3, "random-vs-random-s3")).id
        'random-vs-random-s3-book'
    """
    return replace(spec, id=f"{spec.id}-book", openings="book")


def _seat_tag(policy: str, subject_first: bool, native: bool) -> str | None:
    """The id's seat tag: none for the seating the policy gives the seed (``"half"``: the subject first)."""
    if policy == "half":
        return None if subject_first else SECOND_SEAT_TAG
    if subject_first == native:
        return None
    return FIRST_SEAT_TAG if subject_first else SECOND_SEAT_TAG


def _id(who: str, form: str | None, seed: int) -> str:
    """``who-form-sN``: the form is the variant and, under ``seats="half"``, the seat tag."""
    return f"{who}-{form}-s{seed}" if form else f"{who}-s{seed}"


def _order(spec: MatchSpec) -> tuple[str, int]:
    return (spec.id.rsplit("-s", 1)[0], spec.seed)


def _seat_blind_order(spec: MatchSpec) -> tuple[str, int, int]:
    """Orders matches by seed, as if the seat tag were not in their id (``seats="half"``, pairs)."""
    prefix, seed = _order(spec)
    for tag in (SECOND_SEAT_TAG, FIRST_SEAT_TAG):
        prefix = prefix.removesuffix(f"-{tag}")
    return prefix, seed, spec.subject


def _subject_first(policy: str, index: int, count: int, seed: int) -> bool:
    """Whether the policy seats the subject first: ``"half"`` by the match's place, else by its seed's parity."""
    if policy == "half":
        return index >= count // 2
    return seed % 2 == 0
