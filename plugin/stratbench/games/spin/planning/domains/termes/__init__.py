"""The termes planning domain: a robot builds block structures on a grid, climbing its own blocks."""
