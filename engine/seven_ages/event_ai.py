"""The greedy player's rules of thumb for the Civilise events with choices
(:mod:`engine.seven_ages.civ_events`).

It plays an event that hurts on an empire of the player leading in glory (the other seats only), and one that
helps on its own empire; it aims a choice where it hurts most (the area with the biggest city, then the most
units; the most valuable card; the richest hand's owner); as a victim it loses its cheapest unit; drawing for
an assassination it keeps a card of 4 or more, or its last allowed draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, PlayerId
from engine.seven_ages import assassins, civ_events, range_requests
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import AssassinCard, EventPick, PlayEvent
from engine.seven_ages.state import Pending, SevenState

HURTS = frozenset({"disorder_areas", "disorder_by_card", "lose_units", "reduce_city", "lose_artefact",
                   "assassinate", "new_dynasty", "look_at_hand", "steal_card"})
"""Codes played on another empire or player: each costs the target."""
HELPS = frozenset({"glory", "progress", "draw_cards", "remove_disorder", "free_city", "improve_city",
                   "modernise", "elite_marker", "convert_area", "build_ahead", "promote_leader"})
"""Codes played on its own empire: each gains it something (a money event helps when it adds money)."""
OWN_GO_HELPS = frozenset({"elite_marker", "build_ahead", "trade_bonus", "steal_money", "draw_cards",
                          "discard_cards", "add_units"})
"""Codes of events played in one's own Production, Trade or Destiny go that gain the empire or the hand
(Oracle bones draws 2 and keeps the better: its discard is the lowest card held; free units go where the
biggest city is, as :func:`event_pick` aims)."""
KEEP_FROM = 4
"""An assassination card this high or higher is kept (the deck's values run 0-7)."""


def helps(x: Mapping[str, Any]) -> bool:
    return x["code"] in HELPS or (x["code"] == "money" and int(x["amount"]) > 0)


def hurts(x: Mapping[str, Any]) -> bool:
    return x["code"] in HURTS or (x["code"] == "money" and int(x["amount"]) < 0)


def _own_go_helps(x: Mapping[str, Any]) -> bool:
    code = x["code"]
    if code == "income_percent":
        return int(x["percent"]) > 100
    if code == "unit_cost":
        return int(x["delta"]) < 0
    return code in OWN_GO_HELPS or (code == "money" and int(x["amount"]) > 0)


def own_go_event(state: SevenState, player: PlayerId, plays: Sequence[PlayEvent]) -> Action | None:
    """An event of its own Production, Trade or Destiny go that only gains its empire (more money or
    income, cheaper units, a better trade, a better hand); never one that costs it (Monsoon on itself)."""
    deck = load_deck()
    for play in plays:
        effects = deck.cards[play.card].event.effects
        if effects and all(_own_go_helps(x) for x in effects):
            return play
    return None


def glory_leader(state: SevenState, player: PlayerId) -> int:
    """The other seat with the most glory (the lowest seat among ties)."""
    others = [p for p in state.people if p.seat != player]
    return max(others, key=lambda p: (p.glory, -p.seat)).seat


def civ_event(state: SevenState, player: PlayerId, plays: Sequence[PlayEvent]) -> Action | None:
    """An event worth playing now: one that hurts the glory leader's empire that earned most at its last
    harvest (L2329: "minimise the leading players'" glory), or, for a player target, them; else an
    assassination on any other player's empire, else one that helps its own empire; None when none gains."""
    deck, leader = load_deck(), glory_leader(state, player)
    blows = []
    for play in plays:
        effects = deck.cards[play.card].event.effects
        owner = state.empire(play.target).owner if play.target and state.has_empire(play.target) else None
        if owner == leader and effects and all(hurts(x) for x in effects if x["code"] != "card_check"):
            blows.append(play)
        elif not blows and owner is None and any(x["code"] == "look_at_hand" for x in effects):
            return play
    if blows:  # on the leader's empire that earned most at its last harvest (public): the most glory denied
        return max(blows, key=lambda a: state.empire(a.target).harvests[-1:] or (0,))
    for play in plays:  # a leader within reach is rare (L885): any other player's will do
        owner = state.empire(play.target).owner if play.target and state.has_empire(play.target) else None
        if owner not in (None, player) and any(x["code"] == "assassinate"
                                               for x in deck.cards[play.card].event.effects):
            return play
    for play in plays:
        effects = deck.cards[play.card].event.effects
        mine = play.target and state.has_empire(play.target) and state.empire(play.target).owner == player
        if mine and effects and all(helps(x) for x in effects if x["code"] != "card_check") \
                and not any(x["code"] == "new_dynasty" for x in effects):
            return play
    return glory_on_another(state, player, plays)


def glory_on_another(state: SevenState, player: PlayerId, plays: Sequence[PlayEvent]) -> Action | None:
    """An event played on another player's empire that gives its player glory (Non-violence: the target's
    disorder ends, the glory is the player's), on the empire of the player with the least glory, the one
    its help serves least; None when it holds none."""
    deck = load_deck()
    gifts = [p for p in plays if deck.cards[p.card].event.target == "other_empire"
             and state.has_empire(p.target)
             and state.empire(p.target).owner != player
             and any(x["code"] == "glory" for x in deck.cards[p.card].event.effects)
             and all(helps(x) for x in deck.cards[p.card].event.effects)]
    if not gifts:
        return None
    return min(gifts, key=lambda p: (state.people[state.empire(p.target).owner].glory, p.target, p.area))


def event_pick(state: SevenState, player: PlayerId, picks: Sequence[EventPick]) -> Action:
    """The choice that hurts the target most (or gains the player most)."""
    def worth(a: EventPick) -> tuple[int, int, str]:
        kind, _, detail = a.pick.partition(":")
        if kind == "card":
            return load_deck().cards[int(detail)].value, 0, a.pick
        if kind == "seat":
            return state.people[int(detail)].glory, len(state.people[int(detail)].hand), a.pick
        if kind == "area":
            holder = state.controller(detail)
            return state.area(detail).city, holder.count(detail) if holder else 0, a.pick
        return 0, 0, a.pick
    return max(picks, key=worth)


def assassin_card(pending: Pending) -> Action:
    """Keep a high card, or the last one allowed; draw again otherwise."""
    card = int(pending.data["card"])
    value = load_deck().cards[card].value if card else 0
    again = AssassinCard(pending.seat, False)
    if value < KEEP_FROM and again in assassins.legal(pending):
        return again
    return AssassinCard(pending.seat, True)


def answer(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> Action | None:
    """The greedy answer to an event's question (as its player, a victim or a side drawing), if asked one."""
    pending = next((p for p in state.pending if p.seat == player), None)
    if pending is not None and pending.kind == assassins.ASSASSIN:
        return assassin_card(pending)
    if pending is not None and pending.kind == civ_events.LOSE:
        return civ_events.pending_passive(state, pending)  # its cheapest unit
    if pending is not None and pending.kind == range_requests.PAY:
        return actions[0]  # a price for counting Range through (L2233): paid when the empire can
    picks = [a for a in actions if isinstance(a, EventPick)]
    if not picks or pending is not None:
        return None
    go = state.go_of(player)
    ask = (civ_events.event_of(go).get("ask") or {}) if go is not None else {}
    if ask.get("code") == "discard":  # its own card to lose: the lowest
        cards = load_deck().cards
        return min(picks, key=lambda a: (cards[int(a.pick.partition(":")[2])].value, a.pick))
    return event_pick(state, player, picks)
