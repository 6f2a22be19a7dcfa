"""Diplomacy: seven powers, simultaneous orders, negotiation (SPIN-Bench §6).

The rules engine is the DATC-compliant ``diplomacy`` package (Paquette et
al., 2020) on the standard map. Player ``i`` is the ``i``-th power in
alphabetical order (AUSTRIA ... TURKEY), each its own side. Every phase, the
powers that can order act together with one open-ended answer, ``orders``:
SPIN-Bench's JSON ``{"orders": {"FRANCE": ["A PAR - BUR", ...]}}``. Each
order is checked against the engine's possible orders: valid orders are kept,
invalid ones are dropped (the unit then holds, as in SPIN-Bench, where the
engine ignores invalid orders) and recorded with the reason; only a reply
with no readable ``orders`` JSON is rejected and retried.

With negotiation on (game ``diplomacy``), each movement phase opens with
``rounds`` negotiation rounds (default 3) held by the match runner; game
``diplomacy-nopress`` has none (SPIN-Bench's basic-skill setting). A game
ends with a solo victory (18 supply centers, the engine's rule) or after the
last year of its variant: ``to1905`` (the default) plays every phase of 1905.
A side's score is the number of supply centers its power owns at the end
(0-34). The variant ``to<YEAR>[-r<ROUNDS>]`` sets the last year and the
negotiation rounds; the variants a suite runs default to
``$STRATBENCH_DIPLOMACY_END_YEAR`` and ``$STRATBENCH_DIPLOMACY_ROUNDS``.

``protocol="paper"`` plays SPIN-Bench's released code (see
:mod:`stratbench.games.spin.paper_protocols.diplomacy`): the seating's groups
(:func:`paper_groups`) make one agent per group, which acts and negotiates
for all its powers through the group's first player with SPIN-Bench's
multi-power prompts; the game runs to 1920 and ends when a group's summed
supply centres reach 25 (2 agents), 20 (3) or 18. Scores stay per power.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from dataclasses import replace
from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.messages import Negotiation, NegotiationTurn
from stratbench.core.types import Action, ActionParseError, Asking, IllegalActionError, Observation, Rules
from stratbench.games.spin import diplomacy_text as text
from stratbench.registry import Variant

__all__ = [
    "ANSWER_FORMAT", "DROPPED_ORDER_SET", "Diplomacy", "DiplomacyNoPress", "DiplomacyState", "INSTALL_HINT", "ORDERS_PROMPT", "POWERS", "RULES",
    "PAPER", "PAPER_ANSWER_FORMAT", "PAPER_END_YEAR", "PAPER_OPPONENTS", "PAPER_THRESHOLDS",
    "engine_available", "extract_orders", "groups_from_history", "paper_groups", "parse_variant", "random_orders",
    "validate_orders", "variant_name", "variants",
]

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
INSTALL_HINT = "Diplomacy needs the diplomacy engine: pip install 'pytest-stratbench[diplomacy]'"
END_YEAR_ENV = "STRATBENCH_DIPLOMACY_END_YEAR"
ROUNDS_ENV = "STRATBENCH_DIPLOMACY_ROUNDS"
DEFAULT_END_YEAR = 1905
DEFAULT_ROUNDS = 3
FIRST_YEAR = 1901
MAX_CHARS = 2000
_VARIANT = re.compile(r"^to(\d{4})(?:-r(\d+))?$")
ORDERS_PROMPT = (
    'A JSON object {"orders": {"<YOUR POWER>": ["A PAR - BUR", ...]}} with one order per orderable location, '
    "each chosen from the possible orders."
)
ANSWER_FORMAT = (
    'Reply with the JSON object in the format given above, with your orders as "orders": {"<YOUR POWER>": '
    '["A PAR - BUR", ...]}, one order per orderable location, each chosen from the possible orders.'
)
"""The answer format a retry repeats: the first prompt's JSON, whose ``orders`` the game reads."""
DROPPED_ORDER_SET = "the whole order set (no readable answer): the units hold"
PAPER = "paper"
PAPER_END_YEAR = 1920
PAPER_OPPONENTS = ("diplomacy-opponent-1", "diplomacy-opponent-2", "diplomacy-opponent-3", "diplomacy-opponent-4")
"""Seat names of the paper protocol's LLM opponents: seats with the same name are one agent (Table 6)."""
NEUTRAL_SEAT = "hold"
"""The seat name of SPIN-Bench's neutral powers (the basic-skill game)."""
PAPER_THRESHOLDS = {2: 25, 3: 20}
"""Supply centres an agent needs, summed over its powers, by the number of agents (SPIN-Bench's scripts); else 18."""
SOLO_CENTERS = 18
PAPER_MAX_MESSAGES = 64
PAPER_MAX_CHARS = 10_000
PAPER_ANSWER_FORMAT = (
    'Reply with the JSON object in the format given above, with "orders" keyed by each power you play: '
    '{"orders": {"<POWER>": ["A PAR - BUR", ...], ...}}, one order per orderable location, each chosen from the '
    "possible orders."
)
"""The answer format a paper-protocol retry repeats."""
RULES = Rules(title="Diplomacy", summary=text.RULES_SUMMARY)
_ROLES = dict(enumerate(POWERS))


