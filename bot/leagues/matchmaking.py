"""League matchmaking: queues per (ruleset, player count), and organisers' fixed pairings.

A signed-up player joins one or more queues (a game for 4 players, for 5).
As soon as a queue holds enough players a match is made from it: the player
who has waited longest always plays (so nobody waits for ever), and the other
seats go to the group of waiting players with the lowest cost, where the cost
adds

* ``meet_weight`` for every time two of them met in their recent games
  (each player's last ``recent_games`` league games), and
* ``rating_weight`` times the spread (highest minus lowest) of their rating
  ordinals, divided by ``rating_scale``,

with ties going to the players who joined earliest. Only the
``window`` longest-waiting players are considered, which bounds the search.

A player is never in two matches at once: a made match takes its players out
of every queue, and a player with a running league game cannot queue or be
paired until :meth:`Matchmaker.finished` frees them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.leagues.models import LeagueGame

QueueKey = tuple[str, int]
"""(ruleset, player count)."""


class MatchmakingError(Exception):
    """A refused queue or pairing request.

    Attributes:
        code: ``busy`` (already in a league game), ``bad_count``, ``bad_ruleset``,
            ``duplicate`` (a player listed twice in a pairing), ``not_queued``.
    """

    def __init__(self, code: str, message: str, users: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.users = tuple(users)


@dataclass(frozen=True)
class QueueEntry:
    """A player waiting in one queue."""

    user_id: int
    ruleset: str
    players: int
    joined_at: int

    @property
    def key(self) -> QueueKey:
        return (self.ruleset, self.players)


@dataclass(frozen=True)
class Match:
    """Players to seat together in a new league game (seat order is the game's to draw)."""

    ruleset: str
    players: tuple[int, ...]
    fixed: bool = False


@dataclass(frozen=True)
class MatchConfig:
    """Weights of the matchmaker (see the module docstring)."""

    recent_games: int = 5
    meet_weight: float = 1.0
    rating_weight: float = 1.0
    rating_scale: float = 5.0
    window: int = 12


class Matchmaker:
    """The queues of one season.

    Args:
        rulesets: the rulesets the league plays, with the player counts each allows
            (``{game_id: (3, 6)}``).
        history: the season's league games (running ones mark their players busy;
            all of them count as meetings).
        ratings: rating ordinals by player (missing: 0).
        queued: entries already waiting (e.g. read back from the store).
        config: weights.
    """

    def __init__(
        self,
        rulesets: Mapping[str, tuple[int, int]],
        history: Iterable[LeagueGame] = (),
        ratings: Mapping[int, float] | None = None,
        queued: Iterable[QueueEntry] = (),
        config: MatchConfig | None = None,
    ) -> None:
        self.rulesets = dict(rulesets)
        self.config = config or MatchConfig()
        self.ratings = dict(ratings or {})
        self._history: list[LeagueGame] = sorted(history, key=lambda g: (g.created_at, g.game_id))
        self._busy: set[int] = {u for g in self._history if g.status == "running" for u in g.players}
        self._queues: dict[QueueKey, list[QueueEntry]] = {}
        for entry in sorted(queued, key=lambda e: (e.joined_at, e.user_id)):
            if entry.user_id not in self._busy:
                self._queues.setdefault(entry.key, []).append(entry)

    # -- reading -----------------------------------------------------------------------
    def waiting(self, key: QueueKey | None = None) -> list[QueueEntry]:
        """Entries waiting in one queue, or in all, longest-waiting first."""
        if key is not None:
            return list(self._queues.get(key, []))
        return sorted((e for q in self._queues.values() for e in q), key=lambda e: (e.joined_at, e.user_id))

    def busy(self) -> frozenset[int]:
        """Players in a running league game (or a match made but not yet recorded)."""
        return frozenset(self._busy)

    # -- changing ----------------------------------------------------------------------
    def join(self, user_id: int, ruleset: str, players: int, now: int) -> list[Match]:
        """Queue ``user_id`` for ``ruleset`` with ``players`` seats; the matches this completes.

        Joining a queue one is already in keeps the original place.

        Raises:
            MatchmakingError: ``busy``, ``bad_ruleset``, ``bad_count``.
        """
        self._check_key(ruleset, players)
        if user_id in self._busy:
            raise MatchmakingError("busy", "You are already playing a league game; finish it first.",
                                   [user_id])
        key = (ruleset, players)
        queue = self._queues.setdefault(key, [])
        if all(e.user_id != user_id for e in queue):
            queue.append(QueueEntry(user_id, ruleset, players, now))
        return self._make_matches(key)

    def leave(self, user_id: int, key: QueueKey | None = None) -> list[QueueEntry]:
        """Take ``user_id`` out of one queue (or all); the entries removed.

        Raises:
            MatchmakingError: ``not_queued``.
        """
        removed: list[QueueEntry] = []
        for k, queue in self._queues.items():
            if key is None or k == key:
                removed += [e for e in queue if e.user_id == user_id]
                queue[:] = [e for e in queue if e.user_id != user_id]
        if not removed:
            raise MatchmakingError("not_queued", "You are not waiting in that queue.", [user_id])
        return removed

    def pair(self, users: Sequence[int], ruleset: str) -> Match:
        """An organiser's fixed pairing: these players, now, whoever else waits.

        Raises:
            MatchmakingError: ``busy`` (naming who), ``duplicate``, ``bad_ruleset``, ``bad_count``.
        """
        self._check_key(ruleset, len(users))
        if len(set(users)) != len(users):
            raise MatchmakingError("duplicate", "A player is listed twice.", users)
        busy = [u for u in users if u in self._busy]
        if busy:
            raise MatchmakingError("busy", "Some players are already in a league game.", busy)
        match = Match(ruleset, tuple(users), fixed=True)
        self._take(match)
        return match

    def started(self, game: LeagueGame) -> None:
        """Record a league game made from a match (its players stay busy until it ends)."""
        self._history.append(game)
        if game.status == "running":
            self._busy.update(game.players)

    def finished(self, game: LeagueGame) -> None:
        """A league game ended (or was abandoned): its players may queue again."""
        self._history = [game if g.game_id == game.game_id else g for g in self._history]
        if all(g.game_id != game.game_id for g in self._history):
            self._history.append(game)
        still = {u for g in self._history if g.status == "running" for u in g.players}
        self._busy = {u for u in self._busy if u in still or u not in game.players}

    def cancel(self, match: Match) -> None:
        """Release the players of a match whose game could not be created."""
        self._busy.difference_update(match.players)

    # -- internals ---------------------------------------------------------------------
    def _check_key(self, ruleset: str, players: int) -> None:
        if ruleset not in self.rulesets:
            raise MatchmakingError("bad_ruleset", f"This league does not play {ruleset}.")
        low, high = self.rulesets[ruleset]
        if not low <= players <= high:
            raise MatchmakingError("bad_count", f"{ruleset} is for {low} to {high} players, not {players}.")

    def _take(self, match: Match) -> None:
        chosen = set(match.players)
        for queue in self._queues.values():
            queue[:] = [e for e in queue if e.user_id not in chosen]
        self._busy.update(chosen)

    def _make_matches(self, key: QueueKey) -> list[Match]:
        made: list[Match] = []
        ruleset, size = key
        while len(self._queues.get(key, [])) >= size:
            match = Match(ruleset, self._best_group(self._queues[key], size))
            self._take(match)
            made.append(match)
        return made

    def _best_group(self, queue: Sequence[QueueEntry], size: int) -> tuple[int, ...]:
        ordered = sorted(queue, key=lambda e: (e.joined_at, e.user_id))[:max(self.config.window, size)]
        anchor, rest = ordered[0].user_id, [e.user_id for e in ordered[1:]]
        meetings = self._meetings()
        best: tuple[float, tuple[int, ...]] | None = None
        for others in itertools.combinations(rest, size - 1):  # in join order: earliest first on ties
            group = (anchor, *others)
            cost = self._cost(group, meetings)
            if best is None or cost < best[0] - 1e-12:
                best = (cost, group)
        assert best is not None
        return best[1]

    def _meetings(self) -> dict[frozenset[int], int]:
        """How often each pair met in their recent games.

        A game counts once for each of the two players in whose last ``recent_games``
        it is, so a meeting recent for both weighs more than one only the busier player forgot.
        """
        recent: dict[int, list[LeagueGame]] = {}
        for game in self._history:
            for user in game.players:
                recent.setdefault(user, []).append(game)
        out: dict[frozenset[int], int] = {}
        for user, games in recent.items():
            for game in games[-self.config.recent_games:]:
                for other in game.players:
                    if other != user:
                        pair = frozenset((user, other))
                        out[pair] = out.get(pair, 0) + 1
        return out

    def _cost(self, group: Sequence[int], meetings: Mapping[frozenset[int], int]) -> float:
        met = sum(meetings.get(frozenset(p), 0) for p in itertools.combinations(group, 2))
        ordinals = [self.ratings.get(u, 0.0) for u in group]
        spread = max(ordinals) - min(ordinals)
        return self.config.meet_weight * met + self.config.rating_weight * spread / self.config.rating_scale
