"""Pure functions from a player's view to pictures."""
