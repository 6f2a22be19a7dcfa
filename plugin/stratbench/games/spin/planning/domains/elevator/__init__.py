"""Elevators: lifts with limited capacity and served floors carry passengers, minimising cost."""
