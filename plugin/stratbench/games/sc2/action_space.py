"""LLM-PySC2's text actions ("bridge objects"): each names its text arguments and the pysc2 calls it becomes.

A :class:`TextAction` ``<Name(args)>`` takes text arguments of three kinds
(``tag``: a unit tag ``0x…``; ``screen``/``minimap``: a coordinate ``[x, y]``)
and expands into pysc2 feature-layer calls, each ``(function id, function
name, argument templates)``. The templates say where every pysc2 argument comes
from (the paper's Appendix B and the released code's documentation):

* ``now`` / ``queued``: the queued flag; ``select`` / ``add``: selection mode;
* ``screen`` / ``minimap``: the action's first coordinate of that kind;
* ``screen_tag`` / ``screen_tag2``: the screen position of the first / second tag;
* ``minimap_tag``: the minimap position of the first tag;
* ``screen1_tag`` / ``screen2_tag`` (and ``…_tag2``): a small rectangle around
  the first (second) tag's unit, for ``select_rect``.

Which actions a unit type may use is :data:`UNIT_ACTIONS` (the default Protoss
space; LLM-SMAC's maps use :data:`SMAC_ACTIONS` and :data:`SMAC_MOVE_ACTIONS`).
Every pysc2 function can also be written directly under its own name (see
:mod:`stratbench.games.sc2.action_translate`), so the text interface covers the
complete action space; the named actions are the paper's convenient subset.
Training, research, building and warp-in actions (Appendix B2-B7) need the
released code's building search and are not part of this space.
"""

from __future__ import annotations

from dataclasses import dataclass

ARG_KINDS = ("tag", "screen", "minimap")


@dataclass(frozen=True)
class TextAction:
    """One named text action.

    Attributes:
        name: The name the model writes (``Attack_Unit``).
        args: The text arguments' kinds, in order (``("tag", "screen")``).
        calls: The pysc2 calls: ``(function id, function name, argument templates)``.
    """

    name: str
    args: tuple[str, ...]
    calls: tuple[tuple[int, str, tuple[str, ...]], ...]

    def signature(self) -> str:
        """Renders the generic form shown to the model: ``<Name(tag, screen)>``."""
        return f"<{self.name}({', '.join(self.args)})>"


_SELECT_FIRST = (3, "select_rect", ("select", "screen1_tag", "screen2_tag"))
_ADD_SECOND = (3, "select_rect", ("add", "screen1_tag2", "screen2_tag2"))


def _action(name: str, args: tuple[str, ...], *calls: tuple[int, str, tuple[str, ...]]) -> TextAction:
    return TextAction(name, args, tuple(calls))


