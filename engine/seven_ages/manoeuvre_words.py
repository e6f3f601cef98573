"""The words of a Manoeuvre go (:mod:`engine.seven_ages.manoeuvre`): its choices, events and headings."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Action, Choice, Event, Names
from engine.seven_ages.decision import register_go_heading, register_heading, register_label
from engine.seven_ages.manoeuvre_moves import (
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
from engine.seven_ages.state import CIVILISE, TRADE
from engine.seven_ages.text import empire_name, register_event, seat, the_empire, unit_words
from engine.seven_ages.view import GoView, SevenView
from engine.words import article, join_words, plural

STAGE_WORDS = {"stack": "choose a stack to move, or end movement",
               "path": "choose the units, then move them one area at a time",
               "pacify": "remove disorder by your units (one unit goes with each marker, unless a fort)",
               "permission": "another empire's ships ask to pass your canal: answer"}
EVENTS = ("units_moved", "units_moved_back", "units_stopped", "city_reduced", "galleys_lost",
          "movement_ended", "disorder_pacified", "units_dropped", "units_lost_at_sea", "canal_asked",
          "canal_answered", "toll_paid", "strategist_moves", "world_war_moves")

def _units_words(units: Sequence[Sequence[Any]]) -> str:
    return join_words([unit_words(int(n), str(u)) for u, n in units])


def _moving(d: Mapping[str, Any]) -> str:
    """The units of a move event: by type, or (the public event, fog of war L791) only how many."""
    return _units_words(d["units"]) if "units" in d else plural(int(d["count"]), "unit")


_RANGE_PHASES = (TRADE, CIVILISE)
"""The phases where a canal's answers are asked of a trader, or a card's player, counting range through an
empire's areas (L2233), not of ships passing the canal."""


def _move_from(view: SevenView, action: MoveFrom) -> Choice:
    return Choice(action, f"Move units from {action.area}")


def _move_units(view: SevenView, action: MoveUnits) -> Choice:
    return Choice(action, f"Take {unit_words(action.count, action.unit)}", group="Which units move")


def _move_all(view: SevenView, action: MoveAll) -> Choice:
    words = {LAND: "land units", SHIPS: "ships", AIR: "aircraft"}
    return Choice(action, f"Take all the {words.get(action.mode, action.mode)} that may move",
                  group="Which units move")


def _take_leader(view: SevenView, action: TakeLeader) -> Choice:
    return Choice(action, f"{action.name} rides along", group="Leaders")


def _move_to(view: SevenView, action: MoveTo) -> Choice:
    return Choice(action, f"Move into {action.area}", group="Where next")


def _canal_answer(view: SevenView, action: CanalAnswer) -> Choice:
    if view["phase"] in _RANGE_PHASES:  # the same answers, for counting range (L2233)
        if action.answer == REFUSE:
            return Choice(action, "Refuse")
        return Choice(action, "Let them count through" if action.answer == 0 else
                      f"Ask {action.answer} money")
    if action.answer == REFUSE:
        return Choice(action, "Refuse passage")
    return Choice(action, "Let them pass" if action.answer == 0 else f"Ask a toll of {action.answer} money")


def _pay_toll(view: SevenView, action: PayToll) -> Choice:
    if view["phase"] in _RANGE_PHASES:  # the price asked to count range through an empire's areas (L2233)
        then = "trade" if view["phase"] == TRADE else "play the card"
        return Choice(action, f"Pay the price and {then}" if action.accept else "Refuse the price")
    return Choice(action, "Pay the toll and pass" if action.accept else "Refuse the toll")


def _drop_off(view: SevenView, action: DropOff) -> Choice:
    # cargo set down (L632) or a Strategist's units left on the way (L787): either way they stay
    return Choice(action, f"Leave {unit_words(action.count, action.unit)} here: they move no further",
                  group="Drop off")


def _stop_here(view: SevenView, action: StopHere) -> Choice:
    return Choice(action, "Stop here")


def _move_back(view: SevenView, action: MoveBack) -> Choice:
    return Choice(action, "Take these steps back")


def _end_movement(view: SevenView, action: EndMovement) -> Choice:
    return Choice(action, "End movement", confirm="Units that have not moved stay where they are. End?")


def _top_unit(view: SevenView, action: TopUnit) -> Choice:
    return Choice(action, f"Show {article(action.unit)} on top of your units in {action.area}")


def _pacify(view: SevenView, action: Pacify) -> Choice:
    if action.unit:  # the unit that goes with the marker (L688), named in the same move
        return Choice(action, f"Remove the disorder in {action.area}, losing {unit_words(1, action.unit)}",
                      group="Remove disorder")
    return Choice(action, f"Remove the disorder in {action.area}", group="Remove disorder")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    MoveFrom: _move_from, MoveUnits: _move_units, MoveAll: _move_all, TakeLeader: _take_leader,
    MoveTo: _move_to, CanalAnswer: _canal_answer, PayToll: _pay_toll, DropOff: _drop_off,
    StopHere: _stop_here, MoveBack: _move_back, EndMovement: _end_movement, TopUnit: _top_unit,
    Pacify: _pacify,
}
"""The words of a Manoeuvre go's moves (and the canal's answers wherever they are asked), by class."""


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
    if event.type == "world_war_moves":
        return (f"World war: {empire_name(int(d['empire']))} may move their units again, and fight again "
                "(L1992).")
    if event.type == "strategist_moves":
        return (f"The Strategist of {empire_name(int(d['empire']))} may lead the units stacked with them on "
                "one more move, and fight again.")  # the second, or the third after World war's (L1992)
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
    for cls, label in LABELS.items():
        register_label(cls.kind, label)
    for type_ in EVENTS:
        register_event(type_, _words)
    for stage, words in STAGE_WORDS.items():
        register_heading(stage, words)
    register_go_heading("path", _path_heading)
