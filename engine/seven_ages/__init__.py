"""7 Ages (Australian Design Group, Collector's edition rules of 17 Mar 2023): data only for now.

The map, tables and (later) cards are Annals' reconstruction: the rulebook
states the rules but gives no component list; names and every number it
states are kept, the rest is authored and marked ``source: ours``.
"""
