"""Event cards (Chapter IV and the card tables): playing them and resolving their effects.

A card that needs targets waits in ``turn.pending`` and takes them one at a
time through ``Choose`` actions, so every decision is a small, listable set
(a select menu on Discord). ``Done`` finishes a card that takes "up to" some
targets, or takes the card back into the hand while nothing has happened yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import rng
from engine.core import IllegalAction
from engine.history.board import (
    Ctx,
    Route,
    army_supply,
    clear_land,
    destroy_fort,
    forts_free,
    place_army,
    put_structure,
    sack,
    take_coins,
)
from engine.history.combat import Attacker, battle, defender_dice
from engine.history.data import CardType
from engine.history.founding import establish, go_to
from engine.history.state import Force, Turn, TurnStep
from engine.words import roman


def _turn(ctx: Ctx) -> Turn:
    turn = ctx.state.turn
    assert turn is not None
    return turn


def card_epoch_ok(card: CardType, epoch: int) -> bool:
    return epoch in card.epochs


def far_epochs(ctx: Ctx, card: CardType) -> tuple[int, ...]:
    """The epochs whose pieces ``card``'s armies may use; empty for a card without armies.

    A printed epoch (Kingdoms, the Crusade, two Migrants cards) is the only one;
    otherwise the "far-away Epoch" of Chapter IV, whichever of its two epochs the
    player picks; "Migrants: Australia" takes "any Epoch (except VII)".
    """
    block = card.params.get(card.effect)
    wanted = block.get("army_epoch") if isinstance(block, dict) else None
    if isinstance(wanted, int):
        return (wanted,)
    if card.effect not in FAR_CARDS:
        return ()
    far = ctx.rules.far(ctx.state.epoch)
    if wanted == "far":
        far = tuple(e for e in far if e != 7) or (6,)
    return far


def piece_choices(ctx: Ctx, card: CardType) -> list[int]:
    """The far-away epochs the player may choose for ``card`` now, the default first.

    Only epochs with a free piece of the player's colour are offered. The default
    (taken by the AI and the "skip" timeout) is the epoch with the most free
    pieces, so event armies use up neither epoch's empires' pieces before the
    other; on a tie, the epoch listed first in components.yaml.
    """
    player = _turn(ctx).player
    free = {e: army_supply(ctx, player, e) for e in far_epochs(ctx, card)}
    offered = [e for e in free if free[e] > 0]
    return sorted(offered, key=lambda e: -free[e])


def event_epoch(ctx: Ctx, card: CardType) -> int:
    """The epoch of the pieces ``card``'s armies use: the player's choice, else the default."""
    chosen = _turn(ctx).event_pieces.get(card.id)
    if chosen is not None:
        return chosen
    choices = piece_choices(ctx, card)
    return choices[0] if choices else (far_epochs(ctx, card) or ctx.rules.far(ctx.state.epoch))[0]


def _enemy_lands(ctx: Ctx) -> list[str]:
    me = _turn(ctx).player
    return sorted(land for land, stack in ctx.state.armies.items() if stack[0][0] != me)


def _area_lands(ctx: Ctx, area: str) -> tuple[str, ...]:
    return ctx.rules.map.lands_in_area(area)


def _has_capital(ctx: Ctx) -> bool:
    return ctx.rules.empires[_turn(ctx).empire].capital


# -- which targets each card takes -------------------------------------------
def candidates(ctx: Ctx) -> list[str]:
    """The targets the pending card accepts next."""
    turn = _turn(ctx)
    pending = turn.pending
    assert pending is not None
    effect, chosen = pending["effect"], pending["chosen"]
    state, wmap = ctx.state, ctx.rules.map
    if effect == "migrants":
        area = pending["area"]
        return [land for land in _area_lands(ctx, area) if land not in state.armies and land not in chosen]
    if effect == "civil_war":
        enemy = _enemy_lands(ctx)
        if chosen:
            # "three different Lands of any one enemy Empire": same colour, same empire.
            owner, _, force = state.armies[chosen[0]][0]
            enemy = [
                land for land in enemy if any(a[0] == owner and a[2] == force for a in state.armies[land])
            ]
        return [land for land in enemy if land not in chosen]
    if effect == "barbarians":
        if not chosen:
            return _barbarian_sources(ctx)
        return _barbarian_targets(ctx, chosen[0], chosen[1:])
    if effect in ("black_death", "famine"):
        if not chosen:
            return list(wmap.areas)
        return [a for a in wmap.adjacent_areas(chosen[0]) if a not in chosen]
    if effect == "treachery":
        return _enemy_lands(ctx)
    if effect == "plague":
        return sorted(state.armies)
    if effect == "plague_spread":
        return sorted(nb for nb in wmap.neighbours(pending["from"]) if nb in state.armies)
    if effect == "pestilence":
        return sorted(land for land, info in wmap.lands.items() if not info.barren)
    if effect == "disaster":
        return sorted(land for land in state.monuments if land not in chosen)
    if effect == "astronomy":
        return sorted(w for w, info in wmap.waters.items() if info.kind == "sea")
    return []


def _barbarian_sources(ctx: Ctx) -> list[str]:
    """Barren lands bordering a land held by another player."""
    wmap = ctx.rules.map
    barren = (land for land, info in wmap.lands.items() if info.barren)
    return sorted(land for land in barren if _barbarian_targets(ctx, land, []))


def _barbarian_targets(ctx: Ctx, barren: str, conquered: list[str]) -> list[str]:
    me = _turn(ctx).player
    return sorted(
        nb for nb in ctx.rules.map.neighbours(barren)
        if ctx.state.occupant(nb) not in (None, me) and nb not in conquered
    )


def needed(ctx: Ctx) -> tuple[int, int]:
    """(fewest, most) targets the pending card takes, counting those already chosen."""
    pending = _turn(ctx).pending
    assert pending is not None
    effect, chosen = pending["effect"], pending["chosen"]
    if effect == "migrants":
        most = min(2, len(chosen) + len(candidates(ctx)), pending["supply"])
        return most, most
    if effect == "civil_war":
        if not chosen:
            return 1, 3
        most = min(3, len(chosen) + len(candidates(ctx)), pending["supply"])
        return most, most
    if effect == "black_death":
        return 2, 2
    if effect == "disaster":
        return 1, 2
    return 1, 1


# -- playing a card ----------------------------------------------------------
# Cards whose whole effect is armies of the far-away epoch: without a piece they do nothing.
ARMY_CARDS = frozenset({"crusade", "migrants", "civil_war", "barbarians", "jewish_revolt"})
# Cards whose armies come from a far-away epoch unless the card prints one (Minor Empires too:
# their cards show a piece we do not have, see data/history/classic/README.md).
FAR_CARDS = frozenset({"migrants", "civil_war", "barbarians", "jewish_revolt", "minor_empire"})


def why_unplayable(ctx: Ctx, card: CardType) -> str | None:
    """A sentence saying why ``card`` cannot be played now, or None when it can."""
    state = ctx.state
    turn = _turn(ctx)
    if not card_epoch_ok(card, state.epoch):
        epochs = ", ".join(roman(e) for e in sorted(card.epochs))
        return f"{card.name} can only be played in epoch {epochs}."
    if len(turn.played) >= 2:
        return "You have already played two event cards this turn."
    if card.id in turn.played:
        return f"You have already played {card.name} this turn; two identical cards may not be played."
    effect = card.effect
    if effect == "engineering" and not _has_capital(ctx):
        return "Engineering only helps an empire with a capital, and yours has none."
    if effect == "reallocation" and not ctx.rules.empires[turn.empire].fleets and not turn.astronomy:
        return "Reallocation turns fleets into coins, and your empire has no fleets."
    if effect == "treachery" and not _enemy_lands(ctx):
        return "Treachery needs a land held by another player, and there is none."
    if effect == "civil_war" and not _enemy_lands(ctx):
        return "Civil War needs lands held by another player's empire, and there are none."
    if effect == "disaster" and not state.monuments:
        return "Disaster strikes lands with monuments, and there are none on the board."
    if effect == "plague" and not state.armies:
        return "Plague needs an occupied land, and the board is empty."
    if effect == "barbarians" and not _barbarian_sources(ctx):
        return "No barren land borders a land held by another player, so Barbarians cannot attack."
    if effect in ARMY_CARDS and not piece_choices(ctx, card):
        epochs = " and ".join(f"epoch {roman(e)}" for e in far_epochs(ctx, card))
        return f"All your {epochs} pieces are in use, so {card.name} would bring no armies."
    if effect == "migrants":
        area = card.params["migrants"]["area"]
        if all(land in state.armies for land in _area_lands(ctx, area)):
            return f"Every land in {area} is occupied, so the migrants have nowhere to settle."
    if effect == "minor_empire" and card.minor is not None and any(
        ctx.rules.cards[c].effect == "minor_empire" for c in turn.played
    ):
        return "Only one Minor Empire can be played in a turn."
    return None


def play(ctx: Ctx, card_name: str, pieces: int = 0) -> None:
    """Play ``card_name`` from the active player's hand (validated; state untouched on error).

    ``pieces`` is the far-away epoch chosen for the card's armies (0: the default).
    """
    state, turn = ctx.state, _turn(ctx)
    try:
        card = ctx.rules.card(card_name)
    except KeyError as exc:
        raise IllegalAction("unknown_card", str(exc.args[0]), card=card_name) from None
    hand = state.hands[turn.player]
    if card.id not in hand:
        raise IllegalAction("not_in_hand", f"You do not hold {card.name}.", card=card.id)
    reason = why_unplayable(ctx, card)
    if reason:
        raise IllegalAction("card_unplayable", reason, card=card.id)
    choices = piece_choices(ctx, card)
    if pieces:
        if pieces not in choices:
            allowed = " or ".join(f"epoch {roman(e)}" for e in choices) or "none"
            raise IllegalAction("bad_pieces", f"{card.name} cannot use epoch {roman(pieces)} pieces now; "
                                f"it may use {allowed}.", card=card.id, pieces=pieces)
        turn.event_pieces[card.id] = pieces
    elif choices:
        turn.event_pieces[card.id] = choices[0]
    hand.remove(card.id)
    turn.played.append(card.id)
    ctx.emit("card_played", player=turn.player, card=card.id, name=card.name)
    EFFECTS[card.effect](ctx, card)


def _flag(attr: str, value: Any = True) -> Callable[[Ctx, CardType], None]:
    def apply(ctx: Ctx, card: CardType) -> None:
        setattr(_turn(ctx), attr, value)

    return apply


def _coins(ctx: Ctx, card: CardType) -> None:
    take_coins(ctx, int(card.params.get("coins", 0)))


def _allies(ctx: Ctx, card: CardType) -> None:
    take_coins(ctx, int(card.params.get("coins", 2)), allies=True)


def _civil_service(ctx: Ctx, card: CardType) -> None:
    empire = ctx.rules.empires[_turn(ctx).empire]
    coins = int(card.params.get("coins", 1)) + (1 if empire.capital else 0) + (1 if empire.fleets else 0)
    take_coins(ctx, coins)


def _engineering(ctx: Ctx, card: CardType) -> None:
    wanted = int(card.params["engineering"].get("forts", 2))
    got = max(0, min(wanted, forts_free(ctx)))
    _turn(ctx).free_forts += got
    ctx.emit("free_forts", count=got)


def _expert(ctx: Ctx, card: CardType) -> None:
    _turn(ctx).expert.append(card.params["expert_troops"]["terrain"])


def _nothing(ctx: Ctx, card: CardType) -> None:
    """Reallocation works when the fleets are placed (see founding.establish)."""


def _kingdom(ctx: Ctx, card: CardType) -> None:
    land = card.params["kingdom"]["land"]
    player = _turn(ctx).player
    epoch = event_epoch(ctx, card)
    clear_land(ctx, land, card.name)
    if _army_piece(ctx, player, epoch):
        place_army(ctx.state, land, player, epoch, f"kingdom:{card.id}")
    put_structure(ctx, land, "city")
    ctx.emit("kingdom", land=land, player=player, name=card.name)


def _army_piece(ctx: Ctx, player: int, epoch: int) -> bool:
    if army_supply(ctx, player, epoch) > 0:
        return True
    ctx.emit("supply_out", piece=f"epoch {roman(epoch)} army", player=player)
    return False


def _pending(**fields: Any) -> Callable[[Ctx, CardType], None]:
    def apply(ctx: Ctx, card: CardType) -> None:
        turn = _turn(ctx)
        turn.pending = {"card": card.id, "effect": card.effect, "chosen": [], **fields}
        if card.effect == "migrants":
            turn.pending["area"] = card.params["migrants"]["area"]
            turn.pending["supply"] = army_supply(ctx, turn.player, event_epoch(ctx, card))
        if card.effect == "civil_war":
            turn.pending["supply"] = army_supply(ctx, turn.player, event_epoch(ctx, card))
        turn.step = TurnStep.CARD
        _auto_choose(ctx)

    return apply


def _jewish_revolt(ctx: Ctx, card: CardType) -> None:
    block = card.params["jewish_revolt"]
    land = block["land"]
    turn = _turn(ctx)
    epoch = event_epoch(ctx, card)
    if not _army_piece(ctx, turn.player, epoch):
        return
    force = f"revolt:{card.id}"
    occupant = ctx.state.occupant(land)
    if occupant is None:
        clear_land(ctx, land, card.name)
        place_army(ctx.state, land, turn.player, epoch, force)
        sack(ctx, land)
    elif occupant == turn.player:
        # "attacks any army there": your own army is nobody to attack, so your pieces
        # (army and fort) stay and the far-away army does not appear.
        ctx.emit("revolt_idle", land=land, player=turn.player)
    else:
        battle(ctx, land, Attacker(turn.player, epoch, force, dice=int(block.get("dice", 3))), 1)


def _minor(ctx: Ctx, card: CardType) -> None:
    turn = _turn(ctx)
    minor = card.minor
    assert minor is not None
    turn.force = Force(key=f"minor:{card.id}", kind="minor", name=card.name,
                       piece_epoch=event_epoch(ctx, card))
    establish(ctx, turn.force, minor)
    go_to(ctx, TurnStep.MINOR)


def _crusade(ctx: Ctx, card: CardType) -> None:
    block = card.params["crusade"]
    turn = _turn(ctx)
    epoch = event_epoch(ctx, card)
    force = Force(
        key=f"crusade:{card.id}", kind="crusade", name=card.name, piece_epoch=epoch,
        fleets=[block["sea"]], at_sea=[block["sea"]], bonus=int(block.get("bonus", 1)),
    )
    turn.force = force
    force.pool = max(0, min(int(block.get("armies", 3)), army_supply(ctx, turn.player, epoch)))
    turn.step = TurnStep.CRUSADE
    ctx.emit("crusade", sea=block["sea"], armies=force.pool)


EFFECTS: dict[str, Callable[[Ctx, CardType], None]] = {
    "reallocation": _nothing,
    "leader": _flag("leader"),
    "weaponry": _flag("weaponry"),
    "minor_empire": _minor,
    "kingdom": _kingdom,
    "migrants": _pending(),
    "civil_war": _pending(),
    "barbarians": _pending(),
    "jewish_revolt": _jewish_revolt,
    "siegecraft": _flag("siegecraft"),
    "crusade": _crusade,
    "black_death": _pending(),
    "treachery": _pending(),
    "elite_troops": _flag("elite"),
    "naval_power": _flag("naval_power"),
    "engineering": _engineering,
    "expert_troops": _expert,
    "population_explosion": _coins,
    "famine": _pending(),
    "plague": _pending(),
    "pestilence": _pending(),
    "jihad": _flag("jihad_losses", 0),
    "disaster": _pending(),
    "civil_service": _civil_service,
    "astronomy": _pending(),
    "allies": _allies,
}


# -- choosing targets ----------------------------------------------------------
def choose(ctx: Ctx, target: str) -> None:
    turn = _turn(ctx)
    pending = turn.pending
    if pending is None:
        raise IllegalAction("nothing_to_choose", "No card is waiting for a target.")
    options = candidates(ctx)
    match = _match(target, options)
    if match is None:
        shown = ", ".join(options[:12]) + (" ..." if len(options) > 12 else "")
        raise IllegalAction(
            "bad_target", f"{target!r} is not a valid target here. Choose one of: {shown}.",
            target=target, options=options,
        )
    if pending["effect"] == "barbarians" and pending["chosen"]:
        _barbarian_attack(ctx, match)
    else:
        pending["chosen"].append(match)
    _after_choice(ctx)


def _match(target: str, options: list[str]) -> str | None:
    wanted = target.strip().lower()
    for option in options:
        if option.lower() == wanted:
            return option
    return None


def _after_choice(ctx: Ctx) -> None:
    turn = _turn(ctx)
    pending = turn.pending
    if pending is None:
        return
    effect = pending["effect"]
    if effect == "barbarians":
        if pending.get("over") or not candidates(ctx):
            _finish_card(ctx)
        else:
            _auto_choose(ctx)
        return
    _, most = needed(ctx)
    if len(pending["chosen"]) >= most or not candidates(ctx):
        resolve(ctx)
    else:
        _auto_choose(ctx)


def _auto_choose(ctx: Ctx) -> None:
    """Take a choice that is forced (exactly one option, no way to stop)."""
    turn = _turn(ctx)
    pending = turn.pending
    if pending is None:
        return
    options = candidates(ctx)
    forced_effects = ("plague_spread",) if pending["effect"] == "plague_spread" else ()
    barbarian_step = pending["effect"] == "barbarians" and pending["chosen"]
    if len(options) == 1 and (forced_effects or barbarian_step):
        choose(ctx, options[0])
    elif not options and pending["effect"] == "plague_spread":
        _finish_card(ctx)


def done(ctx: Ctx) -> None:
    """Finish a card that takes "up to" targets, or take back a card nothing has happened for."""
    turn = _turn(ctx)
    pending = turn.pending
    assert pending is not None
    effect, chosen = pending["effect"], pending["chosen"]
    fewest, _ = needed(ctx)
    if effect in ("barbarians", "plague_spread") and (chosen if effect == "barbarians" else True):
        raise IllegalAction(
            "must_continue", "This card must run its course: choose the next land it strikes."
        )
    if chosen and len(chosen) >= fewest:
        resolve(ctx)
        return
    if chosen and effect != "disaster":
        raise IllegalAction(
            "more_targets", f"This card needs {fewest} targets; you have chosen {len(chosen)}."
        )
    # Nothing has happened yet: the card goes back into the hand.
    card = pending["card"]
    turn.played.remove(card)
    ctx.state.hands[turn.player].append(card)
    ctx.state.hands[turn.player].sort()
    turn.pending = None
    turn.step = TurnStep.EVENTS
    ctx.emit("card_withdrawn", player=turn.player, card=card)


def _finish_card(ctx: Ctx) -> None:
    turn = _turn(ctx)
    turn.pending = None
    turn.step = TurnStep.EVENTS


def _epidemic(ctx: Ctx, land: str, dice: int, why: str) -> bool:
    """Each army in ``land`` rolls ``dice``; a 1 destroys it and any fort. True if one died."""
    state = ctx.state
    died = False
    for army in list(state.armies.get(land, [])):
        roll = rng.roll(state, dice)
        dead = 1 in roll
        ctx.emit("epidemic", land=land, owner=army[0], dice=roll, died=dead, why=why)
        if dead:
            state.armies[land].remove(army)
            died = True
    if land in state.armies and not state.armies[land]:
        del state.armies[land]
    if died and land in state.forts:
        destroy_fort(state, land)
        ctx.emit("fort_lost", land=land)
    return died


def resolve(ctx: Ctx) -> None:
    """Carry out the pending card with the targets chosen."""
    turn = _turn(ctx)
    pending = turn.pending
    assert pending is not None
    effect, chosen = pending["effect"], list(pending["chosen"])
    state = ctx.state
    card = ctx.rules.cards[pending["card"]]
    if effect == "migrants":
        epoch = event_epoch(ctx, card)
        for land in chosen:
            if _army_piece(ctx, turn.player, epoch):
                place_army(state, land, turn.player, epoch, f"migrants:{card.id}")
                sack(ctx, land)
        ctx.emit("migrants", lands=chosen, player=turn.player)
    elif effect == "civil_war":
        epoch = event_epoch(ctx, card)
        for land in chosen:
            if _army_piece(ctx, turn.player, epoch):
                battle(ctx, land, Attacker(turn.player, epoch, f"civil_war:{card.id}"), 1)
    elif effect in ("black_death", "famine"):
        for area in chosen:
            for land in _area_lands(ctx, area):
                if land in state.armies:
                    _epidemic(ctx, land, 1, card.name)
    elif effect == "treachery":
        turn.treachery = chosen[0]
        ctx.emit("treachery", land=chosen[0])
    elif effect in ("plague", "plague_spread"):
        first = effect == "plague"
        params = card.params.get("plague") or {}
        dice = int(params.get("first_dice", 4) if first else params.get("spread_dice", 3))
        if _epidemic(ctx, chosen[0], dice, card.name):
            turn.pending = {"card": card.id, "effect": "plague_spread", "chosen": [], "from": chosen[0]}
            _auto_choose(ctx)
            if turn.pending is not None and turn.pending["effect"] == "plague_spread" and not candidates(ctx):
                _finish_card(ctx)
            return
    elif effect == "pestilence":
        params = card.params.get("pestilence") or {}
        centre = chosen[0]
        _epidemic(ctx, centre, int(params.get("centre_dice", 3)), card.name)
        for nb in sorted(ctx.rules.map.neighbours(centre)):
            if nb in state.armies:
                _epidemic(ctx, nb, int(params.get("adjacent_dice", 2)), card.name)
    elif effect == "disaster":
        for land in chosen:
            state.monuments.remove(land)
            if state.structures.get(land) == "capital":
                state.structures[land] = "city"
            elif state.structures.get(land) == "city":
                del state.structures[land]
            destroy_fort(state, land)
            ctx.emit("disaster", land=land)
    elif effect == "astronomy":
        turn.astronomy.append(chosen[0])
        ctx.emit("astronomy", sea=chosen[0])
    _finish_card(ctx)


def _barbarian_attack(ctx: Ctx, target: str) -> None:
    turn = _turn(ctx)
    pending = turn.pending
    assert pending is not None
    card = ctx.rules.cards[pending["card"]]
    epoch = event_epoch(ctx, card)
    barren = pending["chosen"][0]
    if not _army_piece(ctx, turn.player, epoch):
        pending["over"] = True
        return
    routes = [Route(barren, False)]
    dice = defender_dice(ctx, target, routes, active=False)
    won = battle(ctx, target, Attacker(turn.player, epoch, f"barbarians:{card.id}"), dice)
    if won:
        pending["chosen"].append(target)
    else:
        pending["over"] = True
