"""Cooperative gripper robots: heavy balls need two robots, deliveries go in a fixed order."""
