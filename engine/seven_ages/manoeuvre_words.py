"""The words of a Manoeuvre go (:mod:`engine.seven_ages.manoeuvre`): its choices, events and headings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Choice, Event, Names
from engine.seven_ages.decision import register_go_heading, register_heading, register_label
from engine.seven_ages.manoeuvre_moves import (
    ACTIONS,
    AIR,
    LAND,
    REFUSE,
    SHIPS,
    CanalAnswer,
    DropOff,
    EndMovement,
    MoveAll,
    MoveBack,
    MoveFrom,
    MoveTo,
    MoveUnits,
    Pacify,
    PayToll,
    StopHere,
    TakeLeader,
    TopUnit,
)
from engine.seven_ages.text import empire_name, register_event, seat, the_empire, unit_words
from engine.seven_ages.view import GoView, SevenView
from engine.words import article, join_words, plural

STAGE_WORDS = {"stack": "choose a stack to move, or end movement",
               "path": "choose the units, then move them one area at a time",
               "pacify": "remove disorder by your units (one unit goes with each marker, unless a fort)",
               "permission": "another empire's ships ask to pass your canal: answer"}
EVENTS = ("units_moved", "units_moved_back", "units_stopped", "city_reduced", "galleys_lost",
          "movement_ended", "disorder_pacified", "units_dropped", "units_lost_at_sea", "canal_asked",
          "canal_answered", "toll_paid", "strategist_moves")

def _units_words(units: Sequence[Sequence[Any]]) -> str:
    return join_words([unit_words(int(n), str(u)) for u, n in units])


def _moving(d: Mapping[str, Any]) -> str:
    """The units of a move event: by type, or (the public event, fog of war L791) only how many."""
    return _units_words(d["units"]) if "units" in d else plural(int(d["count"]), "unit")


def _range_label(action: CanalAnswer | PayToll, phase: str) -> Choice:
    """The permission's answers when a trader, or a card's player, asks to count range through an
    empire's areas (L2233)."""
    if isinstance(action, PayToll):
        then = "trade" if phase == "trade" else "play the card"
        return Choice(action, f"Pay the price and {then}" if action.accept else "Refuse the price")
    if action.answer == REFUSE:
        return Choice(action, "Refuse")
    return Choice(action, "Let them count through" if action.answer == 0 else f"Ask {action.answer} money")


