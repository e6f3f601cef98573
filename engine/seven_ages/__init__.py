"""7 Ages (Australian Design Group, Collector's edition rules of 17 Mar 2023).

The map, tables and cards are Annals' reconstruction: the rulebook states the rules but gives no
component list; names and every number it states are kept, the rest is authored and marked
``source: ours``. The game (``spec.py``) is offered in the lobby (option 16 is not built);
:mod:`engine.seven_ages.steps` describes how a turn runs and which module owns each step.
"""
