"""The card effects of :mod:`engine.seven_ages.effects` in plain English: one sentence template per code.

A template words one ``{code: ..., <params>}`` mapping as a phrase without a subject ("gain 3 money",
"its galleys may enter ocean areas"): the card text says whom it is about (the empire of a special,
an event's target). Every code of the vocabulary has a template here, and ``check-data`` refuses a code
without one (:func:`missing_words`), so no card reaches a player as a code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.words import join_words, plural

Params = Mapping[str, Any]
Template = Callable[[Params], str]


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _levels(n: int) -> str:
    return plural(abs(n), "progress level")


def _names(names: Iterable[str], last: str = "and") -> str:
    return join_words([f"the {n}" for n in names], last)


def _events(names: Iterable[str]) -> str:
    return join_words([f"'{n}'" for n in names], "or")


def _class(unit_class: str) -> str:
    """A unit class as the rulebook calls it ("missile units", "ships")."""
    return unit_class if unit_class in ("cavalry", "ships", "aircraft") else f"{unit_class} units"


def _money(p: Params) -> str:
    n = int(p["amount"])
    return f"gain {n} money" if n >= 0 else f"lose {-n} money"


def _progress(p: Params) -> str:
    n = int(p["levels"])
    return f"move {_levels(n)} {'ahead' if n >= 0 else 'back'} on the progress track"


def _unit_cost(p: Params) -> str:
    n = int(p["delta"])
    more = f"{n} more" if n >= 0 else f"{-n} less"
    return f"{_class(str(p['unit_class']))} cost {more} to build"


def _front(p: Params) -> str:
    unit = str(p["unit"])
    return f"{_signed(int(p['amount']))} front for {unit if unit.endswith('ry') else unit + ' units'}"


TEMPLATES: dict[str, Template] = {
    # set-up (L379-471)
    "conditional_age": lambda p: f"may also start in age {p['age']} while the {p['if_in_play']} are in play",
    "setup_relative": lambda p: (f"its progress marker starts {plural(int(p['behind']), 'level')} behind the "
                                 f"most advanced empire, or level with {_names(p['empires'], 'or')} (owner's "
                                 "choice)"),
    "setup_near_empire": lambda p: (f"may only start within {plural(int(p['within']), 'area')} of another "
                                    "empire"),
    "starts_coastal_of": lambda p: (f"also starts in every coastal area of the {p['sea']} held by "
                                    f"{_names(p['empires'])}"),
    "convert_units": lambda p: (f"converts the {join_words([_class(c) for c in p['classes']])} of other "
                                "empires in its start areas"),
    "free_forts": lambda p: f"{plural(int(p['count']), 'free fort')} in its start areas",
    "free_manoeuvres": lambda p: f"{plural(int(p['count']), 'free manoeuvre')} after its set-up",
    "elite_markers": lambda p: f"starts with {plural(int(p['count']), 'elite marker')}",
    "initial_unit_cost": lambda p: (f"its first {_class(str(p['unit_class']))} cost {p['cost']} each in its "
                                    "start age"),
    # economy (L473-549)
    "income_per_terrain": lambda p: f"{_signed(int(p['amount']))} income from each {p['terrain']} area",
    "unit_cost": _unit_cost,
    "build_ahead": lambda p: f"build units as if {_levels(int(p['levels']))} further on the progress track",
    # restrictions (card icons, L39-47)
    "no_cities_before": lambda p: f"no cities or forts before age {p['age']} (a Barbarian until then)",
    "no_ships_until_trade": lambda p: "no ships until it trades with an empire without that restriction",
    "no_cavalry_until_trade": lambda p: "no cavalry until it trades with an empire without that restriction",
    "may_vacate": lambda p: f"may vacate areas in ages {p['first_age']} to {p['last_age']}",
    # movement and conflict (L598-845)
    "front_bonus": _front,
    "move_bonus": lambda p: f"{_signed(int(p['amount']))} movement for its {_class(str(p['unit_class']))}",
    "galleys_in_oceans": lambda p: "its galleys may enter ocean areas and are not lost at sea",
    "defence_bonus": lambda p: f"{_signed(int(p['amount']))} defence in {p['terrain']} areas",
    "invade_bonus": lambda p: f"{_signed(int(p['amount']))} to its total when it invades from the sea",
    # trade
    "trade_by_age": lambda p: f"its trade number is {p['trade']} in age {p['age']}",
    # glory
    "count_desert_tundra": lambda p: "its desert and tundra areas count as areas for glory",
    # events (L859-891)
    "cancel_event": lambda p: f"cancel {_events(p['events'])} as it is played",
    "card_check": lambda p: f"pick a card: only if its value is {p['at_least']} or more does the rest happen",
    "new_dynasty": lambda p: "remove the empire's leaders; it draws new ones up to its leader number",
    "reveal_glory": lambda p: "the player shows their glory",
    "glory_if_least": lambda p: f"if no player has less glory, they gain up to {p['up_to']} glory",
    "no_harvest": lambda p: "no one gains glory in this harvest",
    "look_at_hand": lambda p: "look at the player's hand",
    "steal_card": lambda p: f"take {plural(int(p['count']), 'card')} at random from their hand",
    "draw_cards": lambda p: f"draw {plural(int(p['count']), 'card')}",
    "discard_cards": lambda p: f"discard {plural(int(p['count']), 'card')}",
    "assassinate": lambda p: ("try to assassinate a leader: you pick up to "
                              f"{plural(int(p['picks']), 'card')}, its player up to the empire's leader "
                              "number; the higher card wins"),
    "disorder_areas": lambda p: f"disorder {plural(int(p['count']), 'area')}",
    "disorder_by_card": lambda p: ("pick a card: its value less the empire's leaders (an Administrator "
                                   "counts 2) is the number of areas disordered"),
    "remove_disorder": lambda p: f"remove disorder from {plural(int(p['count']), 'area')}",
    "money": _money,
    "steal_money": lambda p: f"take up to {p['amount']} money from a raided or trading empire",
    "income_percent": lambda p: f"income this action is {p['percent']}% of the usual",
    "progress": _progress,
    "glory": lambda p: f"gain {p['amount']} glory",
    "lose_units": lambda p: f"remove {plural(int(p['count']), 'unit')} of the owner's choice",
    "add_units": lambda p: f"place {p['count']} free {_class(str(p['unit_class']))}",
    "conflict_bonus": lambda p: f"{_signed(int(p['amount']))} to this side's total this round",
    "ignore_fort": lambda p: "the defender's fort counts for nothing in this conflict",
    "elite_marker": lambda p: f"gain {plural(int(p['count']), 'elite marker')} (3 at most)",
    "move_bonus_once": lambda p: f"{_signed(int(p['amount']))} movement for this manoeuvre",
    "move_cost": lambda p: f"entering the area costs {p['amount']} more movement this turn",
    "trade_bonus": lambda p: f"{_signed(int(p['amount']))} to this trade's value",
    "block_action": lambda p: "the empire loses its go at this action",
    "free_city": lambda p: f"build a city of value {p['value']} for free",
    "improve_city": lambda p: f"improve a city {plural(int(p['steps']), 'step')} for free",
    "reduce_city": lambda p: f"reduce the city there by {p['amount']}",
    "convert_area": lambda p: ("take control of "
                               f"{plural(int(p['count']), 'adjacent neutral or disordered area')}"),
    "promote_leader": lambda p: "promote a leader for free",
    "modernise": lambda p: "modernise every unit of the empire for free",
    "lose_artefact": lambda p: f"the empire discards {plural(int(p['count']), 'artefact')} of your choice",
}


def describe(code: str, params: Params) -> str:
    """One effect in words: ``describe("money", {"amount": 3})`` is "gain 3 money".

    Raises:
        KeyError: the code has no template (``check-data`` reports it first).
    """
    return TEMPLATES[code](params)


def describe_all(effects: Iterable[Params]) -> str:
    """A list of effects, in order, joined as one phrase: "disorder 1 area and remove 1 unit …". A check
    card (L869) governs what follows it: "pick a card: if its value is 5 or more, remove …"."""
    listed = list(effects)
    for i, e in enumerate(listed):
        if e["code"] == "card_check":
            rest = describe_all(listed[i + 1:])
            check = f"pick a card: if its value is {e['at_least']} or more, {rest}"
            return f"{describe_all(listed[:i])}, then {check}" if i else check
    return join_words([describe(str(e["code"]), e) for e in listed])


def missing_words(codes: Iterable[str]) -> list[str]:
    """The codes among ``codes`` that have no template, sorted."""
    return sorted(set(codes) - set(TEMPLATES))
