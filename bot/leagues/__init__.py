"""Community leagues: seasons, points tables, standings, ratings, reliability and matchmaking.

Pure logic over plain records (no Discord, no SQL), except :mod:`bot.leagues.store`,
which keeps the records in the same SQLite database as the games, and
:mod:`bot.leagues.service`, which drives both stores through the game service. The game
service and the transports call these modules; league games are ordinary games
with a row in ``league_games`` naming their league and season.

Modules:
    models: League, Season, PointsTable, SignUp, LeagueGame.
    standings: the season table, its text pages and the CSV exports.
    ratings: multiplayer skill ratings (openskill's Plackett-Luce model).
    reliability: deadlines met and missed, games abandoned, seats handed to the AI.
    matchmaking: queues per ruleset and player count, and fixed pairings.
    season: the end of a season (final table, champions, carried ratings).
    store: LeagueStore, the league tables of the store.
    service: LeagueService, what the transports call (leagues, seasons, queues, results).
"""
