"""A deterministic StarCraft II micro-combat engine (no game binary).

Modules: :mod:`.unit_data` (the committed stat table ``units.csv``, one
source per row), :mod:`.battle` (fixed-step simulation at 22.4 game loops per
second on "faster": attack, move, attack-move, stop, hold, cast; collision;
timed effects), :mod:`.abilities` (the ability table and casting),
:mod:`.conditions` (victory, defeat, tie as scenario data),
:mod:`.opponent` (the scripted enemy: attack, defend, passive, drops, casts),
:mod:`.zerg_spells` (the Infestor's, Viper's and Swarm Host's abilities),
:mod:`.interceptors` (a Carrier's Interceptors), :mod:`.warp_in` (Warp Gates,
the Warp Prism's power field, the player's resources).

Approximations, each a documented choice:
- a weapon fires the loop its target is in range and its cooldown is ready;
  the damage point (swing delay) and projectile travel are not modelled;
- units move in straight lines at full speed, without pathing or terrain;
  ground units push apart when they overlap (a standing unit keeps its place
  against one walking into it); flying units and the Colossus never collide;
- targets are acquired on the loop's starting positions; the scripted side
  re-decides every 4 loops;
- automatic targeting (idle, attack-move, hold) keeps a target until it dies
  or leaves weapon range, then takes the nearest enemy in weapon range, and
  with none chases the old one (Liquipedia "Automatic Targeting"); a unit
  with no target engages the nearest enemy within sight (the game's scan
  range is shorter; sight stands in for its response to being attacked);
- orders queue as with shift: a queued order waits until the current one is
  done (a move arrives, the attacked unit dies, a cast is made), an order
  that is not queued replaces the queue; Hold Position never finishes;
- shields regenerate 2 per normal second (2.8 per second on Faster) after 10
  normal seconds (7.14 s) without damage, energy 0.7875 per second
  (Liquipedia, "Plasma Shield", "Energy"); health does not regenerate;
- splash hits every enemy unit of the target's layer within the weapon's
  ``splash`` radius of the target at full damage (the game uses falloff
  zones and, for the Colossus, a line);
- a unit killed during a loop still acts in that loop (every unit alive at
  the loop's start acts, in tag order, judging range on the loop's starting
  positions, so neither side fires first by construction: two units that
  kill each other both fire);
- flying units are hit only by weapons that target air; a unit lifted by
  Graviton Beam counts as flying;
- abilities: see :mod:`.abilities` (Blink, Guardian Shield, Force Field,
  Psionic Storm, Purification Nova, Corrosive Bile, Graviton Beam, Volatile
  Burst) and :mod:`.zerg_spells` (Fungal Growth, Abduct, Blinding Cloud,
  Parasitic Bomb, Spawn Locusts); other abilities answer NotSupported
  (ActionResult 2);
- summoned units (Locusts, Broodlings: each Brood Lord attack on a ground
  unit hatches one) die when their timed life ends, no one's kill; a
  Carrier's Interceptors are units it launches, leashes and docks
  (:mod:`.interceptors`).

Modules beyond the simulation: :mod:`.controller` (answers pysc2's
requests), :mod:`.observation` (builds observations), :mod:`.run_config`
(the seam that makes ``SC2Env(map_name=...)`` run on the engine),
:mod:`.scenarios` (the scenario files), :mod:`.games` (the registered
``sc2_smac`` and ``sc2_tasks`` games, on ``--sc2-backend engine`` or
``live``), :mod:`.policies` and :mod:`.text_baselines` (scripted focus fire
and attack-move; :mod:`.text_abilities`: the focus-fire text's ability rules).

Agreement with prior art (read, not copied): like JaxMARL's SMAX and
SMAClite, units move without pathfinding and the heuristic enemy targets the
nearest opponent; like SMAClite (and unlike SMAX, which has none), units
collide; unlike SMAX (continuous damage-per-second), damage is dealt per
shot with StarCraft II's armour, shield and bonus rules, and abilities and
flying units are modelled, which neither has.
"""
