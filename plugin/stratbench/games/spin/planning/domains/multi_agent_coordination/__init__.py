"""Multi-agent coordination: zoned gripper robots relay balls between rooms."""
