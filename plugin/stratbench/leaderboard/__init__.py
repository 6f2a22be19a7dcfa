"""A static leaderboard over many runs: ``stratbench leaderboard RUN... --out DIR``.

runs (collect the runs) → pooling (which runs are rated together) → board (ratings, rankings, history, cost)
→ pages (index.html, history.html, models/*.html; plots for the SVG charts; bundle puts the runs' reports and
match pages inside DIR, so it is published alone).
"""
