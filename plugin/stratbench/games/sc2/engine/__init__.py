"""A deterministic StarCraft II micro-combat engine (no game binary).

Modules: :mod:`.unit_data` (the committed stat table ``units.csv``, one
source per row), :mod:`.battle` (fixed-step simulation at 22.4 game loops per
second on "faster": attack, move, attack-move, stop, hold), :mod:`.opponent`
(the scripted enemy of SMAC-style maps: attack-move toward the nearest player
unit).

Approximations, each a documented choice:
- a weapon fires the loop its target is in range and its cooldown is ready;
  the damage point (swing delay) and projectile travel are not modelled;
- units move in straight lines at full speed, without collision or pathing;
- shields regenerate 2 per second after 10 seconds without damage
  (Liquipedia, "Shields"); health does not regenerate;
- splash hits every enemy ground unit within the weapon's ``splash`` radius
  of the target at full damage (the game uses falloff zones);
- a unit killed during a loop still acts in that loop (all units of a loop
  act on the state at its start, in tag order, so neither side fires first
  by construction);
- every unit is a ground unit: air movement and the ground/air split of
  targeting are not modelled yet (the table records each weapon's targets);
- abilities: Stalker Blink (8 range, 7 s cooldown) and Baneling Volatile
  Burst (dies on attack, splash 2.2) are modelled; Guardian Shield, Force
  Field, Psionic Storm, Purification Nova, Corrosive Bile and the other
  spells are not yet (their action text is refused as unsupported, result
  214 in the action response).

Modules beyond the simulation: :mod:`.controller` (answers pysc2's
requests), :mod:`.observation` (builds observations), :mod:`.run_config`
(the seam that makes ``SC2Env(map_name=...)`` run on the engine),
:mod:`.scenarios` (the scenario files), :mod:`.games` (the registered
``sc2_smac`` and ``sc2_tasks`` games), :mod:`.policies` and
:mod:`.text_baselines` (scripted focus fire and attack-move).

Agreement with prior art (read, not copied): like JaxMARL's SMAX and
SMAClite, units move without pathfinding and the heuristic enemy targets the
nearest opponent; unlike SMAX (continuous damage-per-second), damage is
dealt per shot with StarCraft II's armour, shield and bonus rules.
"""