def variant_name(end_year: int = DEFAULT_END_YEAR, rounds: int = DEFAULT_ROUNDS) -> str:
    """Returns the variant name for a last year and a number of negotiation rounds (``to1905``)."""
    return f"to{end_year}" if rounds == DEFAULT_ROUNDS else f"to{end_year}-r{rounds}"


def parse_variant(variant: str | None, default_end_year: int = DEFAULT_END_YEAR) -> tuple[int, int]:
    """Returns ``(end_year, rounds)`` for a variant name (None: the defaults).

    Raises:
        ValueError: for a malformed name, a year before 1901 or zero rounds.
    """
    if variant is None:
        return default_end_year, DEFAULT_ROUNDS
    match = _VARIANT.match(variant)
    if match is None:
        raise ValueError(f"unknown Diplomacy variant {variant!r}; expected to<YEAR>[-r<ROUNDS>], e.g. to1905")
    end_year, rounds = int(match.group(1)), int(match.group(2) or DEFAULT_ROUNDS)
    if end_year < FIRST_YEAR or rounds < 1:
        raise ValueError(f"Diplomacy variant {variant!r}: the last year must be >= 1901 and rounds >= 1")
    return end_year, rounds


class DiplomacyState(State):
    """A game in progress; wraps a ``diplomacy.Game`` and logs every processed phase.

    ``phase_log`` holds one entry per processed phase: its name and type, the
    units at its start, the orders kept and dropped per power, the engine's
    result per unit and the supply centers after it. Metrics rebuild it by
    replaying a match's history.
    """

    def __init__(self, game: Diplomacy) -> None:
        super().__init__(game)
        self.engine = _import_engine().Game()
        self.phase_log: list[dict[str, Any]] = []
        self._cache: dict[str, Any] = {}
        self.groups: tuple[tuple[int, ...], ...] = tuple((i,) for i in range(len(POWERS)))
        """The players one agent plays together (paper protocol); one power each otherwise."""
        self.neutral: tuple[int, ...] = ()
        """The neutral powers' players (paper protocol's basic-skill game), named in its prompts."""

    def seat(self, seating: tuple[str, ...]) -> None:
        """Groups the powers one agent plays (paper protocol only; see :func:`paper_groups`)."""
        if self.game.paper:
            self.set_groups(paper_groups(seating), tuple(i for i, t in enumerate(seating) if t == NEUTRAL_SEAT))

    def set_groups(self, groups: tuple[tuple[int, ...], ...], neutral: tuple[int, ...] = ()) -> None:
        """Sets the agents' power groups: each group acts, negotiates and wins as one."""
        if sorted(p for g in groups for p in g) != list(range(len(POWERS))):
            raise ValueError(f"power groups {groups} must hold every power once")
        self.groups = tuple(sorted(tuple(sorted(g)) for g in groups))
        self.neutral = tuple(neutral)
        self.engine.victory = [max(self.threshold, SOLO_CENTERS)]

    @property
    def threshold(self) -> int:
        """Returns the supply centres an agent needs to win (summed over its powers)."""
        if not self.game.paper:
            return SOLO_CENTERS
        return PAPER_THRESHOLDS.get(len(self.groups), SOLO_CENTERS)

    def group_of(self, player: int) -> tuple[int, ...]:
        """Returns the players of ``player``'s group (its agent's powers)."""
        return next(g for g in self.groups if player in g)

    def group_centers(self) -> dict[tuple[int, ...], int]:
        """Returns each group's supply centres, summed over its powers."""
        centers = self.supply_centers()
        return {g: sum(centers[POWERS[p]] for p in g) for g in self.groups}
    @property
    def phase(self) -> str:
        """Returns the engine's phase name (``S1901M``, ``F1901R``, ``W1901A``, ``COMPLETED``)."""
        return self.engine.get_current_phase()

    def engine_state(self) -> dict[str, Any]:
        """Returns the engine's ``get_state()`` for this phase (cached)."""
        if "state" not in self._cache:
            self._cache["state"] = self.engine.get_state()
        return self._cache["state"]

    def possible_orders(self, power: str) -> dict[str, list[str]]:
        """Returns ``{location: sorted possible orders}`` for ``power``'s orderable locations."""
        if "possible" not in self._cache:
            self._cache["possible"] = self.engine.get_all_possible_orders()
        every = self._cache["possible"]
        return {loc: sorted(every[loc]) for loc in sorted(self.engine.get_orderable_locations(power)) if every[loc]}

    def build_count(self, power: str) -> int:
        """Returns the builds (positive) or disbands (negative) ``power`` has this phase."""
        if self.engine.phase_type != "A":
            return 0
        return int((self.engine_state()["builds"].get(power) or {}).get("count", 0))

    def supply_centers(self) -> dict[str, int]:
        """Returns the number of supply centers each power owns."""
        return {p: len(self.engine.powers[p].centers) for p in POWERS}

    def winners(self) -> list[str]:
        """Returns the powers the engine declared winners (empty until a solo victory)."""
        return list(self.engine.outcome[1:]) if self.engine.is_game_done else []

    def negotiation(self) -> Negotiation | None:
        """Returns the negotiation before a movement phase, when this game negotiates.

        In the paper protocol each agent talks once per round for all its
        powers (its group's first player), within generous limits.
        """
        if not self.game.press or self.is_terminal() or self.engine.phase_type != "M":
            return None
        alive = self.alive()
        if self.game.paper:
            leads = tuple(g[0] for g in self.groups if any(p in alive for p in g))
            return Negotiation(self.phase, leads, rounds=self.game.rounds, max_messages=PAPER_MAX_MESSAGES,
                               max_chars=PAPER_MAX_CHARS)
        return Negotiation(self.phase, alive, rounds=self.game.rounds, max_messages=len(alive), max_chars=MAX_CHARS)

    def alive(self) -> tuple[int, ...]:
        """Returns the players whose power is not eliminated (the negotiation's participants)."""
        return tuple(i for i, p in enumerate(POWERS) if not self.engine.powers[p].is_eliminated())

    def _current_players(self) -> list[int]:
        if self.game.paper:
            return [g[0] for g in self.groups if any(self.possible_orders(POWERS[p]) for p in g)]
        return [i for i, p in enumerate(POWERS) if self.possible_orders(p)]

    def fallback_action(self, player: int, rng: random.Random) -> Action:
        """Returns random possible orders: the ``random-orders`` baseline's choice, drawn with ``rng``."""
        orders = {
            POWERS[p]: random_orders(self.possible_orders(POWERS[p]), self.engine.phase_type,
                                     self.build_count(POWERS[p]), rng)
            for p in self._acting_for(player)
        }
        return Action("orders", json.dumps({"orders": orders}))

    def _acting_for(self, player: int) -> tuple[int, ...]:
        """Returns the players a decision of ``player`` orders for (its group in the paper protocol)."""
        return self.group_of(player) if self.game.paper else (player,)

    def pass_action(self, player: int) -> Action:
        """Returns an empty order set, marked dropped: the power's units hold (the ``drop`` fallback).

        The engine treats a power without orders as SPIN-Bench's does: units
        hold, a dislodged unit is disbanded, owed disbands are chosen by the
        engine's civil-disorder rule, builds are waived.
        """
        if self.game.paper:
            powers = [POWERS[p] for p in self.group_of(player)]
            return Action("orders", json.dumps({"orders": {p: [] for p in powers},
                                                "dropped": {p: [DROPPED_ORDER_SET] for p in powers}}))
        power = POWERS[player]
        return Action("orders", json.dumps({"orders": {power: []}, "dropped": [DROPPED_ORDER_SET]}))

    def _legal_actions(self, player: int) -> list[str]:
        return []

    def _open_ended(self, player: int) -> dict[str, str]:
        return {"orders": ORDERS_PROMPT.replace("<YOUR POWER>", POWERS[player])}

    def _apply(self, actions: dict[int, Action]) -> None:
        if self.game.paper:
            decided = {POWERS[p]: kept for lead, a in sorted(actions.items())
                       for p, kept in self._decided_group(lead, a.response or "").items()}
        else:
            decided = {POWERS[p]: self._decided(p, a.response or "") for p, a in sorted(actions.items())}
        entry: dict[str, Any] = {
            "phase": self.phase,
            "type": self.engine.phase_type,
            "units": {p: sorted(self.engine.powers[p].units) for p in POWERS},
            "orders": {p: kept for p, (kept, _) in decided.items()},
            "dropped": {p: dropped for p, (_, dropped) in decided.items() if dropped},
        }
        for power, (kept, _) in decided.items():
            self.engine.set_orders(power, kept)
        self.engine.process()
        self._cache.clear()
        results = self.engine.result_history.get(entry["phase"]) or {}
        entry["results"] = {str(unit): sorted(str(r) for r in codes) for unit, codes in sorted(results.items())}
        entry["centers"] = {p: sorted(self.engine.powers[p].centers) for p in POWERS}
        self.phase_log.append(entry)

    def outcome(self, player: int) -> tuple[str, bool]:
        """Returns the results of the phases since ``player``'s powers last ordered, and whether they went badly.

        Per phase: the powers' orders, the engine's result for each of their
        units that did not simply succeed, the dropped orders and the supply
        centres before and after. Bad: an order bounced, was cut, void or
        dropped, a unit was dislodged, or a supply centre was lost. Empty (not
        bad) before the powers' first orders.
        """
        powers = [POWERS[p] for p in self._acting_for(player)]
        ordered = [i for i, entry in enumerate(self.phase_log) if any(p in entry["orders"] for p in powers)]
        if not ordered:
            return "", False
        lines, bad = [], False
        for index in range(ordered[-1], len(self.phase_log)):
            entry = self.phase_log[index]
            before = self.phase_log[index - 1]["centers"] if index else None
            for power in powers:
                units = entry["units"].get(power, [])
                failed = {u: entry["results"][u] for u in units if entry["results"].get(u)}
                dropped = entry.get("dropped", {}).get(power, [])
                now = len(entry["centers"][power])
                then = now if before is None else len(before[power])
                text = f"{entry['phase']} {power}: orders {', '.join(entry['orders'].get(power, [])) or 'none'}"
                if failed:
                    text += "; " + "; ".join(f"{u}: {', '.join(r)}" for u, r in failed.items())
                if dropped:
                    text += f"; {len(dropped)} order(s) dropped"
                lines.append(f"{text}; supply centres {then} -> {now}")
                bad = bad or bool(failed) or bool(dropped) or now < then
        return "Since your last orders:\n" + "\n".join(f"- {line}" for line in lines), bad

    def _decided_group(self, lead: int, reply: str) -> dict[int, tuple[list[str], list[str]]]:
        """Returns each group power's valid and dropped orders; an unreadable set (without the runner) holds."""
        try:
            return self.game.normalise_group(self, lead, reply)
        except (ActionParseError, IllegalActionError) as error:
            return {p: ([], [f"unreadable order set ({error})"]) for p in self.group_of(lead)}

    def _decided(self, player: int, reply: str) -> tuple[list[str], list[str]]:
        """Returns the valid and dropped orders; an unreadable set (applied without the runner) holds."""
        try:
            return self.game.normalise(self, player, reply)
        except (ActionParseError, IllegalActionError) as error:
            return [], [f"unreadable order set ({error})"]

    def _is_terminal(self) -> bool:
        if self.game.paper and self.winning_group() is not None:
            return True
        return self.engine.is_game_done or _year(self.phase) > self.game.end_year

    def winning_group(self) -> tuple[int, ...] | None:
        """Returns the group whose summed supply centres reached the threshold (paper protocol), or None."""
        reached = [g for g, n in self.group_centers().items() if n >= self.threshold]
        return reached[0] if reached else None

    def _scores(self) -> list[float]:
        centers = self.supply_centers()
        return [float(centers[p]) for p in POWERS]

    def _terminal_reason(self) -> str:
        group = self.winning_group() if self.game.paper else None
        if group is not None:
            names = "+".join(POWERS[p] for p in group)
            return f"threshold reached: {names} hold {self.group_centers()[group]} supply centers (>= {self.threshold})"
        winners = self.winners()
        if winners:
            return f"solo victory: {', '.join(winners)}"
        return f"year limit: the game ended after {self.game.end_year}"

    def __deepcopy__(self, memo: dict[int, Any]) -> DiplomacyState:
        clone = object.__new__(DiplomacyState)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, value if key == "game" else copy.deepcopy(value, memo))
        return clone

    def __str__(self) -> str:
        return f"{self.phase}: " + "; ".join(f"{p} {n} SC" for p, n in self.supply_centers().items())


