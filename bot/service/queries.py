"""Reading a game: status, views, the player's decision, legal moves, the public log, the
record since a player's last move, a full audit; and a person's settings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.models import GameStatus, LogEntry, Turn, UserSettings
from bot.service.base import ServiceBase, saving
from bot.service.errors import ServiceError
from bot.service.offload import cpu, off_loop
from bot.service.records import (
    Loaded,
    adopt_settings,
    log_index,
    log_window,
    news_entries,
    public_entries,
    shown_number,
)
from engine.core import Decision, PlayerId, decide


@off_loop
def seen_by(lg: Loaded, seat: PlayerId | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of a loaded game, with the game's seq."""
    view = dict(lg.game.view(lg.state, seat))
    view["seq"] = lg.row.public_seq
    return view


@off_loop
def decided(lg: Loaded, seat: PlayerId) -> Decision | None:
    return decide(lg.game, lg.state, seat, lg.names())


@off_loop
def ordered(lg: Loaded, seat: PlayerId) -> Decision | None:
    """``seat``'s standing orders, from its own view (:meth:`engine.core.Game.orders`)."""
    return lg.game.orders(lg.game.view(lg.state, seat), seat, lg.names())


@off_loop
def legal_json(lg: Loaded, seat: PlayerId) -> list[dict[str, Any]]:
    return [a.to_json() for a in lg.game.legal_actions(lg.state, seat)]


