"""The CombatGroup prompt: system prompt and one-shot example exchange, default and paper.

Each query is rebuilt from scratch (the released client keeps no
conversation): system prompt, example input, example output, then the text
observation. The default protocol uses the v0.1 system prompt (its five
combat rules) and the v0.1 example answer, after an example observation in
the project's own text format; the paper protocol uses the released 2025
``CombatGroupPrompt`` verbatim (one combat rule, example input ``xxxxx``, the
generic output format as example answer). Both are reference data, kept with
their typos; communication appends section 4 and the examples' message parts.
"""

from __future__ import annotations

SYSTEM_PROMPT = """
1.Identity
  You are a {describe}.
  Your should command your troops, complete the tactical tasks assigned by the superior. You will have several teams of units, you can command these teams to fight together or perform different tasks.

2.Rules
  2.1 Try to kill more and loss less. Usually, concentrating all firepower on the same target(especially the closest enemy) can improve the strike effectiveness.
  2.2 Try to kill enemy as quick as possible, retreat promptly when/before enemy reinforcements arrive.
  2.3 When sacrificing your unit can earn much more profits, you can choose to sacrifice your unit.
  2.4 Use your skills well to achieve optimal tactical results. Especially when controlling support units.
  2.5 Always remember the tactical tasks given by superior. Sometimes you have to sacrifice whole team to ensure the achievement of tactical objectives.

3.Action Output
  You should make decisions according to observed information, tactic task and rules, give analysis and decisions for each team. For example, if you have 2 teams name as 'Stalker-1' and 'Stalker-2', you should output as:
  
  Analysis: 
    xxxxx
  Actions:
    Team Stalker-1:
      xxxxx
    Team Stalker-2:
      xxxxx
""".lstrip("\n")

COMMUNICATION_RULES = """
4.Communication Output
  If there is Available Communicate Target, you should keep communicating with them by Communication functions. For example, if 'Commander' and 'CombatGroup4' in Available Communicate Target, you can output as:

  Communications:
    <MessageTo(Commander, '''xxxxxxxxxx''')>
    <MessageTo(CombatGroup4, '''xxxxxxxxxx''')>
"""

EXAMPLE_INPUT = """Game Info:
Time: 0:32

Team Oracle-1 Info:
\tTeam minimap position: [50, 30]
\tControled Team Units:
\t\tUnit: Oracle    Tag: 0x100140001    ScreenPos: [64, 64]    Health: 200(100 %)    Energy: 138    Weapon_cooldown: 0
\tNearby Enemy Units:
\t\tUnit: Drone    Tag: 0x101480001    ScreenPos: [70, 88]    Distance: 4    Health: 40(100 %)
\t\tUnit: Drone    Tag: 0x101500001    ScreenPos: [75, 92]    Distance: 5    Health: 40(100 %)
\t\tUnit: Overlord    Tag: 0x100f40001    ScreenPos: [40, 100]    Distance: 7    Health: 200(100 %)
\t\tUnit: Hatchery    Tag: 0x100a80001    ScreenPos: [90, 110]    Distance: 9    Health: 1500(100 %)
\t\tUnit: SpawningPool    Tag: 0x101580001    ScreenPos: [110, 70]    Distance: 8    Health: 100(10 %)
\t\tUnit: Queen    Tag: 0x101600001    ScreenPos: [96, 100]    Distance: 9    Health: 175(100 %)
\t\tUnit: Queen    Tag: 0x101680001    ScreenPos: [100, 104]    Distance: 10    Health: 175(100 %)

Valid Actions:
\tTeam Oracle-1 Valid Actions:
\t\t<Stop()>
\t\t<No_Operation()>
\t\t<Attack_Unit(tag)>
\t\t<Move_Screen(screen)>
\t\t<Move_Minimap(minimap)>
\t\t<Ability_OracleRevelation_Screen(screen)>
\t\t<Ability_StasisTrap_Screen(screen)>

Tasks:
\tTeam Oracle-1' task: Kill as much as enemy Drones as possible.
"""
"""The default one-shot example input: an Oracle team at 0:32 near a Zerg base, in this project's text format."""

EXAMPLE_OUTPUT = """Analysis: 
  We are controlling a team called Oracle-1, we have met several enemy Queens, Drones and Overlord. 
  Our goal is killing as much Drone, consider that we still have enough health and energy, we should choose drone to attack, and leave the area quickly.
Actions:
  Team Oracle-1:
    <Attack_Unit(0x101480001)>
    <Move_Screen([67, 96])>
"""

