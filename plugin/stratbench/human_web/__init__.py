"""Playing a match in the browser: the human agent's web seat.

- :mod:`~stratbench.human_web.table`: what the page and the match share (the decision asked, the move given).
- :mod:`~stratbench.human_web.server`: the loopback HTTP server, refusing any request without the token.
- :mod:`~stratbench.human_web.handoff`: the private file the browser is opened on, which hands it the token.
- :mod:`~stratbench.human_web.page`: the page itself (inline script, strict Content-Security-Policy).
- :mod:`~stratbench.human_web.boards`: the board shown and how a click on it reads as a move.
- :mod:`~stratbench.human_web.seating`: every player named by agent and role, and the result said from the
  person's side.
- :mod:`~stratbench.human_web.agent`: the agent that waits for the page's move.
- :mod:`~stratbench.human_web.moves`: the person's moves, recorded beside the match's cassette and replayed.
- :mod:`~stratbench.human_web.run`: starting and stopping the page for a pytest run (``--human-web``), kept up
  after the run until the page has shown how it ended.
- :mod:`~stratbench.human_web.play`: ``stratbench play GAME``.
"""
