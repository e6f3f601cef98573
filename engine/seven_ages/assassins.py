"""Assassinations (L883-891): two secret draws at once, then one reveal.

"Pick a card from the deck. You may keep that card or discard it and pick another. If you have picked as many
cards as the event specifies (or 3 for the Assassins, card 109), you must keep the last card picked. Keep the
card's value hidden. The target empire's player picks cards in the same way, with the maximum number picked
limited by the empire's Leader number" (L887-889). Like a conflict's commitments
(:mod:`engine.seven_ages.battle`), each side is a :class:`~engine.seven_ages.state.Pending` of kind
:data:`ASSASSIN`, answered in any order: every card drawn waits face down in ``SevenState.aside`` (shown to
its seat alone in a private event), a side that keeps its card waits in ``SevenState.sealed``; the only public
news is that a side drew again or kept a card. When both have kept, one public event shows both cards, and a
higher assassin card removes the leader (a tie fails); every card drawn is discarded then (our reading: a
card put back stays face down until the reveal, so nothing of one side's draws reaches the other).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import Action, IllegalAction, PlayerId
from engine.seven_ages.answers import Answers
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import AssassinCard
from engine.seven_ages.cleanup import retire_leader
from engine.seven_ages.promotion import leader_number
from engine.seven_ages.setup import refill
from engine.seven_ages.state import Empire, Go, Pending
from engine.seven_ages.steps import Ctx
from engine.words import plural

ASSASSIN = "assassin"
"""A side's pending secret draws in an assassination (L887-889)."""


def _draw_aside(ctx: Ctx, seat: PlayerId) -> int:
    """A card from the deck (refilled first, L2107), face down in front of ``seat``; 0 if none is left."""
    refill(ctx, 1)
    s = ctx.state
    if not s.deck:
        return 0
    card = s.deck[0]
    ctx.state = replace(s, deck=s.deck[1:], aside=(*s.aside, (seat, card)))
    ctx.emit("assassin_card_drawn", (seat,), seat=seat, card=card, value=load_deck().cards[card].value)
    return card


def start(ctx: Ctx, go: Go, e: Empire, detail: str, picks_allowed: int) -> None:
    """Both sides draw privately: the assassin up to the event's number, the target's player up to the
    empire's Leader number (L887-889)."""
    name, area = detail.split("|", 1)
    ctx.emit("assassin_target", seat=go.seat, empire=e.card, leader=name, area=area)
    sides = ((go.seat, picks_allowed), (e.owner, max(1, leader_number(ctx.state, e))))
    pendings = []
    for side, (seat, most) in enumerate(sides):
        card = _draw_aside(ctx, seat)
        pendings.append(Pending(ASSASSIN, seat, go.empire, {
            "side": side, "card": card, "drawn": [card] if card else [], "most": most, "target": e.card,
            "leader": name, "area": area}))
    ctx.state = replace(ctx.state, pending=(*ctx.state.pending, *pendings))


def legal(pending: Pending) -> list[Action]:
    out: list[Action] = [AssassinCard(pending.seat, True)]
    if len(pending.data["drawn"]) < int(pending.data["most"]):
        out.append(AssassinCard(pending.seat, False))
    return out


def passive(pending: Pending) -> Action:
    """A timed-out draw keeps the card."""
    return AssassinCard(pending.seat, True)


def move(ctx: Ctx, go: Go, pending: Pending, action: Action) -> None:
    """A side keeps the card it drew, or draws another (:data:`ANSWERS`)."""
    ANSWERS.of(action)(ctx, go, pending, action)


def _keep_or_draw(ctx: Ctx, go: Go, pending: Pending, action: AssassinCard) -> None:
    if action.keep:
        ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending),
                            sealed=(*ctx.state.sealed, pending))
        ctx.emit("assassin_kept", seat=pending.seat)
        if not any(p.kind == ASSASSIN and p.empire == go.empire for p in ctx.state.pending):
            _reveal(ctx, go)
        return
    drawn = list(pending.data["drawn"])
    if len(drawn) >= int(pending.data["most"]):
        raise IllegalAction("no_more_draws", f"You have drawn {plural(len(drawn), 'card')}, the most "
                            "allowed: keep the last one (L887).")
    card = _draw_aside(ctx, pending.seat)  # the one put back stays face down until the reveal
    new = replace(pending, data={**pending.data, "card": card, "drawn": [*drawn, *([card] if card else [])]})
    ctx.state = replace(ctx.state, pending=tuple(new if p is pending else p for p in ctx.state.pending))
    ctx.emit("assassin_redraw", seat=pending.seat)


ANSWERS: Answers[Callable[[Ctx, Go, Pending, Any], None]] = Answers(
    {AssassinCard: _keep_or_draw}, "draw_first", "Keep the card you drew, or draw another, first.")
"""An assassination side's one move: keep the card drawn, or draw another."""


def _reveal(ctx: Ctx, go: Go) -> None:
    """Both have kept a card: show them; a higher assassin card removes the leader, a tie fails (L889)."""
    sealed = sorted((p for p in ctx.state.sealed if p.kind == ASSASSIN and p.empire == go.empire),
                    key=lambda p: int(p.data["side"]))
    drawn = [int(c) for p in sealed for c in p.data["drawn"]]
    ctx.state = replace(ctx.state, sealed=tuple(p for p in ctx.state.sealed if p not in sealed),
                        aside=tuple(x for x in ctx.state.aside if x[1] not in drawn),
                        discard=(*ctx.state.discard, *drawn))
    cards = [int(p.data["card"]) for p in sealed]
    values = [load_deck().cards[c].value if c else 0 for c in cards]
    data = sealed[0].data
    target, name, area = int(data["target"]), str(data["leader"]), str(data["area"])
    killed = values[0] > values[1]
    ctx.emit("assassination", assassin=sealed[0].seat, victim=sealed[1].seat, cards=cards, values=values,
             empire=target, leader=name, area=area, killed=killed)
    if killed and ctx.state.has_empire(target):
        e = ctx.state.empire(target)
        ld = next((x for x in e.leaders if x.name == name and x.area == area), None)
        if ld is not None:
            leaders = list(e.leaders)
            leaders.remove(ld)
            ctx.state = retire_leader(ctx.state.with_empire(replace(e, leaders=tuple(leaders))), ld)
