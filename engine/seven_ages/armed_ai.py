"""Standing orders the computer players arm (:mod:`engine.seven_ages.armed`, issue 27, item 9).

An armed order is the only way a card timed for another empire's go (Nomad raid, Pirate raid, Corrupt
administration, Closed country...) is ever played, so a computer player that arms nothing never plays
those cards. Both players here build an order only from what their seat may see: their own hand and
orders, and the public board (which empires are in play and whose, the areas they hold and which are in
disorder, their money, the players' glory). An order is always one
:func:`engine.seven_ages.armed.standing_order` accepts at the moment it is sent: the card in the hand,
armable, not armed already, on another player's empire, naming as many of its areas as the event disorders
and, for an event that takes money, one of the sender's empires to receive it.

- The greedy player (:func:`greedy_order`) arms a card against an empire of the player leading in glory
  (the other seats only: "the opponent's loss"), the one the order costs most: for a raid that disorders,
  the empire with the most areas still in order, its biggest cities named; for one that takes money, the
  richest; for a lost action or a cut income, the one with the most areas. Money taken goes to its own
  richest empire. With option 8 it skips an empire none of its own has within Range (the order would be
  dropped as it fires, L1224).
- The random player (:func:`random_order`) arms one of its armable cards on any other player's empire,
  the areas drawn at random, from its own dice, so a seed replays the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import rng
from engine.core import PlayerId
from engine.policy import PolicyRng
from engine.seven_ages import armed, civ_events, event_ai, take_that
from engine.seven_ages.civilisation_moves import Arm
from engine.seven_ages.state import Empire, SevenState


def unarmed(state: SevenState, player: PlayerId) -> list[int]:
    """The cards of ``player``'s hand that may be armed and carry no order yet (nor wait, fired, for a
    permission to count Range through others' areas), in card order."""
    done = {*(o[0] for o in armed.orders(state, player)), *armed.waiting(state, player)}
    return [c for c in sorted(state.people[player].hand) if c not in done and armed.armable(c)]


def _targets(state: SevenState, player: PlayerId, card: int) -> list[Empire]:
    """The empires ``card`` could be armed on: another player's, holding enough areas to name."""
    return [e for e in state.empires if e.owner != player and len(e.areas()) >= armed.disorders(card)]


def _receiver(state: SevenState, player: PlayerId, card: int) -> int | None:
    """The empire that receives what ``card`` takes (0 when it takes nothing; None when none can)."""
    if not armed.takes(card):
        return 0
    mine = state.empires_of(player)
    return max(mine, key=lambda e: (e.money, -e.card)).card if mine else None


def _open_first(state: SevenState, e: Empire) -> list[str]:
    """``e``'s areas, those an event may still disorder first, the biggest city first, then by name."""
    open_ = set(civ_events.disorder_candidates(state, e))
    return sorted(e.areas(), key=lambda a: (a not in open_, -state.area(a).city, a))


def _hurt(state: SevenState, card: int, e: Empire) -> tuple[int, int, int]:
    """How much an order on ``card`` costs ``e`` (higher is more), then the older empire first."""
    if armed.disorders(card):
        return len(civ_events.disorder_candidates(state, e)), len(e.areas()), -e.card
    if armed.takes(card):
        return e.money, len(e.areas()), -e.card
    return len(e.areas()), e.money, -e.card


def greedy_order(state: SevenState, player: PlayerId) -> Arm | None:
    """An order that costs the glory leader: the first unarmed card with an empire of theirs to arm it on."""
    if state.players < 2:
        return None
    leader = event_ai.glory_leader(state, player)
    for card in unarmed(state, player):
        to = _receiver(state, player, card)
        if to is None:
            continue
        theirs = [e for e in _targets(state, player, card) if e.owner == leader
                  and take_that.other_time_problem(state, player, e) is None]
        if not theirs:
            continue
        target = max(theirs, key=lambda e: _hurt(state, card, e))
        areas = _open_first(state, target)[:armed.disorders(card)]
        return Arm(player, card, target.card, ",".join(areas), to)
    return None


def random_order(state: SevenState, player: PlayerId, dice: PolicyRng) -> Arm | None:
    """An order on one of ``player``'s unarmed cards (drawn), on another player's empire (drawn), naming
    areas of it (drawn); None, drawing nothing, when no card can be armed."""
    choices = [(c, to) for c in unarmed(state, player)
               if _targets(state, player, c) and (to := _receiver(state, player, c)) is not None]
    if not choices:
        return None
    card, to = choices[rng.below(dice, len(choices))]
    targets = _targets(state, player, card)
    target = targets[rng.below(dice, len(targets))]
    return Arm(player, card, target.card, ",".join(_draw(dice, target.areas(), armed.disorders(card))), to)


def _draw(dice: PolicyRng, areas: Sequence[str], n: int) -> list[str]:
    """``n`` different areas of ``areas``, drawn one at a time."""
    left, out = list(areas), []
    for _ in range(n):
        out.append(left.pop(rng.below(dice, len(left))))
    return out
