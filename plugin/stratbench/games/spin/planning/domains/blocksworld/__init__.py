"""The blocksworld domain (4 operators: pick-up, put-down, stack, unstack)."""