class Diplomacy(Game):
    """The standard seven-power Diplomacy game with negotiation before movement phases.

    Args:
        variant: ``to<YEAR>[-r<ROUNDS>]``: the last year played and the
            negotiation rounds per movement phase (default ``to1905``, 3 rounds;
            ``to1920`` in the paper protocol).
        protocol: ``"default"`` or ``"paper"``: SPIN-Bench's released wording,
            one agent for several powers (the seating's groups), the paper's
            negotiation JSON with ``GLOBAL``, and its win thresholds.
    """

    press = True
    rules = RULES

    def __init__(self, variant: str | None = None, protocol: str = "default", end_year: int | None = None) -> None:
        """Builds the game.

        Args:
            variant: ``to<YEAR>[-r<ROUNDS>]``; None: the protocol's default.
            protocol: ``default`` or ``paper``.
            end_year: A last year earlier than the variant's, to shorten a game
                (the reference recordings); recorded in the match's ``game_options``.
        """
        if protocol not in ("default", PAPER):
            raise ValueError(f"unknown Diplomacy protocol {protocol!r}; expected 'default' or 'paper'")
        self.protocol = protocol
        self.paper = protocol == PAPER
        self.end_year, self.rounds = parse_variant(variant, PAPER_END_YEAR if self.paper else DEFAULT_END_YEAR)
        if end_year is not None:
            if not isinstance(end_year, int) or not FIRST_YEAR <= end_year <= self.end_year:
                raise ValueError(f"end_year must be a year from {FIRST_YEAR} to {self.end_year}, got {end_year!r}")
            self.end_year = end_year
        self.info = GameInfo(
            name="diplomacy" if self.press else "diplomacy-nopress",
            num_players=len(POWERS),
            sides=tuple((i,) for i in range(len(POWERS))),
            max_turns=5 * (self.end_year - FIRST_YEAR + 1) + 5,
            simultaneous=True,
            chance=False,
            hidden_information=True,
            score_range=(0.0, 34.0),
            score_sum=None,
            family="spin",
        )

    def new_initial_state(self, seed: int) -> DiplomacyState:
        """Returns Spring 1901 (the game has no chance: ``seed`` only seeds the agents)."""
        return DiplomacyState(self)

    def role(self, player: int) -> str:
        """Returns the power's name (``"FRANCE"``)."""
        return POWERS[player]

    def snapshot(self, state: State) -> dict[str, Any]:
        """The phase, each power's units, dislodged units and supply centres, and a text summary (replay)."""
        assert isinstance(state, DiplomacyState)
        engine = state.engine_state()
        units = {power: list(engine["units"].get(power, [])) for power in POWERS}
        centers = {power: list(engine["centers"].get(power, [])) for power in POWERS}
        retreats = {power: sorted(engine.get("retreats", {}).get(power, {})) for power in POWERS}
        lines = [state.phase]
        lines += [f"{power} ({len(centers[power])} centres): {', '.join(units[power]) or 'no units'}"
                  for power in POWERS]
        return {"phase": state.phase, "units": units, "retreats": retreats, "centers": centers,
                "text": "\n".join(lines)}

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns no facts: orders are given simultaneously and resolved at once, so no state holds
        another power's orders; the private press it hides is checked by the message test."""
        return []

    def observe(self, state: State, player: int) -> Observation:
        """Returns the E.3 state description and SPIN-Bench's order prompt for this phase."""
        assert isinstance(state, DiplomacyState)
        if self.paper:
            return self._paper_observe(state, player)
        power = POWERS[player]
        state_text = text.state_description(state.engine_state(), state.phase, list(POWERS))
        possible = state.possible_orders(power) if not state.is_terminal() else {}
        mine = [m.to_dict() for m in state.messages.visible_to(player) if m.phase == state.phase]
        prompt = self._order_prompt(state, power, state_text, possible, text.message_lines(mine, _ROLES))
        outcome, negative = state.outcome(player)
        observation = self._view(state, player, state_text, possible, prompt if possible else None,
                                 state.open_ended(player))
        return replace(observation, outcome=outcome, outcome_negative=negative)

    def observe_negotiation(self, state: State, player: int, turn: NegotiationTurn) -> Observation:
        """Returns SPIN-Bench's negotiation prompt for ``turn``'s round (no action to take)."""
        assert isinstance(state, DiplomacyState)
        if self.paper:
            return self._paper_negotiation(state, player, turn)
        power = POWERS[player]
        state_text = text.state_description(state.engine_state(), state.phase, list(POWERS))
        possible = state.possible_orders(power) if not state.is_terminal() else {}
        mine = [m.to_dict() for m in state.messages.visible_to(player) if m.phase == turn.phase]
        prompt = text.negotiation_prompt(
            power=power, others=list(turn.recipients.values()), round_=turn.round, rounds=turn.rounds,
            state_text=state_text,
            earlier=text.message_lines([m for m in mine if m["round"] < turn.round - 1], _ROLES),
            last_round=text.message_lines([m for m in mine if m["round"] == turn.round - 1], _ROLES),
            possible=repr({power: [{loc: orders} for loc, orders in possible.items()]}),
            max_messages=turn.max_messages, max_chars=turn.max_chars,
        )
        return self._view(state, player, state_text, possible, prompt, {})

    def _view(
        self, state: DiplomacyState, player: int, state_text: str, possible: dict[str, list[str]],
        prompt: str | None, open_ended: dict[str, str],
    ) -> Observation:
        power = POWERS[player]
        engine_state = state.engine_state()
        return Observation(
            game=self.info.name,
            player=player,
            text=state_text,
            legal_actions=(),
            rules=RULES,
            open_ended=open_ended,
            role=power,
            turn=state.turn,
            data={
                "power": power,
                "phase": state.phase,
                "phase_type": state.engine.phase_type,
                "possible_orders": possible,
                "build_count": state.build_count(power),
                "units": {p: sorted(engine_state["units"].get(p) or []) for p in POWERS},
                "centers": {p: sorted(engine_state["centers"].get(p) or []) for p in POWERS},
            },
            asking=Asking(
                instructions=ORDERS_PROMPT.replace("<YOUR POWER>", power),
                answer_format=ANSWER_FORMAT.replace("<YOUR POWER>", power),
                prompt=prompt,
                system_prompt=text.SYSTEM_PROMPT,
            ),
        )

    def _order_prompt(
        self, state: DiplomacyState, power: str, state_text: str, possible: dict[str, list[str]], messages: str
    ) -> str:
        kind = state.engine.phase_type
        if kind == "M":
            units = [u.split(" ", 1)[1] for u in sorted(state.engine.powers[power].units)]
            adjacency = [{loc: sorted({a.upper() for a in state.engine.map.abut_list(loc)})} for loc in units]
            return text.movement_prompt(
                power=power, state_text=state_text, adjacency=repr(adjacency),
                possible=repr({power: [{loc: orders} for loc, orders in possible.items()]}), messages=messages,
            )
        builder = text.retreat_prompt if kind == "R" else text.winter_prompt
        return builder(power=power, state_text=state_text, possible=repr({power: possible}))

    # -- the paper protocol's views ------------------------------------------------

    def _paper_text(self, state: DiplomacyState) -> str:
        return text.paper_state_description(state.engine_state(), state.phase, list(POWERS),
                                            [POWERS[p] for p in state.neutral])

    def _paper_possible(self, state: DiplomacyState, powers: list[str]) -> dict[str, dict[str, list[str]]]:
        if state.is_terminal():
            return {p: {} for p in powers}
        return {p: state.possible_orders(p) for p in powers}

    def _paper_last_round(self, state: DiplomacyState, player: int, phase: str, round_: int) -> str:
        """Returns the lines of the messages sent to ``player``'s powers (or to all) in ``round_`` of ``phase``."""
        heard = [m.to_dict() for m in state.messages.visible_to(player)
                 if m.phase == phase and m.round == round_ and m.sender != player]
        return text.paper_message_lines(heard)

    def _paper_view(
        self, state: DiplomacyState, player: int, state_text: str, prompt: str | None, *, negotiation: bool
    ) -> Observation:
        group = state.group_of(player)
        powers = [POWERS[p] for p in group]
        possible = self._paper_possible(state, powers)
        observation = self._view(state, player, state_text, possible[POWERS[player]], prompt,
                                 {} if negotiation else state.open_ended(player))
        data = {
            **observation.data,
            "powers": powers,
            "possible_orders_by_power": possible,
            "build_counts": {p: state.build_count(p) for p in powers},
            "leads": {POWERS[p]: g[0] for g in state.groups for p in g},
        }
        return replace(observation, data=data, role="+".join(powers)).with_asking(
            system_prompt=None,
            answer_parser="diplomacy-paper-messages" if negotiation else "diplomacy-paper-orders",
            conversation=state.phase, answer_format=PAPER_ANSWER_FORMAT,
        )

    def _paper_observe(self, state: DiplomacyState, player: int) -> Observation:
        powers = [POWERS[p] for p in state.group_of(player)]
        state_text = self._paper_text(state)
        possible = self._paper_possible(state, powers)
        kind = state.engine.phase_type
        prompt: str | None = None
        if any(possible.values()):
            if kind == "M":
                units = [u.split(" ", 1)[1] for p in powers for u in sorted(state.engine.powers[p].units)]
                adjacency = [{loc: sorted({a.upper() for a in state.engine.map.abut_list(loc)})} for loc in units]
                held = state.phase in state.messages.held
                last = self._paper_last_round(state, player, state.phase, self.rounds) if held else None
                prompt = text.paper_movement_prompt(
                    powers=powers, state_text=state_text, adjacency=repr(adjacency),
                    possible=repr({p: [{loc: o} for loc, o in possible[p].items()] for p in powers}),
                    last_round=last,
                )
            else:
                prompt = text.paper_adjustment_prompt(kind=kind, powers=powers, state_text=state_text,
                                                      possible=repr(possible))
        outcome, negative = state.outcome(player)
        observation = self._paper_view(state, player, state_text, prompt, negotiation=False)
        return replace(observation, outcome=outcome, outcome_negative=negative)

    def _paper_negotiation(self, state: DiplomacyState, player: int, turn: NegotiationTurn) -> Observation:
        group = state.group_of(player)
        powers = [POWERS[p] for p in group]
        state_text = self._paper_text(state)
        possible = self._paper_possible(state, powers)
        others = [p for i, p in enumerate(POWERS) if i not in group and i not in state.neutral]
        prompt = text.paper_negotiation_prompt(
            powers=powers, others=others, round_=turn.round, rounds=turn.rounds, state_text=state_text,
            possible=repr({p: [{loc: o} for loc, o in possible[p].items()] for p in powers}),
            last_round=None if turn.round == 1 else self._paper_last_round(state, player, turn.phase, turn.round - 1),
            neutral=[POWERS[p] for p in state.neutral],
        )
        return self._paper_view(state, player, state_text, prompt, negotiation=True)

    def normalise_group(self, state: DiplomacyState, lead: int, reply: str) -> dict[int, tuple[list[str], list[str]]]:
        """Returns the valid and dropped orders of each power of ``lead``'s group (paper protocol).

        ``orders`` must be a JSON object keyed by power; a power it leaves
        out orders nothing (its units hold).

        Raises:
            ActionParseError: when the reply has no JSON object whose ``orders`` is keyed by power.
            IllegalActionError: when ``orders`` names a power the agent does not play.
        """
        group = state.group_of(lead)
        powers = [POWERS[p] for p in group]
        found, carried = _orders_object(reply)
        if not isinstance(found, dict):
            raise ActionParseError(
                f'No JSON object whose "orders" is keyed by power was found. Reply with a JSON object such as '
                f'{{"orders": {{"{powers[0]}": ["A PAR - BUR", "F BRE H"]}}}}, one list for each of {powers}.'
            )
        by_power = {str(k).strip().upper(): v for k, v in found.items()}
        foreign = sorted(set(by_power) - set(powers))
        if foreign:
            raise IllegalActionError(f'"orders" names {foreign}, which you do not play; you play {powers}')
        decided: dict[int, tuple[list[str], list[str]]] = {}
        for player, power in zip(group, powers):
            raw = by_power.get(power, [])
            raw = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
            orders = [o for o in raw if isinstance(o, str)]
            dropped = [d for d in carried.get(power, []) if isinstance(d, str)]
            dropped += [f"{o!r} (not an order string)" for o in raw if not isinstance(o, str)]
            kept, invalid = validate_orders(orders, state.possible_orders(power), state.engine.phase_type,
                                            state.build_count(power))
            decided[player] = (kept, dropped + invalid)
        return decided

    def check_open_ended(self, state: State, player: int, action: Action) -> Action:
        """Reads an order set and keeps its valid orders (see :meth:`normalise`)."""
        assert isinstance(state, DiplomacyState)
        if self.paper:
            decided = self.normalise_group(state, player, action.response or "")
            orders = {POWERS[p]: kept for p, (kept, _) in decided.items()}
            dropped = {POWERS[p]: lost for p, (_, lost) in decided.items()}
            return Action("orders", json.dumps({"orders": orders, "dropped": dropped}, separators=(",", ":")))
        kept, dropped = self.normalise(state, player, action.response or "")
        return Action("orders", json.dumps({"orders": kept, "dropped": dropped}, separators=(",", ":")))

    def normalise(self, state: DiplomacyState, player: int, reply: str) -> tuple[list[str], list[str]]:
        """Returns the valid orders of a reply and the dropped ones, each with the reason.

        Raises:
            ActionParseError: when the reply has no JSON object with ``orders``.
            IllegalActionError: when ``orders`` is keyed by powers but not this one.
        """
        power = POWERS[player]
        orders, dropped = extract_orders(reply, power)
        kept, invalid = validate_orders(orders, state.possible_orders(power), state.engine.phase_type,
                                        state.build_count(power))
        return kept, dropped + invalid


