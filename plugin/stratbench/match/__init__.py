"""Playing one match: build, play, annotate, score, record, and the settings that decide it."""
