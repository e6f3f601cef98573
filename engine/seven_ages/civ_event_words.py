"""How the civilise events with choices read (:mod:`engine.seven_ages.civ_events`,
:mod:`engine.seven_ages.assassins`): the choices' labels, the question's heading, and the events' sentences.
Players are named as they read them ("alice (Red)"), empires by name; a hand looked at and a card taken are
in private events only.
"""

from __future__ import annotations

from engine.core import Choice, Event, Names
from engine.seven_ages.assassins import ASSASSIN
from engine.seven_ages.card_words import card_text
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civ_events import EVENT, LOSE
from engine.seven_ages.civilisation_moves import AssassinCard, EventPick
from engine.seven_ages.decision import (
    register_go_heading,
    register_heading,
    register_label,
    register_named_label,
)
from engine.seven_ages.text import built, empire_name, register_event, the_empire
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import GoView, SevenView
from engine.words import article, plural, shorten

REGISTERED = True
"""Importing this module registers the words (the civilise step imports it)."""


def pick_words(pick: str) -> str:
    """A pick as a choice reads (the thing chosen; the heading says what for)."""
    kind, _, detail = pick.partition(":")
    if kind == "cup":
        return "Draw a leader from the cup"
    if kind == "card":
        return card_text(int(detail))
    if kind in ("leader", "named"):
        name, area = detail.split("|", 1)
        return f"{name} in {area}"
    if kind == "artefact":
        area, name = detail.split("|", 1)
        return f"{name} in {area}" if area else f"{name} (on the empire's card)"
    if kind == "unit":
        area, unit = detail.split("|", 1)
        return f"Lose {article(unit)} in {area}"
    return detail


def _label(view: SevenView, action: AssassinCard) -> Choice:
    return Choice(action, "Keep this card" if action.keep else "Discard it and draw another")


def _named_label(view: SevenView, action: EventPick, names: Names) -> Choice:
    if action.pick.startswith("seat:"):
        return Choice(action, seat_name(names, int(action.pick[5:])))
    return Choice(action, shorten(pick_words(action.pick), 100))


def _heading(go: GoView) -> str:
    """The event's question, as its player reads it."""
    ev = go["data"].get("event") or {}
    code = (ev.get("ask") or {}).get("code", "")
    name = load_deck().cards[int(ev["card"])].event.name if ev.get("card") else "the event"
    return f"{name}: " + {
        "seat": "choose the player whose hand you look at", "steal": "choose the card you take",
        "disorder": "choose an area that falls into disorder",
        "calm": "choose another area whose disorder ends", "convert": "choose the area that joins you",
        "promote": "choose the leader promoted", "place": "choose where the new leader stands",
        "artefact": "choose the artefact lost", "leader": "choose the leader the assassins aim at",
        "discard": "choose a card of yours to discard",
        "add": f"choose where a free {(ev.get('ask') or {}).get('unit', 'unit')} goes",
    }.get(str(code), "make the event's choice")


def _words(event: Event, names: Names) -> str | None:
    d, t = event.data, event.type
    name = the_empire(int(d["empire"])) if int(d.get("empire") or 0) else ""
    if t == "event_disorder":
        return f"{name} fall into disorder in {d['area']}."
    if t == "event_calmed":
        return f"{name} are no longer in disorder in {d['area']}."
    if t == "event_unit_lost":
        return f"{name} lose {article(str(d['unit']))} in {d['area']}."
    if t == "fires_check":
        return (f"The check card is {card_text(int(d['card']))}: less {d['leaders']} for the leaders of "
                f"{empire_name(int(d['empire']))}, {plural(int(d['areas']), 'area')} burn.")
    if t == "event_city_reduced":
        return f"The city in {d['area']} is reduced to {d['city']}." if d["city"] else \
            f"The city in {d['area']} is destroyed."
    if t == "event_city_spared":
        return f"The Builder of {empire_name(int(d['empire']))} keeps the city in {d['area']} whole."
    if t == "dynasty_ends":
        return f"{name} lose their leaders to a new dynasty."
    if t == "dynasty_leader":
        if not d["area"]:
            return f"{name} draw 'no leader' for the new dynasty."
        return f"{name} draw {d['leader']} for the new dynasty, in {d['area']}."
    if t == "event_unit_placed":  # the unit's type only where the fog of war lets it be seen (fog.veil)
        n = int(d.get("count", 1))
        what = built(str(d["unit"]), n) if "unit" in d else plural(n, "free unit")
        return f"{name} place {what} in {d['area']}."
    if t == "area_converted":
        return f"{name} take {d['area']} peacefully."
    if t == "build_ahead":
        when = "this Production" if d.get("now") else "at their next Production"
        return f"{name} will build units {plural(int(d['levels']), 'level')} ahead {when}."
    if t == "hand_looked":
        who, whom = seat_name(names, int(d["seat"])), seat_name(names, int(d["victim"]))
        return f"{who} looks at the hand of {whom}."
    if t == "hand_seen":
        cards = ", ".join(card_text(int(c)) for c in d["cards"]) or "no cards"
        return f"The hand of {seat_name(names, int(d['victim']))}: {cards}."
    if t == "card_taken":
        return f"{seat_name(names, int(d['thief']))} takes a card from {seat_name(names, int(d['victim']))}."
    if t == "card_stolen":
        return (f"{seat_name(names, int(d['thief']))} takes {card_text(int(d['card']))} from "
                f"{seat_name(names, int(d['victim']))}.")
    if t == "artefact_lost":
        where = f" in {d['area']}" if d["area"] else ""
        return f"{name} lose {d['artefact']}{where}."
    if t == "assassin_target":
        return (f"{seat_name(names, int(d['seat']))} sends assassins after {d['leader']} of "
                f"{empire_name(int(d['empire']))} in {d['area']}.")
    if t == "assassin_card_drawn":
        return f"You draw {card_text(int(d['card']))} in secret."
    if t == "assassin_redraw":
        return f"{seat_name(names, int(d['seat']))} discards the card drawn, face down, and draws another."
    if t == "assassin_kept":
        return f"{seat_name(names, int(d['seat']))} keeps a card, face down."
    if t == "assassination":
        a, v = (card_text(int(c)) if c else "no card" for c in d["cards"])
        verdict = f"{d['leader']} is killed" if d["killed"] else f"{d['leader']} survives"
        return (f"The assassins of {seat_name(names, int(d['assassin']))} show {a}; "
                f"{seat_name(names, int(d['victim']))} shows {v}: {verdict}.")
    return None


register_label(AssassinCard.kind, _label)
register_named_label(EventPick.kind, _named_label)
register_go_heading(EVENT, _heading)
EVENT_TYPES = (
    "event_disorder", "event_calmed", "event_unit_lost", "fires_check", "event_city_reduced",
    "event_city_spared",
    "dynasty_ends", "dynasty_leader", "area_converted", "event_unit_placed", "build_ahead", "hand_looked",
    "hand_seen",
    "card_taken", "card_stolen", "artefact_lost", "assassin_target", "assassin_card_drawn", "assassin_redraw",
    "assassin_kept", "assassination")
for _type in EVENT_TYPES:
    register_event(_type, _words)
register_heading(LOSE, "an event removes your units: choose which one you lose")
register_heading(ASSASSIN, "assassins: keep the card you drew, or draw another")
