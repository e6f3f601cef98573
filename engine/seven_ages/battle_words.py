"""The words of conflict (:mod:`engine.seven_ages.battle`): its choices, events and headings."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Action, Choice, Event, Names
from engine.seven_ages import fog, window
from engine.seven_ages.card_words import card_text
from engine.seven_ages.cards import load_deck
from engine.seven_ages.conflict_moves import (
    Board,
    Commit,
    CommitDone,
    CommitLeader,
    FightIn,
    Lose,
    Nominate,
    Raze,
    Redraw,
    Retreat,
    RetreatArea,
    RetreatLeader,
    RetreatSplit,
    RetreatUnits,
    StandFast,
    WindowPass,
    WindowPlay,
)
from engine.seven_ages.decision import (
    register_heading,
    register_label,
    register_named_label,
    register_pending_heading,
)
from engine.seven_ages.effects_words import describe_all
from engine.seven_ages.losses import ALL, ONE_TYPE
from engine.seven_ages.text import empire_name, register_event, seat, the_empire, unit_words
from engine.seven_ages.view import PendingView, SevenView
from engine.words import join_words, shorten

STAGE_WORDS = {"fight": "choose the area to resolve conflict in next",
               "nominate": "you own the defending empire too: nominate the player who defends it",
               "round": "the conflict's round: both sides commit their units",
               "commit": "commit your units to this round, face down (at least one)",
               "event": "the event window: play an event now, or pass",
               "retreat": "before this round's cards: retreat from the conflict, or stand fast",
               "raze": "your Barbarians took a city: destroy it, or keep it (its income, its defence)",
               "losses": "choose the units you lose",
               "retreat_to": "send your retreating units and leaders to the areas you retreat to"}
EVENTS = ("conflict_begins", "defender_nominated", "conflict_round", "conflict_card", "conflict_committed",
          "conflict_tallied", "conflict_losses", "leader_lost_in_conflict", "conflict_disorder",
          "conflict_ended", "elite_check", "money_seized", "conflict_revealed", "window_opens",
          "window_event_played", "window_closes", "conflict_retreat", "conflict_redraw", "pursuit_losses",
          "conflict_committing", "losses_chosen", "retreat_sent")
SHOWN = ("conflict_revealed", "conflict_tallied", "conflict_losses", "pursuit_losses")
"""The public events that name units under the fog of war: the round's reveal and its tally, where "you
may examine another player's other on-map Units when tallying up conflict totals" (L791), and the units a
conflict removes from the map."""
PART_WORDS = {"card": "card", "units": "units", "elite": "elite", "ages": "ages ahead",
              "disorder": "disorder bonus", "terrain": "terrain", "fort": "fort", "invaded": "invaded",
              "city": "city", "bonus": "events"}
"""Each part of a total, named before its points ("card 4 + units 2"): a number after a word is the
points it adds, never a count of markers or units."""


def _units(units: Sequence[Sequence[Any]]) -> str:
    return join_words([unit_words(int(n), str(u)) for u, n in units]) or "no units"


def _weights(view: SevenView, seat_: int) -> Mapping[str, int]:
    """What each unit that counts more than one satisfies, from the seat's losses decision."""
    mine = next((p for p in view["pending"] if p["seat"] == seat_ and "ask" in p), None)
    weights: Mapping[str, int] = mine["ask"].get("weights", {}) if mine is not None else {}
    return weights


def _loss_label(view: SevenView, action: Lose) -> Choice:
    w = int(_weights(view, action.player).get(action.unit, 1))
    counts = "" if w == 1 else f" (counts {w})" if action.count == 1 else f" (count {w} each)"
    return Choice(action, f"Lose {unit_words(action.count, action.unit)}{counts}", group="Lose")


def _losses_heading(view: SevenView, pending: PendingView, who: str) -> str:
    ask = pending["ask"]
    left = int(ask["left"])
    more = " more" if ask["more"] else ""
    weights = ask["weights"]
    counts = join_words([f"a {u} counts {w}" for u, w in weights.items()]) if weights else ""
    why = " to pursuit" if ask["why"] == "pursuit" else ""
    return (f"{who}: choose {left}{more} loss{'' if left == 1 else 'es'}{why} for "
            f"{empire_name(int(ask['empire']))} in {ask['area']}" + (f" ({counts})" if counts else ""))


def _scatter_heading(view: SevenView, pending: PendingView, who: str) -> str:
    ask = pending["ask"]
    side = f"{who}: send {empire_name(int(ask['empire']))} retreating from {ask['area']} to"
    if ask.get("to"):
        return f"{side} {ask['to']}, a type of unit or a leader at a time"
    return (f"{side} {join_words([str(a) for a in ask['dests']], 'or')}: choose the area the next units "
            "go to")


def _split(view: SevenView, action: RetreatSplit) -> Choice:
    return Choice(action, "Retreat, sending units to different areas", group="Retreat")


