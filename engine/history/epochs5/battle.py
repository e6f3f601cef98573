"""Battles of the 5-epoch rules: dice, defender effects, rerolls, sieges and retreats.

The invader rolls two dice, the defender one, and the highest dice are
compared: higher wins, lower loses, a tie removes both armies. Defender
effects, in any combination: terrain (a forest or mountain territory) adds one
to the defender's highest die; naval (the invader used a fleet) lets the
defender reroll one die; fortified (a fort) gives the defender two dice.
Rerolls are offered in turn, the invader first, until both have used them or
passed; the defender's choice comes from standing preferences, so a turn
never waits on another player. A lost battle is followed by a siege (an army
or siege token on the catapult: +1, +2, +3, and past +3 armies go back to the
supply) or a retreat; a win or tie reduces one structure and removes a fort,
and a marauder gains a point for each structure reduced.
"""

from __future__ import annotations

from typing import Any

from engine import rng
from engine.core import IllegalAction
from engine.history.epochs5 import track
from engine.history.epochs5.board import (
    TERRAIN,
    Ctx,
    reduce_structure,
    remove_army,
    remove_fort,
)
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.state import TurnStep

CATAPULT_SPACES = 3
REROLL_PREFS = ("if_losing", "if_not_winning", "never")


def empire_effect(ctx: Ctx) -> str | None:
    """The active empire's own effect (never a kingdom's)."""
    turn = ctx.turn
    if turn.force_kind != "empire":
        return None
    return ctx.rules.empires[turn.empire].effect


def invader_rerolls(ctx: Ctx) -> int:
    turn = ctx.turn
    count = turn.effects.count("reroll") if turn.force_kind == "empire" else 0
    return count + (1 if empire_effect(ctx) == "reroll" else 0)


def invader_bonus(ctx: Ctx, route: str) -> int:
    """The catapult's value plus the empire's and enhancements' own modifiers."""
    turn = ctx.turn
    bonus = min(turn.catapult, CATAPULT_SPACES)
    if turn.force_kind == "empire":
        bonus += turn.effects.count("assault")
        effect = empire_effect(ctx)
        if effect == "assault" or (effect == "naval_assault" and route == SEA):
            bonus += 1
    return bonus


def terrain_applies(ctx: Ctx, land: str) -> bool:
    if ctx.rules.map.lands[land].terrain not in TERRAIN:
        return False
    turn = ctx.turn
    ignored = "ignore_terrain" in turn.effects or empire_effect(ctx) == "ignore_terrain"
    return not (turn.force_kind == "empire" and ignored)


def win_chance(att_bonus: int, def_bonus: int, def_dice: int) -> float:
    """Chance that the best of two dice plus ``att_bonus`` beats the best of ``def_dice`` dice plus
    ``def_bonus`` (one roll, before any reroll)."""
    wins = total = 0
    for a1 in range(1, 7):
        for a2 in range(1, 7):
            for d1 in range(1, 7):
                for d2 in range(1, 7) if def_dice == 2 else (0,):
                    total += 1
                    wins += max(a1, a2) + att_bonus > max(d1, d2) + def_bonus
    return wins / total


def odds(ctx: Ctx, land: str, route: str) -> float:
    """The invader's chance of winning the first roll of a battle for ``land`` by ``route``."""
    def_dice = 2 if land in ctx.state.forts else 1
    return _CHANCES[(min(invader_bonus(ctx, route), 5), 1 if terrain_applies(ctx, land) else 0, def_dice)]


def totals(ctx: Ctx, battle: dict[str, Any]) -> tuple[int, int]:
    att = max(battle["att"]) + invader_bonus(ctx, battle["route"])
    dfd = max(battle["dfd"]) + (1 if battle["terrain"] else 0)
    return att, dfd