class QueryOps(ServiceBase):
    """The reading half of :class:`bot.service.GameService`."""

    # == people ==========================================================================
    async def user_settings(self, user_id: int) -> UserSettings:
        """A person's notification settings."""
        return await self.store.get_user_settings(user_id)

    async def set_user_settings(self, settings: UserSettings) -> None:
        """Store a person's notification settings (reminders apply from their next clock on).

        Raises:
            ServiceError: ``bad_settings`` (e.g. a reminder time outside 1 minute to 14 days).
        """
        problems = settings.problems()
        if problems:
            raise ServiceError("bad_settings", " ".join(problems))
        with saving("settings change"):
            await self.store.set_user_settings(settings, self._now())
        for lg in self._cache.values():
            if settings.user_id in lg.prefs or lg.seat_of_user(settings.user_id) is not None:
                adopt_settings(lg, settings)

    async def set_thread(self, game_id: str, thread_id: int | None) -> None:
        """Remember the game's own Discord thread (where its public notices go from now on)."""
        async with self._locked(game_id):
            await self._load(game_id)  # refuses an unknown game
            with saving("thread"):
                await self.store.set_thread(game_id, thread_id, self._now())
            self.forget(game_id)

    # == reading =========================================================================
    async def status(self, game_id: str) -> GameStatus:
        """The game's summary (seats, whose turn, deadlines, scores)."""
        async with self._locked(game_id):
            return self._status(await self._load(game_id))

    async def wording_status(self, game_id: str) -> GameStatus:
        """The status a notice of the game is worded with: :meth:`status`, or for a game set aside as
        damaged (whose damage notice is still to deliver) what can be said without loading it."""
        try:
            return await self.status(game_id)
        except ServiceError as exc:
            contact = await self.store.game_contact(game_id) if exc.code == "damaged" else None
            if contact is None:
                raise
            return self._bare_status(game_id, *contact)

    async def view(self, game_id: str, user_id: int | None) -> dict[str, Any]:
        """The engine's view of the game for ``user_id`` (a spectator if not seated)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            seat = lg.seat_of_user(user_id) if user_id is not None else None
            return await cpu(seen_by, lg, seat.seat_order if seat else None)

    async def decision(self, game_id: str, user_id: int) -> tuple[int, Decision | None]:
        """(seq, the caller's current decision: a heading and one labelled choice per legal move),
        or (seq, None) when they have nothing to decide now."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            return lg.row.public_seq, await self._decision(lg, user_id)

    async def orders(self, game_id: str, user_id: int) -> tuple[int, Decision | None]:
        """(seq, the caller's standing orders: the moves they may send at any time, whoever acts, as a
        decision whose choices go through :meth:`submit` like any move), or (seq, None) when the game is
        not running or the AI holds their seat.

        Raises:
            ServiceError: ``no_orders`` for a game without standing orders (its spec's facet),
                ``not_started``, ``not_seated``.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if not lg.spec.standing_orders:
                raise ServiceError("no_orders", f"{lg.spec.title} has no standing orders: every move in it "
                                   "is made when the game asks for it.")
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            seat = lg.seat_of_user(user_id)
            if seat is None or seat.seat_order is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if lg.row.status != "active" or seat.is_ai:
                return lg.row.public_seq, None
            return lg.row.public_seq, await cpu(ordered, lg, seat.seat_order)

    async def turn(self, game_id: str, user_id: int) -> Turn:
        """The game's status, the caller's decision and whether they may undo, as one snapshot: what a
        panel or a "your move" message is built from (one call, one hold of the lock, so a move in
        between cannot pair one moment's status with another's choices)."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            return Turn(self._status(lg), await self._decision(lg, user_id), self._can_undo(lg, user_id))

    async def _decision(self, lg: Loaded, user_id: int) -> Decision | None:
        seat = lg.seat_of_user(user_id)
        if lg.state is None or seat is None or seat.seat_order is None or lg.row.status != "active" \
                or seat.is_ai:
            return None
        return await cpu(decided, lg, seat.seat_order)

    async def legal_actions(self, game_id: str, user_id: int) -> tuple[int, list[dict[str, Any]]]:
        """(seq, the caller's legal actions as JSON objects); empty when it is not their turn."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if lg.state is None or seat is None or seat.seat_order is None or lg.row.status != "active":
                return lg.row.public_seq, []
            return lg.row.public_seq, await cpu(legal_json, lg, seat.seat_order)

    async def engine_state(self, game_id: str) -> tuple[int, Any]:
        """(seq, engine state) of a started game: for AI drivers, tests and tools, not for players."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            return lg.row.public_seq, lg.state

    async def public_log(self, game_id: str) -> tuple[int, list[LogEntry]]:
        """(seq, every public event of a started game so far, oldest first).

        Read from the records stored with each move (its events, and whether an undo took it back):
        nothing is replayed. Events addressed to some players only (drawn cards, hands) are left out;
        moves made before records were kept whose events could not be recovered read as one
        :attr:`~bot.models.NoticeKind.unrecorded` line per run of a seat's moves.
        """
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            seq, shown = lg.row.seq, lg.row.public_seq
        entries = public_entries(await self.store.standing(game_id, upto_seq=seq))
        return shown, await self._numbered(game_id, seq, entries)

    async def public_log_slice(self, game_id: str, first: int | None, count: int
                               ) -> tuple[int, int, list[LogEntry]]:
        """(seq, how many entries the public log holds, its entries ``[first, first + count)``; the
        newest ``count`` when ``first`` is None), as :meth:`public_log` gives them: the log is read
        page by page from an index of the moves (seq and number of public events), so a page costs
        the same in a game of any length and only its own events are read and worded."""
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.state is None:
                raise ServiceError("not_started", "The game has not started yet.")
            seq, shown = lg.row.seq, lg.row.public_seq
        index = log_index(await self.store.public_counts(game_id, upto_seq=seq))
        total = sum(n for _, n in index)
        start = max(total - count, 0) if first is None else max(first, 0)
        window = log_window(index, start, count) if count > 0 else None
        if window is None:
            return shown, total, []
        after, upto, skip = window
        rows = await self.store.standing(game_id, after_seq=after, upto_seq=upto)
        return shown, total, await self._numbered(game_id, upto, public_entries(rows)[skip:skip + count])

    async def _numbered(self, game_id: str, upto: int, entries: list[LogEntry]) -> list[LogEntry]:
        """``entries`` numbered as players count moves (:func:`bot.service.records.shown_number`: no quiet
        move, so no gap where one was made)."""
        quiet = await self.store.quiet_entries(game_id, upto_seq=upto) if entries else []
        return [replace(e, seq=shown_number(e.seq, quiet)) for e in entries] if quiet else entries

    # --- notifications ---
    async def since_last_move(self, game_id: str, player: PlayerId, *,
                              limit: int = 400) -> tuple[int | None, list[dict[str, Any]]]:
        """The public record of the moves from ``player``'s last move on (for turn notifications).

        That last move is included: what it set off (the next empire's turn, the
        scoring) is news too. Read from the stored records of the moves that stand
        (a move an undo took back is left out, as the table never saw it): nothing
        is replayed, and the cost follows the moves since the player's last one,
        never the game's length. Only public events are returned, so the result may
        be shown to anyone. Looks back at most ``limit`` moves.

        Returns:
            (the number of ``player``'s last move (as players count moves: quiet moves left out, as in
            every ``seq`` here), or None when it made none within
            the last ``limit`` moves; one dict per move from that one on, oldest
            first, with ``seq``, ``player`` (engine seat), ``source`` (``human``,
            ``ai``, ``timeout``), ``user_id`` and ``events`` (each ``{"type", "data"}``;
            ``unrecorded``: true for a move made before records were kept)).
        """
        row = await self.store.get_game(game_id)
        if row is None:
            raise ServiceError("no_such_game", f"There is no game {game_id!r}.", game_id=game_id)
        if row.status == "lobby":
            return None, []
        # a seat's join is no move of theirs: a newcomer hears what happened as if they had never moved
        last = await self.store.last_move(game_id, player)
        after = 0 if last is None else last - 1
        recent = await self.store.standing(game_id, after_seq=after, upto_seq=row.seq, last=limit)
        if last is not None and (not recent or recent[0].seq > last):
            last = None  # further back than ``limit`` moves
        news = news_entries(recent)
        if row.quiet:  # numbered as players count moves: no gap where a quiet move was made
            quiet = await self.store.quiet_entries(game_id, upto_seq=row.seq)
            last = None if last is None else shown_number(last, quiet)
            news = [{**entry, "seq": shown_number(int(entry["seq"]), quiet)} for entry in news]
        return last, news
