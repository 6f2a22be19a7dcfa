"""The floortile planning domain: robots paint the tiles of a grid and cannot step on painted tiles."""
