"""The run: its settings and session, scheduling, the match pool, shards, xdist, resume, the results store and the gate."""
