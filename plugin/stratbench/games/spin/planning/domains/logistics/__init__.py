"""The logistics planning domain: trucks and airplanes deliver packages between cities."""
