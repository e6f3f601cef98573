"""The game contract, by concern; :mod:`engine.core` gathers it under one name."""
