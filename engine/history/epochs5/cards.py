"""Enhancement event cards: when they may be played, their targets and their effects.

Enhancements are played by the active empire (never a kingdom) "at any time
except during an invasion": from its establishment to its last invasion, between
invasions, also once the card is out of armies. An invasion lasts from placing
the army to its win, tie or retreat, so a reroll or a siege (even one paid with
siege tokens alone) is part of it; the kingdom step comes before the empire is
active, and the monuments, resigning and scoring after it. A card
marked ``savable`` may be kept for a later epoch; the others and kingdoms are
discarded when the epoch they were chosen in ends. Cards that take armies
from the supply cannot be played unless the supply covers the whole effect;
an army that replaces another does not reduce structures or remove forts, and
structures reduced by an event never score a marauder's point.
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.history.epochs5.board import (
    Ctx,
    forts_free,
    place_fort,
    place_monument,
    place_structure,
    reduce_structure,
    remove_army,
    remove_fort,
    resolve_land,
)
from engine.history.epochs5.data import EventCard
from engine.history.epochs5.state import Phase, TurnStep

TURN_LONG = ("reroll", "assault", "ignore_terrain")
TARGETED = (
    "fortify",
    "fleet",
    "caravan",
    "monument",
    "city",
    "diplomacy",
    "revolution",
    "barbarians",
    "disaster",
)


def count(card: EventCard) -> int:
    return int(card.params.get("count", 1))


def armies_needed(card: EventCard) -> int:
    if card.effect == "reinforce":
        return int(card.params.get("armies", 1))
    if card.effect in ("diplomacy", "revolution", "barbarians"):
        return 1
    return 0


def playable_now(ctx: Ctx) -> bool:
    state = ctx.state
    turn = state.turn
    return (
        state.phase is Phase.TURN
        and turn is not None
        and turn.step is TurnStep.INVADE
        and turn.force_kind == "empire"
        and turn.battle is None
    )


def during_invasion_refusal(ctx: Ctx) -> str:
    """Why no enhancement may be played at this moment of the turn."""
    turn = ctx.turn
    if turn.battle is not None:
        return (f"The invasion of {turn.battle['land']} is still going on: enhancements are played "
                "any time except during an invasion.")
    if turn.force_kind == "kingdom":
        return "You cannot play enhancements while playing a kingdom."
    if turn.step is TurnStep.KINGDOM:
        return "Enhancements help your empire: play them once it is established."
    return "Enhancements are played by your empire between invasions."


def why_unplayable(ctx: Ctx, cid: str) -> str | None:
    state = ctx.state
    card = ctx.rules.events[cid]
    if card.is_kingdom:
        return "Kingdoms are played before your empire is established."
    if not playable_now(ctx):
        return during_invasion_refusal(ctx)
    if card.epoch != state.epoch and not card.savable:
        return f"{card.name} cannot be saved for a later epoch."
    if ctx.supply(ctx.turn.player) < armies_needed(card) * (count(card) if card.effect != "reinforce" else 1):
        return f"Your supply lacks the armies {card.name} needs."
    if card.effect in TARGETED and not candidates(ctx, card):
        return f"{card.name} has no possible target now."
    return None


def playable(ctx: Ctx) -> list[str]:
    turn = ctx.turn
    return [cid for cid in sorted(set(ctx.state.hands[turn.player])) if why_unplayable(ctx, cid) is None]


def candidates(ctx: Ctx, card: EventCard) -> list[str]:
    """Every target the card may take now (territories, seas or barren lands)."""
    state = ctx.state
    turn = ctx.turn
    wmap = ctx.rules.map
    mine = state.force_lands(turn.force)
    chosen = turn.pending["chosen"] if turn.pending else []
    effect = card.effect
    out: list[str] = []
    if effect == "fortify":
        out = [t for t in mine if t not in state.forts] if forts_free(ctx) > 0 else []
    elif effect == "monument":
        out = (
            [t for t in mine if t not in state.monuments]
            if len(state.monuments) < ctx.rules.monuments
            else []
        )
    elif effect == "city":
        full = len(state.structures) >= ctx.rules.structures
        out = [t for t in mine if t not in state.structures] if not full else []
    elif effect == "fleet":
        waters = {w for t in mine for w in wmap.lands[t].waters if wmap.waters[w].fleets}
        out = sorted(waters - set(turn.fleets))
    elif effect == "caravan":
        out = sorted(
            {b for t in mine for b in wmap.neighbours(t) if wmap.lands[b].barren} - set(turn.caravans)
        )
    elif effect == "diplomacy":
        near = {n for t in mine for n in wmap.neighbours(t)}
        out = sorted(t for t in near if state.occupant(t) not in (None, turn.player))
    elif effect == "revolution":
        out = sorted(t for t in state.structures if state.occupant(t) not in (None, turn.player))
    elif effect == "barbarians":
        out = sorted(
            t
            for t, land in wmap.lands.items()
            if not land.barren
            and state.occupant(t) not in (None, turn.player)
            and any(wmap.lands[n].barren for n in wmap.neighbours(t))
        )
    elif effect == "disaster":
        hit = set(state.structures) | set(state.monuments)
        out = sorted(t for t in hit if state.occupant(t) != turn.player)
    return [t for t in out if t not in chosen]


def play(ctx: Ctx, cid: str) -> None:
    state = ctx.state
    turn = ctx.turn
    if cid not in state.hands[turn.player]:
        raise IllegalAction("not_in_hand", f"You do not hold the event card {cid!r}.", card=cid)
    why = why_unplayable(ctx, cid)
    if why is not None:
        raise IllegalAction("unplayable", why, card=cid)
    card = ctx.rules.events[cid]
    state.hands[turn.player].remove(cid)
    turn.played.append(cid)
    ctx.emit("event_played", player=turn.player, card=cid, name=card.name)
    if card.effect in TURN_LONG:
        turn.effects.append(card.effect)
    elif card.effect == "reinforce":
        turn.pool += armies_needed(card)
        ctx.emit("reinforced", player=turn.player, armies=armies_needed(card))
    elif card.effect == "siege":
        tokens = int(card.params.get("tokens", 1))
        turn.siege_tokens += tokens
        ctx.emit("siege_tokens", player=turn.player, count=tokens)
    else:
        turn.pending = {
            "source": "event",
            "card": cid,
            "effect": card.effect,
            "left": count(card),
            "chosen": [],
        }
        turn.step = TurnStep.TARGET


def pending_candidates(ctx: Ctx) -> list[str]:
    """Targets for the event card waiting for them."""
    pending = ctx.turn.pending
    assert pending is not None and pending["source"] == "event"
    return candidates(ctx, ctx.rules.events[pending["card"]])


def choose(ctx: Ctx, name: str) -> None:
    turn = ctx.turn
    pending = turn.pending
    if turn.step is not TurnStep.TARGET or pending is None:
        raise IllegalAction("no_target", "Nothing is waiting for a target.")
    wmap = ctx.rules.map
    target = name
    if pending["effect"] == "fleet":
        try:
            target = wmap.resolve_water(name)
        except KeyError:
            raise IllegalAction("unknown_water", f"There is no sea or ocean called {name!r}.") from None
    else:
        target = resolve_land(ctx, name)
    if target not in pending_candidates(ctx):
        raise IllegalAction("bad_target", f"{target} is not a possible target now.", target=target)
    _apply(ctx, str(pending["effect"]), target)
    pending["chosen"].append(target)
    pending["left"] -= 1
    if pending["left"] <= 0 or not pending_candidates(ctx):
        finish(ctx)


def may_finish(ctx: Ctx) -> bool:
    """``Done`` ends targeting early; an event needs at least its first target."""
    pending = ctx.turn.pending
    return pending is not None and bool(pending["chosen"])


def finish(ctx: Ctx) -> None:
    turn = ctx.turn
    if turn.pending is None or not may_finish(ctx):
        raise IllegalAction("choose_first", "Choose a target for the card first.")
    turn.pending = None
    turn.step = TurnStep.INVADE


def _apply(ctx: Ctx, effect: str, target: str) -> None:
    state = ctx.state
    turn = ctx.turn
    if effect == "fortify":
        place_fort(ctx, target)
    elif effect == "monument":
        place_monument(ctx, target)
    elif effect == "city":
        place_structure(ctx, target, "city")
    elif effect == "fleet":
        turn.fleets.append(target)
        ctx.emit("fleet_placed", water=target)
    elif effect == "caravan":
        turn.caravans.append(target)
        ctx.emit("caravan_placed", land=target)
    elif effect in ("diplomacy", "revolution"):
        remove_army(ctx, target, effect)
        state.armies[target] = [turn.player, turn.force]
        ctx.emit("occupied", land=target, player=turn.player, why=effect)
    elif effect == "barbarians":
        remove_army(ctx, target, effect)
        reduce_structure(ctx, target)
        remove_fort(ctx, target)
        state.armies[target] = [turn.player, ""]
        ctx.emit("occupied", land=target, player=turn.player, why=effect, resigned=True)
    elif effect == "disaster":
        reduce_structure(ctx, target)
        remove_fort(ctx, target)
