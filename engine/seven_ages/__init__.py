"""7 Ages (Australian Design Group, Collector's edition rules of 17 Mar 2023).

The map, tables and cards are Annals' reconstruction: the rulebook states the rules but gives no
component list; names and every number it states are kept, the rest is authored and marked
``source: ours``. The game (``spec.py``) is registered for simulation and the tests, not yet offered
in the lobby; :mod:`engine.seven_ages.steps` describes how a turn runs and which module owns each step.
"""
