"""A seat's standing orders as a decision (:meth:`engine.core.Game.orders`): what the console's ``orders``
and ``/annals orders`` offer a 7 Ages player at any time.

The orders are the pre-armed events of :mod:`engine.seven_ages.armed`: arm a card of one's hand to be
played on another player's empire as it begins the card's action, or withdraw an order. Every choice is
built from the player's own view (their hand, their orders, the empires on the map and the areas they
hold), so the decision shows nothing they may not see, and offers exactly the ``arm`` moves
:func:`engine.seven_ages.armed.standing_order` takes: each area set of as many areas as the card
disorders, held by that empire now; for a card that takes money, each empire of theirs in play to
receive it.

A card and target with more than one way to arm them is a group (the card on that empire, then its
areas or its receiver); one with a single way is a lone choice, as is each withdrawal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.core import Choice, Decision, Names, PlayerId
from engine.seven_ages.armed import WHEN_THEY, armable, disorders, takes
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import Arm, Disarm
from engine.seven_ages.text import empire_name, order_tail, seat
from engine.seven_ages.view import EmpireView, OrderView, SevenView
from engine.words import join_words

LABEL = 100  # the contract's longest label

HEADING = ("Your standing orders, seen by you alone: arm an event card to be played on another player's "
           "empire as it begins the card's action, or withdraw an order")


def decide(view: SevenView, player: PlayerId, names: Names) -> Decision:
    """``player``'s standing orders now, from their own ``view``: every way to arm each armable card of
    their hand on each other player's empire in play, then the withdrawal of each order they have armed.
    With none, the heading says why."""
    if view.get("over"):
        return Decision(player, "The game is over: there are no orders to give", ())
    hand = [c for c in view.get("your_hand") or [] if armable(c)]
    you = view["you"]  # None in a spectator's view
    armed = list(you["armed"]) if you is not None else []
    targets = [e for e in view["empires"] if e["owner"] != player]
    own = [e for e in view["empires"] if e["owner"] == player]
    choices = [c for card in hand for e in targets for c in _arms(player, card, e, own, names)]
    choices += [_disarm(player, o) for o in armed]
    if choices:
        return Decision(player, HEADING, tuple(choices))
    return Decision(player, _nothing(hand, targets), ())


def _event(card: int) -> str:
    return load_deck().cards[card].event.name


def _arms(player: PlayerId, card: int, target: EmpireView, own: Sequence[EmpireView],
          names: Names) -> list[Choice]:
    """Every way to arm ``card`` on the empire ``target``: its area sets, else its receivers, else one."""
    empire = int(target["card"])
    event = f"{_event(card)} on {empire_name(empire)}"
    held = sorted({str(s[0]) for s in target["stacks"]})
    wanted = disorders(card)
    if wanted:
        ways = [(Arm(player, card, empire, ",".join(areas)), join_words(list(areas)))
                for areas in combinations(held, wanted)]
        tails = [f", disordering {words}" for _, words in ways]
    elif takes(card):
        ways = [(Arm(player, card, empire, "", int(e["card"])), empire_name(int(e["card"]))) for e in own]
        tails = [f", the money to {words}" for _, words in ways]
    else:
        ways = [(Arm(player, card, empire), "")]
        tails = [f" {WHEN_THEY.get(load_deck().cards[card].event.timing, 'when they take their go')}"]
    group = f"Arm {event} of {seat(names, int(target['owner']))}" if len(ways) > 1 else ""
    return [Choice(action, _label(f"Arm {event}{tail}", f"{event}: {words}"), group=group)
            for (action, words), tail in zip(ways, tails, strict=True)]


def _label(full: str, short: str) -> str:
    """``full`` when it fits a label, else ``short`` (the card, the empire and the areas, without the verb):
    both name everything the move sets, so labels stay unique."""
    return full if len(full) <= LABEL else short


def _disarm(player: PlayerId, order: OrderView) -> Choice:
    card, empire = int(order["card"]), int(order["empire"])
    words = f"{_event(card)} on {empire_name(empire)}"
    full = f"Withdraw {words}{order_tail(list(order['areas']), int(order.get('to', 0)))}"
    return Choice(Disarm(player, card), _label(full, f"Withdraw {words}"))


def _nothing(hand: Sequence[int], targets: Sequence[EmpireView]) -> str:
    """Why a player has no order to give: no armable card, or no empire to arm one against."""
    if not hand:
        able = sorted({c.event.name for c in load_deck().cards.values() if armable(c.number)})
        return (f"You have no standing order to give: you hold none of the cards that can be armed "
                f"({join_words(able)}) and have no order armed")
    if not targets:
        return ("You have no standing order to give: no other player has an empire in play to arm "
                f"{join_words([_event(c) for c in hand])} against, and you have no order armed")
    return ("You have no standing order to give: no empire on the map fits what your cards need (as many "
            "areas as they disorder, an empire of yours to receive the money they take), and you have no "
            "order armed")
