"""The closed vocabulary of 7 Ages card effects and glory categories.

A card's special rules and its event are data: a list of ``{code: ..., <params>}``
mappings whose codes and parameters are listed here. ``check-data`` refuses any
other code or parameter, so no card can point at behaviour the engine does not
implement: adding a code here is a promise to implement it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Families of effect codes (the brief's groups); "event" codes run when an event card is played.
FAMILIES = ("setup", "economy", "restriction", "conflict", "trade", "glory", "event")

#: When an event may be played: the action whose title colour the card shows (L859-867), or conflict,
#: harvest, or any time.
TIMINGS = (
    "start",
    "production",
    "trade",
    "manoeuvre",
    "destiny",
    "civilise",
    "discard",
    "conflict",
    "harvest",
    "any",
)

#: What an event is played on (L861: "any area, empire or player").
TARGETS = ("own_empire", "other_empire", "any_empire", "player", "area", "conflict_side", "event", "everyone")

UNIT_CLASSES = ("infantry", "missile", "cavalry", "ships", "aircraft")

ParamType = type[int] | type[str] | type[list[str]]  # list: a list of names


@dataclass(frozen=True)
class EffectCode:
    code: str
    family: str
    params: tuple[tuple[str, ParamType], ...]
    meaning: str


def _e(code: str, family: str, meaning: str, *params: tuple[str, ParamType]) -> EffectCode:
    return EffectCode(code, family, params, meaning)


_CODES = (
    # set-up (L379-471)
    _e(
        "conditional_age",
        "setup",
        "may also start in age N while the named empire is in play (L393)",
        ("age", int),
        ("if_in_play", str),
    ),
    _e(
        "setup_relative",
        "setup",
        "progress marker N behind the leader or level with one of the named empires, owner's choice (L387)",
        ("behind", int),
        ("empires", list),
    ),
    _e(
        "setup_near_empire",
        "setup",
        "may only start within N areas of another empire (L413)",
        ("within", int),
    ),
    _e(
        "starts_coastal_of",
        "setup",
        "also starts in every coastal area on the sea controlled by the named empires (L387)",
        ("sea", str),
        ("empires", list),
    ),
    _e(
        "convert_units",
        "setup",
        "converts units of these classes in its start areas (L433-441)",
        ("classes", list),
    ),
    _e("free_forts", "setup", "N free forts in its start areas (L461)", ("count", int)),
    _e("free_manoeuvres", "setup", "N free manoeuvres after set-up (L469)", ("count", int)),
    _e("elite_markers", "setup", "starts with N elite markers on its card (L431)", ("count", int)),
    _e(
        "initial_unit_cost",
        "setup",
        "initial units of a class cost N in its start age (L467)",
        ("unit_class", str),
        ("cost", int),
    ),
    # economy (L473-549)
    _e(
        "income_per_terrain",
        "economy",
        "+N income from each area of a terrain",
        ("terrain", str),
        ("amount", int),
    ),
    _e(
        "unit_cost",
        "economy",
        "units of a class cost N more (negative: less)",
        ("unit_class", str),
        ("delta", int),
    ),
    _e("build_ahead", "economy", "builds units N progress levels ahead (L1628)", ("levels", int)),
    # restrictions (card icons, L39-47)
    _e(
        "no_cities_before",
        "restriction",
        "no cities or forts before age N: Barbarian until then (L39)",
        ("age", int),
    ),
    _e(
        "no_ships_until_trade",
        "restriction",
        "no ships until it trades with an unrestricted empire (L43, L537)",
    ),
    _e(
        "no_cavalry_until_trade",
        "restriction",
        "no cavalry until it trades with an unrestricted empire (L45)",
    ),
    _e(
        "may_vacate",
        "restriction",
        "may vacate areas in ages FIRST to LAST (L31)",
        ("first_age", int),
        ("last_age", int),
    ),
    # movement and conflict (L598-845)
    _e("front_bonus", "conflict", "+N front for a unit type or class (L813)", ("unit", str), ("amount", int)),
    _e("move_bonus", "conflict", "+N movement for a unit class", ("unit_class", str), ("amount", int)),
    _e("galleys_in_oceans", "conflict", "its galleys may enter ocean areas and are not lost at sea"),
    _e("defence_bonus", "conflict", "+N defence in a terrain", ("terrain", str), ("amount", int)),
    _e("invade_bonus", "conflict", "+N to its total when it invades from the sea", ("amount", int)),
    # trade
    _e("trade_by_age", "trade", "its trade number is N in age AGE", ("age", int), ("trade", int)),
    # glory
    _e("count_desert_tundra", "glory", "counts desert and tundra areas for glory (L1096)"),
    # events (L859-891)
    _e("cancel_event", "event", "cancels the named event as it is played (L871-873)", ("events", list)),
    _e(
        "card_check",
        "event",
        "pick a card: the effects after this apply only if its value is at least N (L869)",
        ("at_least", int),
    ),
    _e(
        "new_dynasty",
        "event",
        "the empire's leaders are removed and it draws new ones up to its leader number",
    ),
    _e("reveal_glory", "event", "the target player shows their glory (L1277)"),
    _e(
        "glory_if_least",
        "event",
        "the target player gains up to N glory if no player has less (L1277)",
        ("up_to", int),
    ),
    _e("no_harvest", "event", "no one gains glory in this harvest (L879)"),
    _e("look_at_hand", "event", "look at the target player's hand"),
    _e("steal_card", "event", "take N cards at random from the target player's hand", ("count", int)),
    _e("draw_cards", "event", "draw N cards", ("count", int)),
    _e("discard_cards", "event", "discard N cards", ("count", int)),
    _e("assassinate", "event", "assassinate a leader, picking up to N cards (L883-889)", ("picks", int)),
    _e("disorder_areas", "event", "disorder N areas of the target", ("count", int)),
    _e(
        "disorder_by_card",
        "event",
        "pick a card: its value less the target's leaders (administrators 2) areas are disordered (L2007)",
    ),
    _e("remove_disorder", "event", "remove disorder from N areas", ("count", int)),
    _e("money", "event", "the target gains N money (negative: loses)", ("amount", int)),
    _e("steal_money", "event", "take up to N money from the target (played on one's own empire in its trade: "
       "from the trade partner)", ("amount", int)),
    _e("income_percent", "event", "the target's income this action is N percent", ("percent", int)),
    _e("progress", "event", "the target moves N progress levels", ("levels", int)),
    _e("glory", "event", "the player gains N glory", ("amount", int)),
    _e("lose_units", "event", "the target removes N units of its choice", ("count", int)),
    _e("add_units", "event", "place N free units of a class", ("unit_class", str), ("count", int)),
    _e("conflict_bonus", "event", "+N to this side's total this round", ("amount", int)),
    _e("ignore_fort", "event", "the defender's fort counts nothing this conflict"),
    _e("elite_marker", "event", "the empire gains N elite markers (up to 3)", ("count", int)),
    _e("move_bonus_once", "event", "+N movement for this manoeuvre", ("amount", int)),
    _e("move_cost", "event", "entering the target area costs N more this turn", ("amount", int)),
    _e("trade_bonus", "event", "+N to this trade's value", ("amount", int)),
    _e("block_action", "event", "the target's action this step is lost"),
    _e("free_city", "event", "build a city of value N for free", ("value", int)),
    _e("improve_city", "event", "improve a city N steps for free", ("steps", int)),
    _e("reduce_city", "event", "reduce a city in the target area by N", ("amount", int)),
    _e("convert_area", "event", "take control of N adjacent neutral or disordered areas", ("count", int)),
    _e("promote_leader", "event", "promote a leader for free"),
    _e("modernise", "event", "modernise every unit of the empire for free"),
    _e("lose_artefact", "event", "the target discards N artefacts of the player's choice", ("count", int)),
)

EFFECTS: dict[str, EffectCode] = {c.code: c for c in _CODES}

#: Glory categories (L62-74, L1028-1144): ranked ones take a value 1-3 (L1036-1040).
RANKED = (
    "seas",
    "region",
    "not_europe",
    "progress",
    "artefacts",
    "cities",
    "money",
    "ships",
    "land_units",
    "cavalry",
    "religion",
)
#: One glory per resource (L1084), +1/-1 for the homeland (L1120).
UNRANKED = ("homeland", "wheat", "elephant", "oil")
#: Immediate glory (square icons, L1138-1142): N glory each time.
IMMEDIATE = ("per_level", "per_trade_won", "per_trade_tied", "per_liberation")
#: Areas a region category can name: the rulebook's regions and sub-regions, and the World (L65).
WORLD = "World"