def _retreat_area(view: SevenView, action: RetreatArea) -> Choice:
    if not action.to:
        return Choice(action, "Send units to another area", group="Where to")
    return Choice(action, f"Send units to {action.to}", group="Where to")


def _retreat_units(view: SevenView, action: RetreatUnits) -> Choice:
    return Choice(action, f"Send {unit_words(action.count, action.unit)} to {action.to}",
                  group=f"To {action.to}")


def _retreat_leader(view: SevenView, action: RetreatLeader) -> Choice:
    return Choice(action, f"Send {action.name} to {action.to}", group=f"To {action.to}")


def _fight_in(view: SevenView, action: FightIn) -> Choice:
    return Choice(action, f"Resolve the conflict in {action.area}")


def _commit(view: SevenView, action: Commit) -> Choice:
    return Choice(action, f"Commit {unit_words(action.count, action.unit)}", group="Commit")


def _board(view: SevenView, action: Board) -> Choice:
    goes = "goes with a ship" if action.count == 1 else "go with the ships"
    return Choice(action, f"{unit_words(action.count, action.unit)} aboard {goes} you committed",
                  group="Marines")


def _commit_leader(view: SevenView, action: CommitLeader) -> Choice:
    return Choice(action, "Commit your Tactician too", group="Commit")


def _raze(view: SevenView, action: Raze) -> Choice:
    return Choice(action, "Destroy the city" if action.destroy else "Keep the city")


def _redraw(view: SevenView, action: Redraw) -> Choice:
    return Choice(action, "Discard this card and pick a second (your Tactician)")


def _retreat(view: SevenView, action: Retreat) -> Choice:
    return Choice(action, f"Retreat to {action.to}", group="Retreat")


def _stand_fast(view: SevenView, action: StandFast) -> Choice:
    return Choice(action, "Stand fast and fight on")


def _window_play(view: SevenView, action: WindowPlay) -> Choice:
    c = load_deck().cards[action.card]
    if c.event.timing != "conflict":  # a cancel window's play (cancels.py): it only cancels
        cancel = [x for x in c.event.effects if x["code"] == "cancel_event"]
        words = f"Play {c.event.name}: {describe_all(cancel)}"
        return Choice(action, shorten(words, 100), group="Events")
    side = "the attackers" if action.side == 0 else "the defenders"
    # what the event does, not its card's number: the number tells a player nothing at this point
    does = describe_all(c.event.effects)
    note = window.note(view, action)  # the empires its Range must ask first (L2233)
    return Choice(action, shorten(f"Play {c.event.name} for {side}: {does}", 100 - len(note)) + note,
                  group="Events")


def _window_pass(view: SevenView, action: WindowPass) -> Choice:
    if action.never:  # the public events setting turned with the pass (engine/seven_ages/window.py)
        return Choice(action, "Play no event, and from now on ask me only at windows about me "
                              "(prefs events=ask undoes it)")
    return Choice(action, "Play no event now")


def _commit_done(view: SevenView, action: CommitDone) -> Choice:
    return Choice(action, "Done: reveal when the other side is ready")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    Lose: _loss_label, RetreatSplit: _split, RetreatArea: _retreat_area, RetreatUnits: _retreat_units,
    RetreatLeader: _retreat_leader, FightIn: _fight_in, Commit: _commit, Board: _board,
    CommitLeader: _commit_leader, Raze: _raze, Redraw: _redraw, Retreat: _retreat, StandFast: _stand_fast,
    WindowPlay: _window_play, WindowPass: _window_pass, CommitDone: _commit_done,
}
"""The words of the conflict's moves, by class (a nominated defender is worded by name: :func:`_nominee`)."""


def _nominee(view: SevenView, action: Nominate, names: Names) -> Choice:
    return Choice(action, f"{seat(names, action.seat)} defends")


def _side(d: Mapping[str, Any]) -> str:
    parts = " + ".join(f"{PART_WORDS.get(k, k)} {v}" for k, v in d["parts"].items())
    leader = " and a Tactician" if d["tactician"] else ""
    return (f"{the_empire(int(d['empire']))} commit {_units(d['units'])}{leader} (of {_units(d['forces'])}): "
            f"{d['total']} ({parts})")


