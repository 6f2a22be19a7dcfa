"""The sokoban planning domain: a player pushes stones onto goal cells."""
