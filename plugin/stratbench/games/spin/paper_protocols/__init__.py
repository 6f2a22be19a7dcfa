"""SPIN-Bench's paper protocols: the released prompts and their strict answer readers."""
