"""``/annals orders``: a seat's standing orders as a panel, to the asker alone. No rules, no game here.

A game with standing orders (its spec's ``standing_orders`` facet) offers a seat, at any time, the moves
it may send whoever acts, as a :class:`engine.core.Decision` (:meth:`engine.core.Game.orders`: in 7 Ages,
arm an event card to be played in another player's go, or withdraw an order). The panel draws it as the
decision panel draws a turn's decision (:mod:`bot.discord.panel`: groups, selects of 25, pages, a
question first), with components of its own: their custom_ids read ``dp:ob:`` and ``dp:os:``, a click
is matched against the person's orders now rather than their turn's decision, and it counts whoever's
turn it is. A choice goes through the service's one submit (the game's lock, the store, undo), and the
answer (the move's own lines, then the orders as they stand) goes to the clicker alone.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any

import discord

from bot.discord.kit import (
    GAME,
    MAX_MESSAGE,
    SEQ,
    USER,
    BotBase,
    Reply,
    clip,
)
from bot.discord.panel import (
    KEY,
    PICK,
    Kinds,
    PanelButton,
    PanelSelect,
    click,
    components,
    first_step,
    fit,
    heading_text,
    own_lines,
    sentence,
)
from bot.models import GameStatus
from engine.core import Choice, Decision

BUTTON_ID = re.compile(
    rf"dp:ob:(?P<game>{GAME}):(?P<seq>{SEQ}):(?P<user>{USER}):(?P<pick>{PICK}):(?P<key>{KEY})")
SELECT_ID = re.compile(rf"dp:os:(?P<game>{GAME}):(?P<seq>{SEQ}):(?P<user>{USER}):(?P<part>[0-9]{{1,4}})")
STALE = ("These orders are out of date: what you may order has changed since they were shown. Use "
         "`/annals orders` for your orders now.")
GONE = "That is not one of your orders now; use `/annals orders` for your orders now."


async def orders_panel(bot: BotBase, game_id: str, user_id: int) -> Reply:
    """The person's standing orders now, with their buttons or selects (or why there are none)."""
    seq, decision = await bot.service.orders(game_id, user_id)
    return shown(await bot.service.status(game_id), user_id, seq, decision)


def shown(status: GameStatus, user_id: int, seq: int, decision: Decision | None) -> Reply:
    """``decision`` (the person's orders read at ``seq``) as a panel; a sentence when there is none."""
    game_id = status.game_id
    if decision is None:
        return Reply(f"Game `{game_id}` is {status.status}: there are no orders to give." if status.status !=
                     "active" else f"The AI holds your seat in game `{game_id}`; take it back first.")
    text = clip(heading_text(game_id, status.title, decision), MAX_MESSAGE)
    if not decision.choices:
        return Reply(sentence(text))
    return Reply(text, view=components(game_id, seq, user_id, first_step(decision), kinds=ORDERS))


async def resolve(bot: BotBase, game_id: str, user_id: int, seq: int, pick: str, key: str) -> Reply:
    """Do what a click on ``pick`` (built at ``seq``) asks of the person's orders now."""
    now, decision = await bot.service.orders(game_id, user_id)
    status = await bot.service.status(game_id)
    if decision is None:
        return shown(status, user_id, now, decision)
    clicked = click(ORDERS, game_id, user_id, status.title, decision, seq, now, pick, key)
    if isinstance(clicked, Reply):
        return clicked
    return await send(bot, game_id, user_id, now, clicked)


async def send(bot: BotBase, game_id: str, user_id: int, seq: int, choice: Choice) -> Reply:
    """Send ``choice`` through the service's submit; answer with what it did, then the orders now."""
    out = await bot.service.submit(game_id, user_id, choice.action.to_json(), seq)
    # the move's own notices come first in its outcome, whatever seq the game gave them (an order may
    # leave the public move count as it was)
    first = min((n.seq for n in out.notices), default=seq + 1)
    lines = [f"You chose: {sentence(choice.label)}", *own_lines(out, user_id, first - 1)]
    nxt = await orders_panel(bot, game_id, user_id)
    return Reply(fit(lines, nxt.content), view=nxt.view)


class OrdersButton(PanelButton, template=BUTTON_ID.pattern):
    """One entry of a person's standing orders (an order, a group, a question or the next page)."""

    KIND = "ob"
    WHAT = "an orders button"
    ANYTIME = True
    STALE_TEXT = STALE

    def answer(self, bot: BotBase, user_id: int, pick: str, key: str) -> Awaitable[Reply]:
        return resolve(bot, self.game_id, user_id, self.seq, pick, key)


class OrdersSelect(PanelSelect, template=SELECT_ID.pattern):
    """Up to 25 entries of a person's standing orders in a select."""

    KIND = "os"
    WHAT = "an orders select"
    ANYTIME = True
    STALE_TEXT = STALE
    GONE_TEXT = GONE

    def answer(self, bot: BotBase, user_id: int, pick: str, key: str) -> Awaitable[Reply]:
        return resolve(bot, self.game_id, user_id, self.seq, pick, key)


ORDERS = Kinds(OrdersButton, OrdersSelect, STALE, GONE)
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (OrdersButton, OrdersSelect)