def start(ctx: Ctx, land: str, route: str) -> None:
    """An army from the card invades ``land``, held by an opponent: fight."""
    turn = ctx.turn
    state = ctx.state
    defender = state.occupant(land)
    assert defender is not None and defender != turn.player
    turn.battle = {
        "land": land,
        "defender": defender,
        "route": route,
        "fortified": land in state.forts,
        "terrain": terrain_applies(ctx, land),
        "att": [],
        "dfd": [],
    }
    _roll(ctx)


def _roll(ctx: Ctx) -> None:
    turn = ctx.turn
    battle = turn.battle
    assert battle is not None
    battle["att"] = rng.roll(ctx.state, 2)
    battle["dfd"] = rng.roll(ctx.state, 2 if battle["fortified"] else 1)
    battle["inv_left"] = invader_rerolls(ctx)
    battle["def_left"] = 1 if battle["route"] == SEA else 0
    battle["inv_passed"] = False
    battle["def_passed"] = False
    battle["next"] = "inv"
    ctx.emit(
        "battle",
        land=battle["land"],
        attacker=turn.player,
        defender=battle["defender"],
        attacker_dice=list(battle["att"]),
        defender_dice=list(battle["dfd"]),
        catapult=min(turn.catapult, CATAPULT_SPACES),
        attacker_bonus=invader_bonus(ctx, battle["route"]),
        terrain=battle["terrain"],
        naval=battle["route"] == SEA,
        fortified=battle["fortified"],
    )
    proceed(ctx)


def proceed(ctx: Ctx) -> None:
    """Offer rerolls in turn (the invader's as a decision, the defender's by preference), then resolve."""
    turn = ctx.turn
    battle = turn.battle
    assert battle is not None
    while True:
        inv_can = battle["inv_left"] > 0 and not battle["inv_passed"]
        def_can = battle["def_left"] > 0 and not battle["def_passed"]
        if not inv_can and not def_can:
            break
        if battle["next"] == "inv":
            battle["next"] = "def"
            if inv_can:
                turn.step = TurnStep.REROLL
                return
        else:
            battle["next"] = "inv"
            if def_can:
                _defender_reroll(ctx, battle)
    turn.step = TurnStep.INVADE
    _resolve(ctx)


def _defender_reroll(ctx: Ctx, battle: dict[str, Any]) -> None:
    """The defender's naval reroll, decided by the defender's standing preference."""
    owner = int(battle["defender"])
    pref = ctx.state.prefs[owner].get("reroll", "if_losing")
    att, dfd = totals(ctx, battle)
    wants = (pref == "if_losing" and dfd < att) or (pref == "if_not_winning" and dfd <= att)
    if not wants:
        battle["def_passed"] = True
        ctx.emit("reroll_passed", player=owner, side="defender")
        return
    dice = battle["dfd"]
    index = dice.index(min(dice))
    old = dice[index]
    dice[index] = rng.roll(ctx.state, 1)[0]
    battle["def_left"] -= 1
    ctx.emit(
        "rerolled",
        player=owner,
        side="defender",
        die=index,
        old=old,
        new=dice[index],
        defender_dice=list(dice),
    )


def reroll(ctx: Ctx, die: int) -> None:
    """The invader's ``Reroll`` action."""
    turn = ctx.turn
    battle = turn.battle
    if turn.step is not TurnStep.REROLL or battle is None:
        raise IllegalAction("no_reroll", "There is no reroll to make now.")
    if die not in (0, 1):
        raise IllegalAction("bad_die", "Choose die 0 or die 1 to reroll.", die=die)
    dice = battle["att"]
    old = dice[die]
    dice[die] = rng.roll(ctx.state, 1)[0]
    battle["inv_left"] -= 1
    ctx.emit(
        "rerolled",
        player=turn.player,
        side="invader",
        die=die,
        old=old,
        new=dice[die],
        attacker_dice=list(dice),
    )
    proceed(ctx)


