"""Eight-Minute Empire (2 to 5 players) as an Annals game: see :mod:`engine.eight_minute.game`."""
