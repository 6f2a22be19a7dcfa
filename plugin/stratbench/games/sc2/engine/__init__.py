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
- deaths are applied at the end of a loop, so units that fire in the same
  loop all deal their damage.

Agreement with prior art (read, not copied): like JaxMARL's SMAX and
SMAClite, units move without pathfinding and the heuristic enemy targets the
nearest opponent; unlike SMAX (continuous damage-per-second), damage is
dealt per shot with StarCraft II's armour, shield and bonus rules.
"""
