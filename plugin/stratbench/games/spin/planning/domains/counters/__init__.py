"""Counters: numeric counters changed step by step until they stand in a given order."""