ACTIONS: dict[str, TextAction] = {
    a.name: a
    for a in (
        # B1: basic actions of every unit.
        _action("No_Operation", (), (0, "no_op", ())),
        _action("Stop", (), (453, "Stop_quick", ("now",))),
        _action("Hold_Position", (), (274, "HoldPosition_quick", ("queued",))),
        _action("Move_Screen", ("screen",), (331, "Move_screen", ("queued", "screen"))),
        _action("Move_Minimap", ("minimap",), (332, "Move_minimap", ("queued", "minimap"))),
        _action("Attack_Unit", ("tag",), (12, "Attack_screen", ("queued", "screen_tag"))),
        _action("Select_Unit_Move_Screen", ("tag", "screen"), _SELECT_FIRST, (331, "Move_screen", ("now", "screen"))),
        _action("Select_Unit_Move_Minimap", ("tag", "minimap"), _SELECT_FIRST,
                (332, "Move_minimap", ("queued", "minimap"))),
        _action("Select_Unit_Attack_Unit", ("tag", "tag"), _SELECT_FIRST, (12, "Attack_screen", ("queued", "screen_tag2"))),
        # B9 and B10: unit skills, for the whole team or one selected unit.
        _action("Ability_AdeptPhaseShift_Minimap", ("minimap",),
                (547, "Effect_AdeptPhaseShift_minimap", ("now", "minimap"))),
        _action("Ability_AdeptPhaseShift_Screen", ("screen",), (177, "Effect_AdeptPhaseShift_screen", ("now", "screen"))),
        _action("Ability_CancelPhaseShift", (), (141, "Cancel_AdeptPhaseShift_quick", ("now",))),
        _action("Select_Unit_Ability_AdeptPhaseShift_Screen", ("tag", "screen"), _SELECT_FIRST,
                (177, "Effect_AdeptPhaseShift_screen", ("now", "screen"))),
        _action("Ability_Blink_Screen", ("screen",), (180, "Effect_Blink_screen", ("now", "screen"))),
        _action("Select_Unit_Blink_Screen", ("tag", "screen"), _SELECT_FIRST, (180, "Effect_Blink_screen", ("now", "screen"))),
        _action("Ability_ForceField_Screen", ("screen",), (193, "Effect_ForceField_screen", ("queued", "screen"))),
        _action("Ability_GuardianShield", (), (197, "Effect_GuardianShield_quick", ("queued",))),
        _action("Select_Unit_Ability_ForceField_Screen", ("tag", "screen"), _SELECT_FIRST,
                (193, "Effect_ForceField_screen", ("queued", "screen"))),
        _action("Select_Unit_Ability_GuardianShield", ("tag",), _SELECT_FIRST,
                (197, "Effect_GuardianShield_quick", ("queued",))),
        _action("Ability_PsiStorm_Screen", ("screen",), (218, "Effect_PsiStorm_screen", ("queued", "screen"))),
        _action("Ability_PsiStorm_Attack_Unit", ("tag",), (218, "Effect_PsiStorm_screen", ("queued", "screen_tag"))),
        _action("Select_Unit_Ability_PsiStorm_Screen", ("tag", "screen"), _SELECT_FIRST,
                (218, "Effect_PsiStorm_screen", ("queued", "screen"))),
        _action("Select_Unit_Ability_PsiStorm_Attack_Unit", ("tag", "tag"), _SELECT_FIRST,
                (218, "Effect_PsiStorm_screen", ("queued", "screen_tag2"))),
        _action("Morph_Archon", (), (296, "Morph_Archon_quick", ("queued",))),
        _action("Select_Two_Units_Morph_Archon", ("tag", "tag"), _SELECT_FIRST, _ADD_SECOND,
                (296, "Morph_Archon_quick", ("queued",))),
        _action("Ability_ShadowStride_Unit", ("tag",), (182, "Effect_ShadowStride_screen", ("queued", "screen_tag"))),
        _action("Morph_SurveillanceMode", (), (538, "Morph_SurveillanceMode_quick", ("queued",))),
        _action("Morph_ObserverMode", (), (535, "Morph_ObserverMode_quick", ("queued",))),
        _action("Ability_PurificationNova_Attack", ("tag",),
                (219, "Effect_PurificationNova_screen", ("queued", "screen_tag"))),
        _action("Select_Unit_Ability_PurificationNova_Attack", ("tag",), _SELECT_FIRST,
                (219, "Effect_PurificationNova_screen", ("queued", "screen_tag"))),
        _action("Ability_PulsarBeamOn", (), (38, "Behavior_PulsarBeamOn_quick", ("queued",))),
        _action("Ability_OracleRevelation_Screen", ("screen",), (214, "Effect_OracleRevelation_screen", ("queued", "screen"))),
        _action("Build_StasisTrap_Screen", ("screen",), (90, "Build_StasisTrap_screen", ("queued", "screen"))),
        _action("Ability_GravitonBeam_Unit", ("tag",), (196, "Effect_GravitonBeam_screen", ("queued", "screen_tag"))),
        _action("Cancel_GravitonBeam_For_All", (), (140, "Cancel_quick", ("now",))),
        _action("Morph_WarpPrismPhasingMode", (), (329, "Morph_WarpPrismPhasingMode_quick", ("queued",))),
        _action("Morph_WarpPrismTransportMode", (), (330, "Morph_WarpPrismTransportMode_quick", ("queued",))),
        _action("Load_Unit", ("tag",), (287, "Load_screen", ("queued", "screen_tag"))),
        _action("Unload_Screen", ("screen",), (516, "UnloadAllAt_screen", ("queued", "screen"))),
        _action("Ability_TimeWarp_Attack", ("tag",), (241, "Effect_TimeWarp_screen", ("queued", "screen_tag"))),
        _action("Ability_TimeWarp_Screen", ("screen",), (241, "Effect_TimeWarp_screen", ("queued", "screen"))),
    )
}
"""Every named text action, by name."""

