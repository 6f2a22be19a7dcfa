"""SPIN-Bench Diplomacy: the basic-skill game and multi-agent games with negotiation.

``test_diplomacy_basic_skill`` (game ``diplomacy-nopress``): the subject
plays France; the six other powers hold and disband only when they must
(SPIN-Bench's neutral powers); no negotiation.

``test_diplomacy``: games with 3 negotiation rounds before each movement
phase. The subject controls the powers SPIN-Bench's tested agent controls in
its 2- to 5-agent settings (Table 6); every other power plays random possible
orders. Each power is its own agent instance (its own conversation), where
SPIN-Bench let one model control several powers in one conversation.

Games end with a solo victory (18 supply centers) or after 1905, or after
``$STRATBENCH_DIPLOMACY_END_YEAR``; ``$STRATBENCH_DIPLOMACY_ROUNDS`` sets the
negotiation rounds. A side's score is its power's supply centers at the end.
An order set without readable ``orders`` JSON is retried up to 10 times,
then dropped (``fallback="drop"``): that power's units hold for the phase, as
the engine treats a power that submits nothing (SPIN-Bench's code re-asks
without end instead), the game goes on for everyone, and the dropped sets are
counted as the side's fallbacks (``order_sets_dropped`` in the metrics).
Invalid orders inside a readable set are dropped too (the unit holds). Needs ``pytest-stratbench[diplomacy]``.

``--protocol paper`` plays both as SPIN-Bench's released code did
(``docs/PROTOCOLS.md``, section Diplomacy): Table 6's seatings with every
other power played by LLM opponents (``--diplomacy-opponent MODEL``, default
the subject's model), one agent and one conversation for all the powers it
plays, SPIN-Bench's negotiation JSON with ``GLOBAL``, games to 1920 that end
when an agent's summed supply centres reach 25 (2 agents), 20 (3) or 18.
Without a model the baselines take the subject's seats and the opponent
seats play random orders, so ``pytest suites/spin -k diplomacy --protocol
paper`` runs offline (10 matches to 1920).
"""

import pytest

_OTHERS = "random-orders"
# Powers in alphabetical order: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY.
SEATINGS = {
    "2-agents": (_OTHERS, _OTHERS, _OTHERS, _OTHERS, "subject", "subject", "subject"),
    "3-agents": (_OTHERS, _OTHERS, _OTHERS, _OTHERS, _OTHERS, "subject", "subject"),
    "4-agents": (_OTHERS, _OTHERS, _OTHERS, _OTHERS, _OTHERS, "subject", _OTHERS),
    "5-agents": (_OTHERS, _OTHERS, _OTHERS, "subject", _OTHERS, _OTHERS, _OTHERS),
}


@pytest.mark.stratbench(
    game="diplomacy-nopress",
    baselines=["hold", "random-orders"],
    seatings={"basic-skill": ("hold", "hold", "subject", "hold", "hold", "hold", "hold")},
    matches=1,
    illegal_tolerance=10,
    fallback="drop",
)
def test_diplomacy_basic_skill(match):
    match.play()


@pytest.mark.stratbench(
    game="diplomacy",
    baselines=["hold", "random-orders"],
    seatings=SEATINGS,
    matches=1,
    illegal_tolerance=10,
    fallback="drop",
)
def test_diplomacy(match):
    match.play()