def accept(ctx: Ctx) -> None:
    """The invader's ``Accept`` action: pass on the reroll."""
    turn = ctx.turn
    battle = turn.battle
    if turn.step is not TurnStep.REROLL or battle is None:
        raise IllegalAction("no_reroll", "There is no reroll to pass on now.")
    battle["inv_passed"] = True
    ctx.emit("reroll_passed", player=turn.player, side="invader")
    proceed(ctx)


def _resolve(ctx: Ctx) -> None:
    state = ctx.state
    turn = ctx.turn
    battle = turn.battle
    assert battle is not None
    land = str(battle["land"])
    att, dfd = totals(ctx, battle)
    outcome = "win" if att > dfd else "loss" if att < dfd else "tie"
    # ``won`` says whether the invader now holds the land, so no reader redoes this arithmetic.
    ctx.emit("battle_result", land=land, player=turn.player, defender=battle["defender"], attacker_total=att,
             defender_total=dfd, outcome=outcome, won=outcome == "win")
    if outcome == "loss":
        if turn.pool + turn.siege_tokens > 0:
            turn.step = TurnStep.SIEGE
            return
        ctx.emit("must_retreat", land=land, player=turn.player)
        _retreat(ctx)
        return
    turn.battle = None
    remove_army(ctx, land, "battle")
    if outcome == "win":
        state.armies[land] = [turn.player, turn.force]
        ctx.emit("occupied", land=land, player=turn.player)
        # Turks: "after you *win* a battle, you may invade a territory adjacent to the one you
        # just won" - a tie or a retreat opens nothing.
        if empire_effect(ctx) == "invade_after_battle" and land not in turn.free_invasions:
            turn.free_invasions.append(land)
    else:
        ctx.emit("army_removed", land=land, owner=turn.player, why="battle")
    reduced = reduce_structure(ctx, land)
    remove_fort(ctx, land)
    _end_siege(ctx)
    # Only a card with the torch is a marauder (a kingdom never is).
    if reduced is not None and ctx.rules.empires[turn.force].marauder:
        track.gain(ctx, turn.player, 1, "marauder", resume="invade")


def siege(ctx: Ctx) -> None:
    """The ``Siege`` action: a siege token (first) or an army goes on the catapult; fight again."""
    turn = ctx.turn
    if turn.step is not TurnStep.SIEGE or turn.battle is None:
        raise IllegalAction("no_siege", "You can only siege right after losing a battle.")
    if turn.siege_tokens > 0:
        turn.siege_tokens -= 1
        piece = "siege token"
    elif turn.pool > 0:
        turn.pool -= 1
        piece = "army"
        if turn.catapult < CATAPULT_SPACES:
            turn.catapult_armies += 1
    else:
        raise IllegalAction("no_armies", "Your empire card has no army or siege token left.")
    turn.catapult += 1
    ctx.emit("siege", land=turn.battle["land"], piece=piece, catapult=min(turn.catapult, CATAPULT_SPACES))
    _roll(ctx)


def retreat(ctx: Ctx) -> None:
    turn = ctx.turn
    if turn.step is not TurnStep.SIEGE or turn.battle is None:
        raise IllegalAction("no_retreat", "You can only retreat right after losing a battle.")
    _retreat(ctx)


def _retreat(ctx: Ctx) -> None:
    turn = ctx.turn
    assert turn.battle is not None
    ctx.emit("retreat", land=turn.battle["land"], player=turn.player)
    turn.battle = None
    turn.step = TurnStep.INVADE
    _end_siege(ctx)


def _end_siege(ctx: Ctx) -> None:
    """The siege ends: armies on the catapult go back to the supply, siege tokens are removed."""
    turn = ctx.turn
    if turn.catapult:
        ctx.emit("catapult_emptied", armies=turn.catapult_armies, pieces=turn.catapult)
    turn.catapult = 0
    turn.catapult_armies = 0


_CHANCES = {(a, d, n): win_chance(a, d, n) for a in range(6) for d in range(2) for n in (1, 2)}