def _how(d: Mapping[str, Any]) -> str:
    """Whose choice the units lost were: the owner's, or nobody's (nothing to choose)."""
    return {"chosen": " (their choice)", ALL: " (no choice: every unit that could be lost had to go)",
            ONE_TYPE: " (no choice: all of one type)"}.get(str(d.get("how", "")), "")


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "conflict_begins":
        return (f"{the_empire(int(d['empire']))} attack {empire_name(int(d['defender']))} in {d['area']}.")
    if event.type == "defender_nominated":
        return f"{seat(names, int(d['seat']))} defends {empire_name(int(d['empire']))} in {d['area']}."
    if event.type == "conflict_round":
        return f"Round {d['round']} in {d['area']}: both sides draw a card and commit their units."
    if event.type == "conflict_card":
        card = int(d["card"])
        what = card_text(card) if card else "no card (the deck is empty): 0"
        return f"Your conflict card in {d['area']}: {what}."
    if event.type == "conflict_committed":
        return f"{seat(names, int(d['seat']))} has committed units for {empire_name(int(d['empire']))}."
    if event.type == "conflict_tallied":
        sides = "; ".join(_side(s) for s in d["sides"])
        losers = join_words([empire_name(int(c)) for c in d["losers"]]) or "nobody"
        values = " and ".join(f"{load_deck().cards[int(s['card'])].value if s['card'] else 0}"
                              for s in d["sides"])
        return f"Round {d['round']} in {d['area']}, cards {values}: {sides}. Lost: {losers}."
    if event.type == "conflict_revealed":
        sides = "; ".join(f"{the_empire(int(x['empire']))} commit {_units(x['units'])}"
                          f"{' and a Tactician' if x['tactician'] else ''} of {_units(x['forces'])}"
                          for x in d["sides"])
        return f"Round {d['round']} in {d['area']}, revealed: {sides}."
    if event.type == "window_opens":
        return f"Events may be played now, in turn: {join_words([seat(names, int(x)) for x in d['seats']])}."
    if event.type == "window_event_played":
        if d["timing"] != "conflict":
            return None  # a cancel: the chain words it, naming what it cancels (cancels.py)
        c = load_deck().cards[int(d["card"])]
        side = "the attackers" if int(d["side"]) == 0 else "the defenders"
        return f"{seat(names, int(d['seat']))} plays {c.event.name} for {side}."
    if event.type == "window_closes":
        return "Every player asked has passed: no more events."
    if event.type == "conflict_retreat":
        lost = f", losing {_units(d['lost'])} that could go nowhere" if d["lost"] else ""
        to = join_words([str(a) for a in d.get("areas") or [d["to"]]])
        return f"{the_empire(int(d['empire']))} retreat from {d['area']} to {to}{lost}."
    if event.type == "pursuit_losses":
        return (f"Pursued, {empire_name(int(d['empire']))} lose {_units(d['units'])} as they retreat from "
                f"{d['area']}{_how(d)}.")
    if event.type == "losses_chosen":
        return f"{seat(names, int(d['seat']))} has chosen the losses of {empire_name(int(d['empire']))}."
    if event.type == "retreat_sent":
        what = str(d["leader"]) if d.get("leader") else _units(d["units"]) if d.get("units") else \
            f"{d['count']} unit{'' if int(d['count']) == 1 else 's'}"
        return f"{the_empire(int(d['empire']))} send {what} from {d['area']} to {d['to']}."
    if event.type == "conflict_committing":
        leader = " and your Tactician" if d["leader"] else ""
        return f"Committed so far in {d['area']}: {_units(d['units'])}{leader}."
    if event.type == "conflict_redraw":
        return f"{seat(names, int(d['seat']))} discards their conflict card and picks a second."
    if event.type == "conflict_losses":
        return f"{the_empire(int(d['empire']))} lose {_units(d['units'])} in {d['area']}{_how(d)}."
    if event.type == "leader_lost_in_conflict":
        fate = "leaves the game" if d["named"] else "goes back to the leader cup"
        return f"{d['leader']} of {empire_name(int(d['empire']))} is lost in {d['area']} and {fate}."
    if event.type == "conflict_disorder":
        return (f"{the_empire(int(d['empire']))} have committed every unit in {d['area']}: a conflict "
                f"disorder marker ({d['markers']} now), and their units are uncommitted again.")
    if event.type == "conflict_ended":
        winner = d["winner"]
        who = f"{the_empire(int(winner))} hold {d['area']}" if winner else f"{d['area']} is left vacant"
        return f"The conflict in {d['area']} is over: {who}."
    if event.type == "elite_check":
        result = "loses an elite marker" if d["removed"] else "keeps its elite markers"
        return (f"{the_empire(int(d['empire']))}, having lost {d['lost']} units, draw a {d['value']}: the "
                f"empire {result}.")
    if event.type == "money_seized":
        gained = f", {d['gained']} of it to {empire_name(int(d['taker']))}" if d["taker"] else ""
        return f"{the_empire(int(d['empire']))} lose all their {d['money']} money{gained}."
    return None


def register() -> None:
    """Word the conflict's moves, events and stages (called once, as the Manoeuvre step registers)."""
    for cls, label in LABELS.items():
        register_label(cls.kind, label)
    register_named_label(Nominate.kind, _nominee)
    for type_ in EVENTS:
        register_event(type_, _words)
    for type_ in SHOWN:
        fog.open_event(type_)
    for stage, words in STAGE_WORDS.items():
        register_heading(stage, words)
    register_pending_heading("losses", _losses_heading)
    register_pending_heading("retreat_to", _scatter_heading)
