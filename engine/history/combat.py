"""Battles: dice, difficult terrain, sea landings, forts and every attacker bonus.

Standard combat (Chapter V): the attacker rolls two dice and keeps the higher,
the defender rolls one; the higher wins, a tie removes both. Difficult terrain
(a forest or mountain land, a strait, the Great Wall for a defender on its
Chinese side) gives the defender two
dice, a landing from a fleet three; a fort adds +1 to the defender's kept die
and is the first piece lost. A round won against a fort leaves the attacker in
the land and the battle goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import rng
from engine.history.board import Ctx, Route, destroy_fort, place_army, remove_one_army, sack

DIFFICULT_TERRAIN = ("forest", "mountain")


@dataclass
class Attacker:
    """Who attacks and with what. ``active`` means the active empire's turn bonuses apply."""

    owner: int
    piece_epoch: int
    force: str
    active: bool = False
    dice: int = 2
    bonus: int = 0
    wins_ties: bool = False


def defender_dice(
    ctx: Ctx, target: str, routes: list[Route], use_terrain: bool = True, active: bool = True
) -> int:
    """The fewest dice the defender may roll over all the attacker's ways in.

    The attacker picks the route that is kindest to it, so a land reachable
    both over a plain border and from a fleet is attacked over the border.
    ``active`` is False for armies that are not the active empire's even while
    its force is current (Barbarians): Expert Troops and Naval Power help only
    "the Active Empire's armies".
    """
    turn = ctx.state.turn
    bonuses = active and _bonuses_apply(ctx)
    expert = set(turn.expert) if turn and bonuses else set()
    naval_power = bool(turn and turn.naval_power and bonuses)
    wmap = ctx.rules.map
    best = 3
    for route in routes:
        if route.by_sea:
            dice = 2 if naval_power else 3
        elif not use_terrain or route.source is None:
            dice = 1
        else:
            terrain = wmap.lands[target].terrain
            border = wmap.border(route.source, target)
            difficult = (
                (terrain in DIFFICULT_TERRAIN and terrain not in expert)
                or (border == "strait" and "strait" not in expert)
                or (border == "great_wall" and target in wmap.wall_inside)
            )
            dice = 2 if difficult else 1
        best = min(best, dice)
    return best


def _bonuses_apply(ctx: Ctx) -> bool:
    turn = ctx.state.turn
    return turn is not None and turn.force.kind == "empire"


def active_attacker(ctx: Ctx) -> Attacker:
    """The current force as an attacker, with the turn's event-card bonuses if it is the empire."""
    turn = ctx.state.turn
    assert turn is not None
    force = turn.force
    attacker = Attacker(turn.player, force.piece_epoch, force.key, bonus=force.bonus)
    if force.kind == "empire":
        attacker.active = True
    return attacker


def _round_profile(ctx: Ctx, attacker: Attacker, land: str) -> tuple[int, int, bool, bool]:
    """Dice, bonus, wins-ties and automatic win of the attacker for the next round."""
    dice, bonus, wins_ties, auto = attacker.dice, attacker.bonus, attacker.wins_ties, False
    turn = ctx.state.turn
    if attacker.active and turn is not None:
        if turn.leader or turn.jihad_losses == 0:
            dice = 3
        if turn.weaponry:
            bonus += 1
        if turn.siegecraft and (land in ctx.state.forts or land in ctx.state.structures):
            bonus += 1
        if turn.elite or 0 <= turn.jihad_losses < 2:
            wins_ties = True
        auto = turn.treachery == land
    return dice, bonus, wins_ties, auto


@dataclass(frozen=True)
class Round:
    """One round of combat: both rolls, the attacker's bonus and who won it."""

    attacker_dice: list[int]
    defender_dice: list[int]
    bonus: int
    outcome: str  # win | loss | tie
    treachery: bool


def fight_round(ctx: Ctx, attacker: Attacker, where: str, def_dice: int, fort: bool) -> Round:
    """Roll one round for ``attacker`` against ``def_dice`` (a fort adds +1 to the defender).

    The turn's card bonuses apply to the active empire's army (Leader, Weaponry,
    Siegecraft, Elite Troops, Jihad, Treachery); a Leader falls on triples.
    """
    turn = ctx.state.turn
    dice, bonus, wins_ties, auto = _round_profile(ctx, attacker, where)
    if auto:
        return Round([], [], bonus, "win", True)
    att_roll = rng.roll(ctx.state, dice)
    def_roll = rng.roll(ctx.state, def_dice)
    att = max(att_roll) + bonus
    dfd = max(def_roll) + (1 if fort else 0)
    if att > dfd or (att == dfd and wins_ties):
        outcome = "win"
    elif att < dfd:
        outcome = "loss"
    else:
        outcome = "tie"
    if attacker.active and turn is not None and dice == 3 and turn.leader and len(set(att_roll)) == 1:
        turn.leader = False
        ctx.emit("leader_killed", roll=att_roll)
    return Round(att_roll, def_roll, bonus, outcome, False)


def attacker_lost(ctx: Ctx, attacker: Attacker) -> None:
    """The active empire's bookkeeping when its attacking army is lost (coins may buy it back)."""
    turn = ctx.state.turn
    if attacker.active and turn is not None:
        turn.lost += 1
        turn.elite = False
        if turn.jihad_losses >= 0:
            turn.jihad_losses += 1


def battle(ctx: Ctx, land: str, attacker: Attacker, def_dice: int) -> bool:
    """Fight for ``land`` with one attacking army until it falls or the land is taken.

    Returns True when the attacker now holds the land (it is placed there and
    the land is sacked); False when the attacking army was removed.
    """
    state = ctx.state
    turn = state.turn
    while True:
        fort = land in state.forts
        fought = fight_round(ctx, attacker, land, def_dice, fort)
        outcome = fought.outcome
        defender = state.occupant(land)
        ctx.emit(
            "battle",
            land=land,
            attacker=attacker.owner,
            defender=defender,
            attacker_dice=fought.attacker_dice,
            attacker_bonus=fought.bonus,
            defender_dice=fought.defender_dice,
            fort=fort,
            outcome=outcome,
            treachery=fought.treachery,
        )
        if outcome in ("win", "tie"):
            siege = (
                attacker.active
                and turn is not None
                and turn.siegecraft
                and fort
                and outcome == "win"
            )
            if fort:
                destroy_fort(state, land)
                ctx.emit("fort_lost", land=land)
            if (not fort or siege) and land in state.armies:
                removed = remove_one_army(state, land)
                ctx.emit("army_lost", land=land, owner=removed[0], defending=True)
        if outcome in ("loss", "tie"):
            ctx.emit("army_lost", land=land, owner=attacker.owner, defending=False)
            attacker_lost(ctx, attacker)
            return False
        if land not in state.armies:
            place_army(state, land, attacker.owner, attacker.piece_epoch, attacker.force)
            sack(ctx, land)
            return True
