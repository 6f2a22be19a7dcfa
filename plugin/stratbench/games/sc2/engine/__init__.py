"""A deterministic StarCraft II micro-combat engine (no game binary).

Modules: :mod:`.unit_data` (the committed stat table ``units.csv``, one
source per row), :mod:`.battle` (fixed-step simulation at 22.4 game loops per
second on "faster": attack, move, attack-move, stop, hold, cast; collision;
timed effects), :mod:`.abilities` (the ability table and casting),
:mod:`.conditions` (victory, defeat, tie as scenario data),
:mod:`.opponent` (the scripted enemy: attack, defend, passive, drops).

Approximations, each a documented choice:
- a weapon fires the loop its target is in range and its cooldown is ready;
  the damage point (swing delay) and projectile travel are not modelled;
- units move in straight lines at full speed, without pathing or terrain;
  ground units push apart when they overlap (a standing unit keeps its place
  against one walking into it); flying units and the Colossus never collide;
- targets are acquired on the loop's starting positions; the scripted side
  re-decides every 4 loops;
- shields regenerate 2 per normal second (2.8 per second on Faster) after 10
  normal seconds (7.14 s) without damage, energy 0.7875 per second
  (Liquipedia, "Plasma Shield", "Energy"); health does not regenerate;
- splash hits every enemy unit of the target's layer within the weapon's
  ``splash`` radius of the target at full damage (the game uses falloff
  zones and, for the Colossus, a line);
- a unit killed during a loop still acts in that loop (all units of a loop
  act on the state at its start, in tag order, so neither side fires first
  by construction);
- flying units are hit only by weapons that target air; a unit lifted by
  Graviton Beam counts as flying;
- abilities: see :mod:`.abilities` (Blink, Guardian Shield, Force Field,
  Psionic Storm, Purification Nova, Corrosive Bile, Graviton Beam, Volatile
  Burst); other abilities answer NotSupported (ActionResult 2).

Modules beyond the simulation: :mod:`.controller` (answers pysc2's
requests), :mod:`.observation` (builds observations), :mod:`.run_config`
(the seam that makes ``SC2Env(map_name=...)`` run on the engine),
:mod:`.scenarios` (the scenario files), :mod:`.games` (the registered
``sc2_smac`` and ``sc2_tasks`` games, on ``--sc2-backend engine`` or
``live``), :mod:`.policies` and :mod:`.text_baselines` (scripted focus fire
and attack-move).

Agreement with prior art (read, not copied): like JaxMARL's SMAX and
SMAClite, units move without pathfinding and the heuristic enemy targets the
nearest opponent; like SMAClite (and unlike SMAX, which has none), units
collide; unlike SMAX (continuous damage-per-second), damage is dealt per
shot with StarCraft II's armour, shield and bonus rules, and abilities and
flying units are modelled, which neither has.
"""