class DiplomacyNoPress(Diplomacy):
    """Diplomacy without negotiation (SPIN-Bench's basic-skill setting)."""

    press = False


# -- order sets ---------------------------------------------------------------------


def extract_orders(reply: str, power: str) -> tuple[list[str], list[str]]:
    """Reads ``power``'s order list from a reply's last JSON object with ``orders``.

    ``orders`` may be a list or a dict keyed by power (case-insensitive). When
    no complete JSON object has it (SPIN-Bench's own template misses a comma),
    the last readable value after ``"orders":`` is used. Entries that are not
    strings, and a normalised answer's own ``dropped`` list, come back as
    dropped.
    """
    found, carried = None, []
    for candidate in reversed(_json_objects(reply)):
        key = next((k for k in candidate if str(k).lower() == "orders"), None)
        if key is not None:
            found = candidate[key]
            carried = [d for d in candidate.get("dropped") or [] if isinstance(d, str)]
            break
    if found is None:
        found = _orders_value(reply)
    if found is None:
        raise ActionParseError(
            f'No JSON object with an "orders" key was found. Reply with a JSON object such as '
            f'{{"orders": {{"{power}": ["A PAR - BUR", "F BRE H"]}}}}, choosing each order from the possible orders.'
        )
    if isinstance(found, dict):
        by_power = {str(k).strip().upper(): v for k, v in found.items()}
        if power not in by_power and by_power:
            raise IllegalActionError(
                f'"orders" has no entry for {power}, the power you play: write {{"orders": {{"{power}": [...]}}}}'
            )
        found = by_power.get(power, [])
    if isinstance(found, str):
        found = [found]
    if not isinstance(found, list):
        raise ActionParseError(f'"orders" must be a list of order strings for {power}')
    orders = [o for o in found if isinstance(o, str)]
    dropped = carried + [f"{o!r} (not an order string)" for o in found if not isinstance(o, str)]
    return orders, dropped


