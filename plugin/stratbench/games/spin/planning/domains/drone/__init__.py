"""The drone planning domain: a battery-powered drone flies over a grid to visit locations."""
