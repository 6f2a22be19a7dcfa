"""StarCraft II through pysc2 as text: LLM-PySC2's interface and multi-agent loop.

The entry points other parts build on (kept stable):

- :func:`stratbench.games.sc2.pysc2_compat.import_pysc2`: pysc2 with its two
  Python 3.11 fixes, or :class:`~stratbench.games.sc2.pysc2_compat.PySC2Unavailable`
  naming ``pip install 'pytest-stratbench[sc2]'``;
- :func:`stratbench.games.sc2.observation_text.agent_text` (and
  :func:`~stratbench.games.sc2.observation_text.observation_text`): one pysc2
  observation + the side's :class:`~stratbench.games.sc2.config.Layout` and an
  agent's name -> its text observation (teams from
  :func:`stratbench.games.sc2.config.assign_teams`);
- :func:`stratbench.games.sc2.action_grammar.parse_actions` and
  :func:`stratbench.games.sc2.action_translate.translate` ``(parsed,
  observation, teams=None)``: reply text -> parsed teams/actions/messages ->
  pysc2 ``FunctionCall`` s, with refused actions and their reasons (without
  ``teams``, one team per own unit type, ``<Type>-1``);
- :class:`stratbench.games.sc2.game.SC2TextGame`: a stratbench game that plays
  an episode given an environment *factory* (``SC2TestEnv``, ``SC2Env`` on the
  offline engine or on the live game), driven by
  :class:`stratbench.games.sc2.multi_agent.LockStepEpisode`.

Nothing here imports pysc2 at import time.
"""