def _orders_object(reply: str) -> tuple[Any, dict[str, list[Any]]]:
    """Returns the last ``orders`` value of a reply and its ``dropped`` map (a normalised answer's), by power."""
    for candidate in reversed(_json_objects(reply)):
        key = next((k for k in candidate if str(k).lower() == "orders"), None)
        if key is not None:
            carried = candidate.get("dropped")
            return candidate[key], carried if isinstance(carried, dict) else {}
    return _orders_value(reply), {}


def paper_groups(seating: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Returns the powers each agent plays in a paper seating.

    The ``"subject"`` seats are one agent, seats with the same opponent name
    (:data:`PAPER_OPPONENTS`) are one agent, and every other seat (a neutral
    or baseline power) is its own.

    Raises:
        ValueError: when the seating does not have one entry per power.
    """
    if len(seating) != len(POWERS):
        raise ValueError(f"a Diplomacy seating needs {len(POWERS)} entries, got {len(seating)}")
    shared: dict[str, list[int]] = {}
    groups: list[tuple[int, ...]] = []
    for player, token in enumerate(seating):
        if token == "subject" or token in PAPER_OPPONENTS:
            shared.setdefault(token, []).append(player)
        else:
            groups.append((player,))
    groups += [tuple(players) for players in shared.values()]
    return tuple(sorted(groups))


def groups_from_history(history: list[dict[Any, str]]) -> tuple[tuple[int, ...], ...]:
    """Recovers a paper match's power groups from its first joint action (every agent orders in S1901M)."""
    if not history:
        return tuple((i,) for i in range(len(POWERS)))
    groups = []
    for player, text_ in sorted(history[0].items(), key=lambda item: int(item[0])):
        orders = json.loads(Action.from_text(text_).response or "{}").get("orders")
        powers = orders if isinstance(orders, dict) else {POWERS[int(player)]: orders}
        groups.append(tuple(sorted(POWERS.index(p) for p in powers)))
    listed = {p for g in groups for p in g}
    groups += [(i,) for i in range(len(POWERS)) if i not in listed]
    return tuple(sorted(groups))


def random_orders(
    possible: dict[str, list[str]], phase_type: str, build_count: int, rng: random.Random
) -> list[str]:
    """Returns one uniformly random possible order per location, within the adjustment count in winter.

    In an adjustment phase, ``abs(build_count)`` random locations (at most all
    of them) get an order: a build or ``WAIVE`` each, or a disband.
    """
    locations = sorted(possible)
    if phase_type == "A":
        count = min(abs(build_count), len(locations))
        locations = sorted(rng.sample(locations, count))
    return [rng.choice(possible[loc]) for loc in locations]


def _orders_value(reply: str) -> Any:
    """Returns the last readable value written after ``"orders":`` (for replies whose outer JSON is broken)."""
    decoder = json.JSONDecoder()
    value = None
    for match in re.finditer(r'"orders"\s*:\s*', reply, re.IGNORECASE):
        try:
            value, _ = decoder.raw_decode(reply, match.end())
        except json.JSONDecodeError:
            continue
    return value


def validate_orders(
    orders: list[str], possible: dict[str, list[str]], phase_type: str, build_count: int
) -> tuple[list[str], list[str]]:
    """Splits orders into the valid ones (engine spelling) and the dropped ones with reasons.

    An order is valid when it is one of the possible orders, it is the first
    order for its location and, in an adjustment phase, it is within the
    allowed number of builds (``WAIVE`` counts as one) or disbands.
    """
    owner = {_normal(o): (loc, o) for loc, options in possible.items() for o in options if o != "WAIVE"}
    can_waive = any("WAIVE" in options for options in possible.values())
    limit = abs(build_count) if phase_type == "A" else None
    kept: list[str] = []
    dropped: list[str] = []
    used: set[str] = set()
    for raw in orders:
        normal = _normal(raw)
        if normal == "WAIVE" and can_waive:
            loc, order = None, "WAIVE"
        elif normal in owner:
            loc, order = owner[normal]
        else:
            dropped.append(f"{raw} (not a possible order)")
            continue
        if loc is not None and loc in used:
            dropped.append(f"{raw} (a second order for {loc})")
        elif limit is not None and len(kept) >= limit:
            dropped.append(f"{raw} (more than {limit} adjustments allowed)")
        else:
            if loc is not None:
                used.add(loc)
            kept.append(order)
    return kept, dropped


def _normal(order: str) -> str:
    cleaned = re.sub(r"\s*-\s*", " - ", order.strip().strip(".").upper())
    return " ".join(cleaned.split())


def _json_objects(reply: str) -> list[dict[str, Any]]:
    """Returns every JSON object in ``reply`` that is not nested in another, in order."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    index = reply.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(reply, index)
        except json.JSONDecodeError:
            index = reply.find("{", index + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        index = reply.find("{", end)
    return found


def _year(phase: str) -> int:
    return int(phase[1:5]) if len(phase) == 6 and phase[1:5].isdigit() else 10**6


def _import_engine() -> Any:
    try:
        import diplomacy  # optional: the diplomacy extra, loaded at the first match
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    return diplomacy


def engine_available() -> bool:
    """Tells whether the ``diplomacy`` engine can be imported here."""
    try:
        _import_engine()
    except ImportError:
        return False
    return True


def variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the one variant a suite runs: ``to$STRATBENCH_DIPLOMACY_END_YEAR`` (default ``to1905``;
    ``to1920`` when ``options["protocol"]`` is ``paper``).

    It is skipped, with the install hint, when the engine is missing.
    """
    default = PAPER_END_YEAR if options.get("protocol") == PAPER else DEFAULT_END_YEAR
    end_year = int(os.environ.get(END_YEAR_ENV) or default)
    rounds = int(os.environ.get(ROUNDS_ENV) or DEFAULT_ROUNDS)
    name = variant_name(end_year, rounds)
    parse_variant(name)
    return [Variant(name, None if engine_available() else INSTALL_HINT)]
