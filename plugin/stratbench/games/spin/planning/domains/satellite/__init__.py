"""Satellite: satellites turn, power and calibrate instruments to take images."""
