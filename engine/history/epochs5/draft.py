"""Start of an epoch: choosing event and empire cards; calling the empires; the end.

Event cards go from the player with the most points down, empire cards from
the player with the fewest up, both sets at once: at step ``k`` the event set
is with ``order[k]`` and the empire set with ``order[n-1-k]`` (``order`` is
most points first), each looks at the whole set, keeps one and passes the
rest once both have chosen. With 3 or 5 players the middle player holds both
sets at the middle step and chooses from the event set, then the empire set
("one set at a time"). Score markers never share a space, so the order never
ties. The optional classic drafting draws the top card of each set instead:
keep it or give it to a player without a card of that set.
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.history.epochs5.board import Ctx
from engine.history.epochs5.state import Phase
from engine.history.epochs5.turn import start_turn
from engine.words import roman

EVENT = "event"
EMPIRE = "empire"


def start_epoch(ctx: Ctx) -> None:
    state = ctx.state
    state.phase = Phase.DRAFT
    n = state.players
    state.draft_order = sorted(range(n), key=lambda p: -state.scores[p])
    state.draft_step = 0
    state.event_set = state.event_piles.pop(str(state.epoch))
    state.empire_set = state.empire_piles.pop(str(state.epoch))
    state.event_picked = state.empire_picked = False
    state.empire_of = [None] * n
    state.revealed = [False] * n
    state.call_pos = 0
    tokens = [
        {"region": t.region, "value": t.value, "until": t.last}
        for t in ctx.rules.tokens
        if t.first == state.epoch
    ]
    ctx.emit(
        "epoch",
        epoch=state.epoch,
        name=f"Epoch {roman(state.epoch)}",
        order=list(state.draft_order),
        region_tokens=tokens,
    )
    _offer(ctx)


def holders(state_order: list[int], step: int) -> tuple[int, int]:
    """(who holds the event set, who holds the empire set) at ``step``."""
    return state_order[step], state_order[len(state_order) - 1 - step]


def classic(ctx: Ctx) -> bool:
    return bool(ctx.state.options.get("classic_drafting"))


def has_card(ctx: Ctx, pile: str, player: int) -> bool:
    state = ctx.state
    if pile == EMPIRE:
        return state.empire_of[player] is not None
    return any(state.chosen_epoch.get(c) == state.epoch for c in state.hands[player])


def give_choices(ctx: Ctx, pile: str, player: int) -> tuple[bool, list[int]]:
    """Classic drafting: (may keep, players the drawn card may be given to)."""
    state = ctx.state
    others = [p for p in range(state.players) if p != player and not has_card(ctx, pile, p)]
    return not has_card(ctx, pile, player), others


def actors(ctx: Ctx) -> set[int]:
    state = ctx.state
    if state.phase is not Phase.DRAFT:
        return set()
    ev, em = holders(state.draft_order, state.draft_step)
    out = set()
    if not state.event_picked:
        out.add(ev)
    if not state.empire_picked:
        out.add(em)
    return out


def looking_at(ctx: Ctx, player: int) -> tuple[str, list[str]] | None:
    """The set ``player`` chooses from now (the middle player sees one set at a time)."""
    state = ctx.state
    if state.phase is not Phase.DRAFT:
        return None
    ev, em = holders(state.draft_order, state.draft_step)
    if player == ev and not state.event_picked:
        return EVENT, ([state.drawn[EVENT]] if classic(ctx) else list(state.event_set))
    if player == em and not state.empire_picked:
        return EMPIRE, ([state.drawn[EMPIRE]] if classic(ctx) else list(state.empire_set))
    return None


def _offer(ctx: Ctx) -> None:
    """Classic drafting: the holders draw; forced choices are made at once."""
    if not classic(ctx):
        return
    state = ctx.state
    ev, em = holders(state.draft_order, state.draft_step)
    for pile, player, picked, cards in (
        (EVENT, ev, state.event_picked, state.event_set),
        (EMPIRE, em, state.empire_picked, state.empire_set),
    ):
        if picked:
            continue
        if pile not in state.drawn:
            state.drawn[pile] = cards.pop()
            ctx.emit("drew", player=player, pile=pile)
            ctx.emit("your_draw", (player,), player=player, pile=pile, card=state.drawn[pile])
        may_keep, give_to = give_choices(ctx, pile, player)
        if may_keep and not give_to:
            decide(ctx, player, pile, None, auto=True)
            return
        if not may_keep and len(give_to) == 1:
            decide(ctx, player, pile, give_to[0], auto=True)
            return


def _take(ctx: Ctx, pile: str, player: int, card: str) -> None:
    state = ctx.state
    if pile == EVENT:
        state.hands[player].append(card)
        state.hands[player].sort()
        state.chosen_epoch[card] = state.epoch
        state.event_picked = True
    else:
        state.empire_of[player] = card
        state.empire_picked = True


def draft(ctx: Ctx, player: int, card: str) -> None:
    """The ``Draft`` action: keep one card of the set in front of you, pass the rest."""
    state = ctx.state
    if classic(ctx):
        raise IllegalAction(
            "classic_drafting", "This game uses classic drafting: keep or give the card you drew."
        )
    seen = looking_at(ctx, player)
    if seen is None:
        raise IllegalAction("not_your_choice", "You are not choosing a card now.")
    pile, cards = seen
    if card not in cards:
        other = state.empire_set if pile == EVENT else state.event_set
        other_holder = holders(state.draft_order, state.draft_step)[1 if pile == EVENT else 0]
        if card in other and player == other_holder:
            raise IllegalAction("one_set_at_a_time", f"Choose from the {pile} cards first.", card=card)
        raise IllegalAction("not_offered", f"{card!r} is not among the cards in front of you.", card=card)
    (state.event_set if pile == EVENT else state.empire_set).remove(card)
    _take(ctx, pile, player, card)
    ctx.emit("drafted", player=player, pile=pile)
    ctx.emit("you_drafted", (player,), player=player, pile=pile, card=card)
    _after_choice(ctx)


def decide(ctx: Ctx, player: int, pile: str, to: int | None, auto: bool = False) -> None:
    """Classic drafting: keep (``to`` None) or give the card drawn from ``pile``."""
    state = ctx.state
    if not classic(ctx):
        raise IllegalAction("not_classic", "Keep and give belong to the optional classic drafting.")
    if pile not in (EVENT, EMPIRE):
        raise IllegalAction("bad_pile", "The pile is 'event' or 'empire'.", pile=pile)
    seen = looking_at(ctx, player)
    if seen is None or seen[0] != pile:
        raise IllegalAction("not_your_choice", f"You have no drawn {pile} card to decide on.", pile=pile)
    may_keep, give_to = give_choices(ctx, pile, player)
    if to is None and not may_keep:
        raise IllegalAction("must_give", f"You already have an {pile} card this epoch: give this one.")
    if to is not None and to not in give_to:
        raise IllegalAction("bad_receiver", "Give it to another player without a card of that set.", to=to)
    card = state.drawn.pop(pile)
    receiver = player if to is None else to
    _take(ctx, pile, receiver, card)
    ctx.emit("kept" if to is None else "given", player=player, to=receiver, pile=pile, forced=auto)
    ctx.emit("you_received", (receiver,), player=receiver, pile=pile, card=card, giver=player)
    _after_choice(ctx)


def _after_choice(ctx: Ctx) -> None:
    state = ctx.state
    if not (state.event_picked and state.empire_picked):
        _offer(ctx)
        return
    state.draft_step += 1
    state.event_picked = state.empire_picked = False
    if state.draft_step < state.players:
        ctx.emit("sets_passed", step=state.draft_step)
        _offer(ctx)
        return
    state.event_set = []
    state.empire_set = []
    state.drawn = {}
    state.phase = Phase.TURN
    for p in range(state.players):
        ctx.emit("your_empire", (p,), player=p, empire=state.empire_of[p])
    call_next(ctx)


def call_next(ctx: Ctx) -> None:
    """Call the epoch's empires in card order, skipping the ones nobody chose."""
    state = ctx.state
    listed = ctx.rules.epochs[state.epoch]
    while state.call_pos < len(listed):
        emp = listed[state.call_pos]
        if emp.key in state.empire_of:
            start_turn(ctx, state.empire_of.index(emp.key), emp)
            return
        ctx.emit("empire_not_chosen", empire=emp.key, name=emp.name)
        state.call_pos += 1
    end_epoch(ctx)


def end_epoch(ctx: Ctx) -> None:
    """Discard kingdoms and unsavable enhancements chosen this epoch; next epoch or the end."""
    state = ctx.state
    for p, hand in enumerate(state.hands):
        for cid in list(hand):
            card = ctx.rules.events[cid]
            if not card.savable and state.chosen_epoch.get(cid, 0) <= state.epoch:
                hand.remove(cid)
                ctx.emit("card_discarded", (p,), player=p, card=cid)
        ctx.emit("hand_size", player=p, cards=len(hand))
    state.epoch_scores.append(list(state.scores))
    if state.epoch >= 5:
        state.phase = Phase.OVER
        state.turn = None
        ranking = sorted(range(state.players), key=lambda q: -state.scores[q])
        ctx.emit("game_over", scores=list(state.scores), ranking=ranking)
        return
    state.epoch += 1
    start_epoch(ctx)
