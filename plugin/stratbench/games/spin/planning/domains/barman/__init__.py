"""Barman: a two-handed robot barman fills shots and mixes cocktails in a shaker."""
