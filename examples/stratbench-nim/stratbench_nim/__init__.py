"""Nim as an out-of-tree stratbench game family: installed as the ``stratbench`` entry point ``nim``.

The package shows what a third-party family brings: a game
(:mod:`stratbench_nim.game`), a perfect opponent
(:mod:`stratbench_nim.perfect`), a metric (:mod:`stratbench_nim.metrics`),
a board renderer (:mod:`stratbench_nim.board`), a report section
(:mod:`stratbench_nim.report`) and its own option, ``--nim-heaps``, all
registered through the hooks in :mod:`stratbench_nim.plugin`.
"""
