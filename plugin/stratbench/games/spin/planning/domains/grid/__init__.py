"""The grid planning domain: a robot carries keys through a grid of places, some of them locked."""