EXAMPLE_COMMUNICATION = """Communications:
  <MessageTo(Commander, '''Copy that, we have arrived enemy base, and started attack enemy workers''')>
"""


def system_prompt(describe: str, *, communication: bool) -> str:
    """Returns the system prompt for an agent described as ``describe``."""
    text = SYSTEM_PROMPT.format(describe=describe)
    return text + COMMUNICATION_RULES if communication else text


def example_exchange(*, communication: bool) -> tuple[dict[str, str], dict[str, str]]:
    """Returns the example user and assistant messages that precede every observation."""
    output = EXAMPLE_OUTPUT + EXAMPLE_COMMUNICATION if communication else EXAMPLE_OUTPUT
    return {"role": "user", "content": EXAMPLE_INPUT}, {"role": "assistant", "content": output}


# -- the paper protocol: the released 2025 CombatGroupPrompt, verbatim ------------------------------

PAPER_COMBAT_RULES = """
1. Concentrating firepower is always necessary, attack different unit at the same time will definitely reduce killing speed and leading to terrible result. Always concentrating all teams' fire at one unit that (1)with highest DPS(most valuable) (2)most vulnerable (3)closest.
"""

PAPER_OUTPUT_FORMAT = """
Analysis:
  xxxxx
Actions:
  Team TeamName-1:
    <ActionName1(...)>  # format like **ActionName1(...)** and -ActionName1(...)- are not valid, must use <>
    <ActionName2(...)>
  Team TeamName-2:
    <ActionName1(...)>
"""

PAPER_SYSTEM_PROMPT = """
1.Identity
  You are a {describe}.
  Your should command your troops, complete the tactical tasks assigned by the superior. You will have several teams of units, you can command these teams to fight together or perform different tasks.

2.Rules
{rules}

3.Action Output
  You should make decisions according to observed information, tactic task and rules, give analysis and decisions for each team. For example, if you have 2 teams name as 'TeamName-1' and 'TeamName-2', you should output as:
  {output_format}
      
Note that actions must in the shape <ActionName(...)>, do not generate action like 'ActionName(...)' or **ActionName(...)**.
"""

PAPER_EXAMPLE_COMMUNICATION_INPUT = """
Communication:
  From Commander: 
    Your task is to attack the enemy workers of an enemy base near minimap [48,32]. Intelligence shows that two enemy Queens are located on the minimap [44,32]. Try to avoid being detected by enemy Queens before arriving.

Available Communication Tragets:
  Commander: Protoss military supreme commander. Responsible for making macro decision through communication, and controls nexus for massrecall for tactical objectives.
Available Communication Functions:
  <MessageTo(AgentName, message)>
  <MessageTo(ChannelName, message)>
  <ListenTo(ChannelName)>
Args explanation:
  (1)AgentName: refers to a name mentioned in Available Communication Tragets.
  (2)ChannelName: shape as Channel-i, i refers to an integer.
  (2)message: any text wrapped between ''' and '''.
"""

PAPER_EXAMPLE_COMMUNICATION_OUTPUT = """
Communications:
    <MessageTo(Commander, '''Copy that, we have arrived enemy base, and started attack enemy workers''')>
"""


def paper_rules(agent_name: str) -> str:
    """Returns the released rules block for an agent, chosen by its name as the released code does."""
    if "Commander" in agent_name:
        return "\n"
    if "Developer" in agent_name:
        return "\n"
    if "CombatGroup" in agent_name:
        return PAPER_COMBAT_RULES
    if "Builder" in agent_name:
        return "\n"
    return "No specific rule, make decisions according to the situation"


def paper_system_prompt(agent_name: str, describe: str, *, communication: bool) -> str:
    """Returns the released 2025 system prompt for an agent."""
    text = PAPER_SYSTEM_PROMPT.format(describe=describe, rules=paper_rules(agent_name),
                                      output_format=PAPER_OUTPUT_FORMAT)
    return text + COMMUNICATION_RULES if communication else text


def paper_example_exchange(*, communication: bool) -> tuple[dict[str, str], dict[str, str]]:
    """Returns the released 2025 example input (``xxxxx``) and output."""
    example_input = "xxxxx" + (PAPER_EXAMPLE_COMMUNICATION_INPUT if communication else "")
    example_output = PAPER_OUTPUT_FORMAT + (PAPER_EXAMPLE_COMMUNICATION_OUTPUT if communication else "")
    return {"role": "user", "content": example_input}, {"role": "assistant", "content": example_output}
