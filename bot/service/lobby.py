"""Lobbies: open one, join, leave, add or remove seats, start the game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.models import PUBLIC, Departure, GameRow, Notice, NoticeKind, Outcome, SeatRow, TimerSettings
from bot.outbox import route
from bot.service.base import ServiceBase, saving
from bot.service.errors import ServiceError, refused
from bot.service.offload import cpu, seated, set_up
from bot.service.records import Loaded, Unit, clean_name, next_slot, require_manager, spec_or_error
from bot.service.text_input import MAX_GAME_ID, MAX_NAME, MAX_TEXT, checked_game_id, checked_text
from bot.store import StoreConflict
from engine.core import IllegalAction, join_entry

SEED_LIMIT = 2**63  # a seed is stored as SQLite's signed 64-bit INTEGER
LEFT_GAME = "You left this game; only its creator or a server admin can give you a seat again."


class LobbyOps(ServiceBase):
    """The lobby half of :class:`bot.service.GameService`."""

    # == lobby ===========================================================================
    async def create_lobby(
        self,
        creator_id: int,
        creator_name: str,
        ruleset: str,
        *,
        options: Mapping[str, Any] | None = None,
        max_seats: int | None = None,
        timers: TimerSettings | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        seed: int | None = None,
        creator_joins: bool = True,
    ) -> Outcome:
        """Open a lobby for ``ruleset`` (a registered game id); the creator takes the first seat.

        Raises:
            ServiceError: unknown game, bad options, seats outside the game's range, bad timers.
        """
        spec = spec_or_error(checked_text(ruleset, "A game's name", MAX_GAME_ID))
        max_seats = spec.max_players if max_seats is None else max_seats
        if not spec.min_players <= max_seats <= spec.max_players:
            raise ServiceError("bad_seats", f"{spec.title} is for {spec.min_players} to {spec.max_players} "
                               f"players, not {max_seats}.", min=spec.min_players, max=spec.max_players)
        timers = timers or TimerSettings()
        problems = timers.problems()
        if problems:
            raise ServiceError("bad_timers", " ".join(problems))
        opts = dict(options or {})
        for key, value in opts.items():  # what a person typed reaches the rules checked
            checked_text(key, "An option's name", MAX_NAME)
            if isinstance(value, str):
                checked_text(value, "An option", MAX_TEXT)
        if seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
            raise ServiceError("bad_options", f"A seed is a whole number from 0 to {SEED_LIMIT - 1}.")
        seed = self._new_seed() if seed is None else seed
        game = await cpu(spec.load)  # a game's first use imports it and reads its data: not on the loop
        try:
            spec.lobby_options(spec.min_players, opts)  # each option offered, its type and range
            await cpu(set_up, game, spec.min_players, opts, seed)  # and what only the rules can check
        except IllegalAction as exc:
            raise ServiceError("bad_options", exc.message, **exc.params) from exc
        name = clean_name(creator_name)
        now = self._now()
        for _ in range(5):
            row = GameRow(game_id=self._new_id(), ruleset=ruleset, options=opts, seed=seed, status="lobby",
                          creator_id=creator_id, max_seats=max_seats, created_at=now, updated_at=now,
                          timers=timers, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id)
            seats = [SeatRow(row.game_id, 0, name, now, user_id=creator_id)] if creator_joins else []
            notice = Notice(row.game_id, NoticeKind.lobby_opened,
                            {"ruleset": ruleset, "title": spec.title, "creator": creator_id, "name": name},
                            PUBLIC, 0)
            try:
                with saving("new game"):
                    rows = await self.store.create_game(row, seats, route(row.game_id, [notice]))
                break
            except StoreConflict:
                continue
        else:
            raise ServiceError("conflict", "Could not find a free game id; please try again.")
        lg = Loaded(row, spec, game, {s.slot: s for s in seats}, None, [], {})
        await self._refresh_prefs(lg, [creator_id] if creator_joins else [])
        self._remember(lg)
        return await self._publish(Outcome(row.game_id, (notice,), self._status(lg), tuple(rows)))

    async def join(self, game_id: str, user_id: int, display_name: str) -> Outcome:
        """Take a free seat in a lobby, or in a game under way whose rules take newcomers (its spec's
        ``joins_in_progress``: the game seats them through :meth:`engine.core.Game.join`)."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            if lg.row.status == "lobby" or not lg.spec.joins_in_progress:
                self._require_lobby(lg)
            else:
                self._require_active(lg)
            if lg.seat_of_user(user_id) is not None:
                raise ServiceError("already_seated", "You already have a seat in this game.")
            # kicked, resigned or replaced: coming back as a newcomer would undo a moderator's decision
            if lg.row.status != "lobby" and await self.store.departure(game_id, user_id) is not None:
                raise ServiceError("departed", LEFT_GAME)
            if len(lg.seats) >= lg.row.max_seats:
                raise ServiceError("lobby_full", "This game is full.", max=lg.row.max_seats)
            await self._refresh_prefs(lg, [user_id])
            if lg.row.status == "active":
                outcome = await self._join_running(lg, user_id, clean_name(display_name))
            else:
                unit = self._unit(lg)
                seat = SeatRow(game_id, next_slot(lg), clean_name(display_name), unit.now, user_id=user_id)
                unit.seats[seat.slot] = seat
                unit.notice(NoticeKind.player_joined, user_id=user_id, name=seat.display_name)
                outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)  # outside the lock: listeners read the game

    async def _join_running(self, lg: Loaded, user_id: int, name: str) -> Outcome:
        """Seat a newcomer in a running game: the game's join (refused in its own words, nothing
        changed), the seat row and the log's join entry in one transaction; their decisions follow as
        anyone's (their hand and their turn by DM)."""
        unit = self._unit(lg)
        order = len(unit.names())
        try:
            result = await cpu(seated, lg.game, unit.state)
        except IllegalAction as exc:
            raise refused(exc) from exc
        slot = next_slot(lg)
        unit.seats[slot] = SeatRow(lg.row.game_id, slot, name, unit.now, user_id=user_id, seat_order=order,
                                   colour=lg.spec.colour(order))
        # the game's own event says who joined, named as every line names a seat ("bob (Green)")
        self._record(unit, order, join_entry(order), result, "human", user_id)
        return await self._finish(lg, unit)

    async def leave(self, game_id: str, user_id: int) -> Outcome:
        """Give up one's seat in a lobby (in a running game, use :meth:`resign`).

        When the creator leaves, the lobby passes to the person seated longest; with
        nobody left, it closes.
        """
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            seat = lg.seat_of_user(user_id)
            if seat is None:
                raise ServiceError("not_seated", "You have no seat in this game.")
            if lg.row.status != "lobby":
                raise ServiceError("not_in_lobby", "The game has started; use resign to leave it.")
            unit = self._unit(lg)
            del unit.seats[seat.slot]
            unit.deleted_slots.append(seat.slot)
            unit.notice(NoticeKind.player_left, user_id=user_id, name=seat.display_name)
            if user_id == lg.row.creator_id:
                self._pass_lobby(unit)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    @staticmethod
    def _pass_lobby(unit: Unit) -> None:
        """The creator left: the next person seated runs the lobby; nobody seated, it closes."""
        people = sorted((s for s in unit.seats.values() if s.user_id is not None and not s.is_ai),
                        key=lambda s: s.slot)
        if people:
            unit.creator = people[0].user_id
            unit.notice(NoticeKind.lobby_passed, user_id=people[0].user_id, name=people[0].display_name)
        else:
            unit.status = "abandoned"
            unit.notice(NoticeKind.lobby_closed)

    async def remove_ai(
        self, game_id: str, by_user_id: int, name: str, *, is_admin: bool = False
    ) -> Outcome:
        """Take an AI seat out of a lobby by its name ("AI 1") (the creator or an admin)."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            self._require_lobby(lg)
            wanted = " ".join(checked_text(name, "A seat's name", MAX_NAME).split()).casefold()
            seat = next((s for s in lg.ordered() if s.is_ai and s.user_id is None
                         and s.display_name.casefold() == wanted), None)
            if seat is None:
                ais = ", ".join(s.display_name for s in lg.ordered() if s.is_ai) or "none"
                raise ServiceError("not_seated", f"There is no AI seat called {name!r} here (AI seats: "
                                   f"{ais}).", name=name)
            unit = self._unit(lg)
            del unit.seats[seat.slot]
            unit.deleted_slots.append(seat.slot)
            unit.notice(NoticeKind.seat_removed, name=seat.display_name, ai=True)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def add_ai(
        self, game_id: str, by_user_id: int, *, is_admin: bool = False, policy: str | None = None,
        name: str | None = None,
    ) -> Outcome:
        """Add an AI seat to a lobby (the creator or an admin)."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            self._require_lobby(lg)
            if len(lg.seats) >= lg.row.max_seats:
                raise ServiceError("lobby_full", "This game is full.", max=lg.row.max_seats)
            policy = self._check_policy(lg, checked_text(policy or self.default_ai, "An AI's name", MAX_NAME))
            unit = self._unit(lg)
            slot = next_slot(lg)
            label = clean_name(name) if name else f"AI {sum(s.is_ai for s in lg.seats.values()) + 1}"
            unit.seats[slot] = SeatRow(game_id, slot, label, unit.now, is_ai=True, ai_policy=policy)
            unit.notice(NoticeKind.seat_added, name=label, ai=True)
            outcome = await self._commit_outcome(lg, unit)
        return await self._publish(outcome)

    async def kick(
        self, game_id: str, by_user_id: int, target_user_id: int, *, is_admin: bool = False
    ) -> Outcome:
        """Remove a player (creator or admin): from a lobby, or hand their seat to the AI."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            seat = lg.seat_of_user(target_user_id)
            if seat is None:
                raise ServiceError("not_seated", "That person has no seat in this game.")
            self._require_not_finished(lg)
            unit = self._unit(lg)
            if lg.row.status == "lobby":
                del unit.seats[seat.slot]
                unit.deleted_slots.append(seat.slot)
                unit.notice(NoticeKind.player_left, user_id=target_user_id, name=seat.display_name,
                            kicked=True)
                outcome = await self._commit_outcome(lg, unit)
            else:
                self._seat_to_ai(unit, seat, "kicked")
                unit.departures.append(Departure(target_user_id, "kicked"))
                outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

    async def start(self, game_id: str, by_user_id: int, *, is_admin: bool = False) -> Outcome:
        """Start the game (creator or admin): draw the seat order from the game's seed and set up."""
        game_id = checked_game_id(game_id)
        async with self._locked(game_id):
            lg = await self._load(game_id)
            require_manager(lg, by_user_id, is_admin)
            self._require_lobby(lg)
            n = len(lg.seats)
            if n < lg.spec.min_players:
                raise ServiceError("not_enough_players", f"{lg.spec.title} needs at least "
                                   f"{lg.spec.min_players} players; {n} seated.", needed=lg.spec.min_players)
            await self._refresh_prefs(lg, [s.user_id for s in lg.seats.values() if s.user_id is not None])
            slots = sorted(lg.seats)
            random.Random(f"annals-seats:{lg.row.seed}").shuffle(slots)
            try:
                state = await cpu(set_up, lg.game, n, lg.row.options, lg.row.seed)
            except IllegalAction as exc:
                raise ServiceError("bad_options", exc.message, **exc.params) from exc
            unit = self._unit(lg)
            for order, slot in enumerate(slots):
                unit.seats[slot] = replace(lg.seats[slot], seat_order=order, colour=lg.spec.colour(order))
            unit.state, unit.status, unit.state_changed = state, "active", True
            table = [unit.seats[s] for s in slots]
            names = unit.names()
            unit.notice(NoticeKind.game_started, seats=[
                {"seat": s.seat_order, "name": names[s.seat_order or 0], "user_id": s.user_id, "ai": s.is_ai}
                for s in table])
            outcome = await self._finish(lg, unit)
        return await self._publish(outcome)