def _label(view: SevenView, action: Action) -> Choice:
    if isinstance(action, MoveFrom):
        return Choice(action, f"Move units from {action.area}")
    if isinstance(action, MoveUnits):
        return Choice(action, f"Take {unit_words(action.count, action.unit)}", group="Which units move")
    if isinstance(action, MoveAll):
        words = {LAND: "land units", SHIPS: "ships", AIR: "aircraft"}
        return Choice(action, f"Take all the {words.get(action.mode, action.mode)} that may move",
                      group="Which units move")
    if isinstance(action, TakeLeader):
        return Choice(action, f"{action.name} rides along", group="Leaders")
    if isinstance(action, MoveTo):
        return Choice(action, f"Move into {action.area}", group="Where next")
    if view["phase"] in ("trade", "civilise") and isinstance(action, (CanalAnswer, PayToll)):
        return _range_label(action, view["phase"])  # the same answers, for counting range (L2233)
    if isinstance(action, CanalAnswer):
        if action.answer == REFUSE:
            return Choice(action, "Refuse passage")
        return Choice(action, "Let them pass" if action.answer == 0 else
                      f"Ask a toll of {action.answer} money")
    if isinstance(action, PayToll):
        return Choice(action, "Pay the toll and pass" if action.accept else "Refuse the toll")
    if isinstance(action, DropOff):
        # cargo set down (L632) or a Strategist's units left on the way (L787): either way they stay
        return Choice(action, f"Leave {unit_words(action.count, action.unit)} here: they move no further",
                      group="Drop off")
    if isinstance(action, StopHere):
        return Choice(action, "Stop here")
    if isinstance(action, MoveBack):
        return Choice(action, "Take these steps back")
    if isinstance(action, EndMovement):
        return Choice(action, "End movement", confirm="Units that have not moved stay where they are. End?")
    if isinstance(action, TopUnit):
        return Choice(action, f"Show {article(action.unit)} on top of your units in {action.area}")
    assert isinstance(action, Pacify)
    if action.unit:  # the unit that goes with the marker (L688), named in the same move
        return Choice(action, f"Remove the disorder in {action.area}, losing {unit_words(1, action.unit)}",
                      group="Remove disorder")
    return Choice(action, f"Remove the disorder in {action.area}", group="Remove disorder")


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "units_moved":
        return (f"{the_empire(int(d['empire']))} move {_moving(d)} from {d['origin']} "
                f"into {d['area']}.")
    if event.type == "units_moved_back":
        return f"{the_empire(int(d['empire']))} take their units' steps back to {d['area']}."
    if event.type == "units_stopped":
        riders = f" with {join_words(d['leaders'])}" if d["leaders"] else ""
        return (f"{the_empire(int(d['empire']))} end the move of {_moving(d)}{riders} "
                f"in {d['area']}.")
    if event.type == "canal_asked":
        return (f"{the_empire(int(d['empire']))} ask {empire_name(int(d['keeper']))} to let their ships "
                f"through the {d['canal']} canal.")
    if event.type == "canal_answered":
        answer = int(d["answer"])
        what = "refuse" if answer == REFUSE else "grant passage" if answer == 0 else \
            f"ask a toll of {answer} money"
        return f"{the_empire(int(d['empire']))} {what} at the {d['canal']} canal."
    if event.type == "toll_paid":
        keeper = empire_name(int(d["keeper"]))
        return f"{the_empire(int(d['empire']))} pay {keeper} a toll of {d['money']} money."
    if event.type == "units_dropped":
        return f"{the_empire(int(d['empire']))} leave {_moving(d)} in {d['area']} on the way."
    if event.type == "units_lost_at_sea":
        lost = unit_words(int(d['count']), str(d['unit']))
        return f"{the_empire(int(d['empire']))} lose {lost} at sea in {d['area']}."
    if event.type == "city_reduced":
        now = f"a {d['now']}-value city" if d["now"] else "no city"
        return f"The city in the vacant area {d['area']} is reduced: {d['area']} now has {now}."
    if event.type == "galleys_lost":
        return (f"{the_empire(int(d['empire']))} lose {plural(int(d['count']), 'galley')} at sea, far from "
                "their lands.")
    if event.type == "strategist_moves":
        return (f"The Strategist of {empire_name(int(d['empire']))} may lead the units stacked with them on "
                "a second move, and fight again.")
    if event.type == "movement_ended":
        return f"{seat(names, int(d['seat']))} ends the movement of {empire_name(int(d['empire']))}."
    if event.type == "disorder_pacified":
        cost = f" and remove {unit_words(1, str(d['lost']))} of theirs there with it" if d["lost"] else ""
        return f"{the_empire(int(d['empire']))} remove the disorder in {d['area']}{cost}."
    return None


def _path_heading(go: GoView) -> str:
    """The moving group as its owner reads it: its units, where it is and its points left."""
    group = go.get("data", {}).get("group") or {}
    units = [[u, n] for u, n in sorted({**group.get("units", {}), **group.get("cargo", {})}.items())]
    if not units:
        return f"choose the units that move from {group.get('from', 'here')}"
    if group.get("toll"):
        return f"the canal's owner asks a toll of {group['toll']['price']} money: pay it and pass, or not"
    left = group.get("left")
    points = f", {plural(int(left), 'movement point')} left" if left is not None else ""
    return f"{_units_words(units)} in {group['at']}{points}: move on one area, or stop"


def register() -> None:
    """Word the Manoeuvre go's moves, events and stages (called once, as the go's step registers)."""
    for kind in ACTIONS:
        register_label(kind.kind, _label)
    for type_ in EVENTS:
        register_event(type_, _words)
    for stage, words in STAGE_WORDS.items():
        register_heading(stage, words)
    register_go_heading("path", _path_heading)
