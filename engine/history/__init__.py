"""History of the World: the classic 7-epoch rules (and, later, the 5-epoch rules)."""
