"""7 Discard empire (L1010-1020), and the discard of an empire left without units (at any time, L1012).

Discarding removes the empire's units and the non-city markers (forts, disorder, artefacts) of the
areas it alone holds (L1016) and its markers from its card; its capital stays as a plain city of the
same value, its unnamed leaders go back to the cup, its named leaders leave the game, and its card
goes to the discard pile. Its colour is free again. A go of the empire under way ends with it, and
that is the end of its player's action: the clean-ups of :mod:`~engine.seven_ages.cleanup` run.
The Successor State (card 162) is a Deluxe card: not in this deck.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Action
from engine.seven_ages import steps
from engine.seven_ages.cleanup import end_of_action, markers_of_discarded, retire_leader
from engine.seven_ages.markers import BaseGoRules, MarkerStep, end_go
from engine.seven_ages.state import Go, SevenState
from engine.seven_ages.steps import Ctx


def discard_empire(ctx: Ctx, card: int, *, forced: bool) -> None:
    s = ctx.state
    e = s.empire(card)
    s = markers_of_discarded(s, e)
    for ld in e.leaders:
        s = retire_leader(s, ld)
    # a go of the empire under way ends with it (its production once its last unit went unmaintained)
    ended = any(g.empire == card and g.action != "start" for g in s.goes)
    ctx.state = replace(s.without_empire(card), discard=(*s.discard, card),
                        goes=tuple(g for g in s.goes if g.empire != card or g.action == "start"),
                        pending=tuple(p for p in s.pending if p.empire != card))
    ctx.emit("empire_discarded", seat=e.owner, empire=card, forced=forced)
    if ended:
        end_of_action(ctx)


def sweep(ctx: Ctx) -> None:
    """Discard at once every empire with no units on the map, except one still being set up."""
    busy = {int(g.data.get("card", g.empire)) for g in ctx.state.goes if g.action == "start"}
    for e in ctx.state.empires:
        if not e.units and e.card not in busy:
            discard_empire(ctx, e.card, forced=True)


class DiscardRules(BaseGoRules):
    action = "discard"
    not_part = ("wrong_step", "A discard takes no move once its marker is turned.")

    def begin(self, ctx: Ctx, go: Go) -> None:
        discard_empire(ctx, go.empire, forced=False)
        end_go(ctx, go.seat)

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        return []

    def passive(self, state: SevenState, go: Go) -> Action:
        raise AssertionError("a discard takes no move once its marker is turned")


steps.after_move(sweep)
steps.register(MarkerStep(DiscardRules()))