BASIC_ACTIONS = ("Stop", "No_Operation", "Hold_Position", "Move_Minimap", "Move_Screen", "Attack_Unit",
                 "Select_Unit_Move_Screen", "Select_Unit_Attack_Unit")
"""The actions every Protoss combat unit has (Appendix B1 with the released ``Stop``)."""

_SKILLS: dict[str, tuple[str, ...]] = {
    "Adept": ("Ability_AdeptPhaseShift_Minimap", "Ability_AdeptPhaseShift_Screen", "Ability_CancelPhaseShift",
              "Select_Unit_Ability_AdeptPhaseShift_Screen"),
    "Stalker": ("Ability_Blink_Screen", "Select_Unit_Blink_Screen"),
    "Sentry": ("Ability_ForceField_Screen", "Ability_GuardianShield", "Select_Unit_Ability_ForceField_Screen",
               "Select_Unit_Ability_GuardianShield"),
    "HighTemplar": ("Ability_PsiStorm_Screen", "Ability_PsiStorm_Attack_Unit", "Morph_Archon",
                    "Select_Two_Units_Morph_Archon", "Select_Unit_Ability_PsiStorm_Screen",
                    "Select_Unit_Ability_PsiStorm_Attack_Unit"),
    "DarkTemplar": ("Ability_ShadowStride_Unit", "Morph_Archon"),
    "Observer": ("Morph_SurveillanceMode", "Morph_ObserverMode"),
    "Disruptor": ("Ability_PurificationNova_Attack", "Select_Unit_Ability_PurificationNova_Attack"),
    "Oracle": ("Ability_PulsarBeamOn", "Ability_OracleRevelation_Screen", "Build_StasisTrap_Screen"),
    "Phoenix": ("Ability_GravitonBeam_Unit", "Cancel_GravitonBeam_For_All"),
    "WarpPrism": ("Morph_WarpPrismPhasingMode", "Morph_WarpPrismTransportMode", "Load_Unit", "Unload_Screen"),
    "Mothership": ("Ability_TimeWarp_Attack", "Ability_TimeWarp_Screen"),
}

PROTOSS_COMBAT_UNITS = ("Zealot", "Stalker", "Sentry", "Adept", "HighTemplar", "DarkTemplar", "Archon", "Immortal",
                        "Colossus", "Disruptor", "Observer", "WarpPrism", "Phoenix", "VoidRay", "Oracle", "Carrier",
                        "Tempest", "Mothership", "Probe")

UNIT_ACTIONS: dict[str, tuple[str, ...]] = {
    unit: BASIC_ACTIONS + _SKILLS.get(unit, ()) for unit in PROTOSS_COMBAT_UNITS
}
"""The default Protoss action space: unit type name -> its text actions (basic actions first)."""

SMAC_ACTIONS = ("Attack_Unit",)
"""LLM-SMAC's Zealots (and the Stalkers of 2s3z and 3s5z): attack only."""

SMAC_MOVE_ACTIONS = ("Attack_Unit", "Move_Screen")
"""LLM-SMAC's Stalkers of 3s_vs_nz, 2s_vs_1sc and 1c3s5z, and its Colossi."""


def actions_for(unit_types: tuple[str, ...], table: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """Returns the union of the unit types' actions, in first-seen order.

    Raises:
        KeyError: naming an unknown action.
    """
    table = UNIT_ACTIONS if table is None else table
    names: list[str] = []
    for unit in unit_types:
        for name in table.get(unit, ()):
            if name not in ACTIONS:
                raise KeyError(f"unknown text action {name!r}")
            if name not in names:
                names.append(name)
    return tuple(names)
