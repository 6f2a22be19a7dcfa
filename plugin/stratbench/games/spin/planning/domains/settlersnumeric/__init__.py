"""Settlers: gather timber and stone, build industry and carts, and put up houses."""
