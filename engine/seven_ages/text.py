"""7 Ages in words: every text hook, built from a view (and the printed cards), naming seats through
``names`` ("alice (Blue)").

Half B's events are worded by their own modules through :func:`register_event`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import PUBLIC, Event, Names, PlayerId
from engine.seven_ages import prefs
from engine.seven_ages.card_words import card_long, card_text
from engine.seven_ages.cards import load_deck
from engine.seven_ages.setup import FROM_DECK
from engine.seven_ages.state import (
    ACTIONS,
    BID,
    COLOURS,
    DRAFT,
    END_TURN,
    EXTRA,
    MARKERS,
    OVER,
    REDEEM,
    SIFT,
    SIFT_VOTE,
    TRIM,
)
from engine.seven_ages.view import EmpireView, SevenView, action_name
from engine.words import article, first_place, join_words, plural

EventText = Callable[[Event, Names], "str | None"]
_EVENTS: dict[str, EventText] = {}

PHASE_WORDS = {SIFT: "Preparing to play: sifting the deck", SIFT_VOTE: "Preparing to play: the sifting vote",
               REDEEM: "Preparing to play: redrawing cards", BID: "Bidding for who goes first",
               COLOURS: "Choosing colours", TRIM: "Preparing to play: discarding down to 6",
               DRAFT: "Drafting the spare markers", MARKERS: "Placing action markers",
               END_TURN: "End of turn", OVER: "Game over"}


def register_event(type_: str, words: EventText) -> None:
    """Word an event type another module owns (trade, destiny, civilise, end of turn...)."""
    _EVENTS[type_] = words


def seat(names: Names, index: int) -> str:
    from engine.seven_ages.spec import SPEC  # the spec names a seat when the platform gave no names

    return SPEC.name_in(names, index)


def empire_name(card: int) -> str:
    """The empire printed on ``card``: "the Romans"."""
    return f"the {load_deck().cards[card].empire.name}"


def the_empire(card: int) -> str:
    """:func:`empire_name` to open a sentence: "The Romans"."""
    return f"The {load_deck().cards[card].empire.name}"


def order_tail(areas: list[str], to: int) -> str:
    """The end of an armed order's words (:mod:`engine.seven_ages.armed`): the areas it disorders and the
    empire that receives the money it takes, each only when it has them."""
    tail = f", disordering {join_words(areas)}" if areas else ""
    return tail + (f", the money to {empire_name(to)}" if to else "")




UNIT_PLURALS: dict[str, str] = {
    "Ship-of-the-line": "Ships-of-the-line", "Lt. Horse": "Lt. Horse", "Horse artillery": "Horse artillery",
    "Artillery": "Artillery", "Motorised": "Motorised", "Star Wars": "Star Wars",
}
"""Unit names whose plural is not the name and an "s" (collective nouns stay as they are)."""


def unit_words(count: int, unit: str) -> str:
    """A number of one unit type in words: "1 Spear", "3 Ships-of-the-line", "2 Artillery"."""
    return plural(count, unit, UNIT_PLURALS.get(unit))


def unit_count(unit: str, count: int) -> str:
    """Units of one type by number, as builds name them: "Spear", "Spear x 3"."""
    return unit if count == 1 else f"{unit} x {count}"


def built(unit: str, count: int) -> str:
    """What a build made, in a sentence: "a Spear", "an Archer", "Spear x 3"."""
    return article(unit) if count == 1 else unit_count(unit, count)


def marker_place(empire: int, whose: str = "them") -> str:
    return f"in front of {whose}" if empire == EXTRA else f"on {empire_name(empire)}"


def spare_markers(markers: list[str]) -> str:
    """Spare action markers counted by kind: "2 Civilise markers and 1 Wild card marker"."""
    kinds = sorted(set(markers), key=markers.index)
    return join_words([plural(markers.count(k), f"{action_name(k)} marker") for k in kinds])


# -- events ------------------------------------------------------------------------------------

def describe_event(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type in _EVENTS:
        return _EVENTS[event.type](event, names)
    if event.type == "preference_set":
        said = prefs.sentence(str(d["key"]), str(d["value"]))
        return f"{seat(names, int(d['seat']))}: {said}" if event.audience == PUBLIC else said
    who = seat(names, int(d["seat"])) if "seat" in d else ""
    match event.type:
        case "bid_placed":
            return f"{who} has played a card face down to bid for the first turn."
        case "bid_secret":
            return f"You bid with {card_text(int(d['card']))}."
        case "bids_revealed":
            bids = [f"{seat(names, int(s))} {v}" for s, v in sorted(d["values"].items())]
            return f"The bids are revealed: {join_words(bids)}."
        case "bid_tied":
            return (f"{join_words([seat(names, s) for s in d['seats']])} tie with a {d['value']} and "
                    "play another card.")
        case "first_player":
            return f"{who} goes first and takes the turn marker."
        case "colours_chosen":
            return f"{who} takes the {d['group']} empire counters as their dedicated colours."
        case "card_removed":
            return f"{who} puts a card out of the game face down."
        case "cards_passed_left":
            return "Everyone passes the rest of their cards to the player on their left."
        case "sub_decks_dealt":
            return (f"Not the full deck: everyone is dealt {plural(int(d['cards']), 'card')} face down as "
                    "their sub-deck.")
        case "sift_voted":
            return f"{who} has voted."
        case "sift_votes":
            happy = [seat(names, int(q)) for q in d["happy"]]
            said = (f"{join_words(happy)} {'is' if len(happy) == 1 else 'are'} happy" if happy
                    else "nobody is happy")
            verdict = ("a majority: these cards are played" if d["ends"]
                       else "no majority (more than half must be happy): another round")
            return f"The votes are in: {said} with the cards left, out of {d['players']}; {verdict}."
        case "deck_sifted":
            return (f"The deck is sifted: {plural(int(d['removed']), 'card')} are out of the game; the rest "
                    "is shuffled and the hands are dealt.")
        case "card_discarded":
            return f"{who} discards a card."
        case "cards_drawn":
            return f"{who} draws {plural(int(d['count']), 'card')}."
        case "cards_drawn_secret":
            return f"You draw {join_words([card_text(int(c)) for c in d['cards']])}."
        case "turn_begins":
            return f"Turn {d['turn']} begins; {seat(names, int(d['first']))} is the First player."
        case "marker_placed":
            return f"{who} places an action marker face down {marker_place(int(d['empire']))}."
        case "marker_chosen":
            where = marker_place(int(d["empire"]), "you")
            return f"You place your {action_name(d['marker'])} marker {where}."
        case "marker_drafted":
            return f"{who} takes one of the spare action markers."
        case "marker_drafted_secret":
            return f"You take the spare {action_name(d['marker'])} marker for this turn."
        case "spare_markers_taken_up":
            return f"You pick up the spare action markers: {spare_markers(d['markers'])}."
        case "spare_markers_handed":
            return (f"{seat(names, int(d['giver']))} passes you the spare action markers left: "
                    f"{spare_markers(d['markers'])}.")
        case "markers_placed":
            return f"{who} has placed their action markers."
        case "action_begins":
            return f"{action_name(d['action'])} begins."
        case "action_passed":
            return f"{who} turns over no more markers for {action_name(d['action'])}."
        case "marker_turned":
            what = "a wild card, as" if d["wild"] else "their"
            where = "for no empire" if int(d["empire"]) == EXTRA else f"for {empire_name(int(d['empire']))}"
            return f"{who} turns over {what} {action_name(d['action'])} marker {where}."
        case "card_played":
            return f"{who} plays {card_text(int(d['card']))} to start that empire."
        case "empire_started":
            return (f"{who} starts the {d['name']} in {d['colour']} on progress level {d['progress']} with "
                    f"{d['money']} money.")
        case "leader_placed":
            return f"{who} sets up {d['leader']} with {empire_name(int(d['empire']))} in {d['area']}."
        case "unit_built":  # the unit's type only in its owner's view (fog of war, L791)
            n = int(d.get("count", 1))
            what = built(str(d["unit"]), n) if "unit" in d else "a unit" if n == 1 else plural(n, "unit")
            return f"{the_empire(int(d['empire']))} build {what} in {d['area']} for {d['cost']} money."
        case "fort_built":
            paid = f"for {d['cost']} money" if d["cost"] else "for free"
            return f"{the_empire(int(d['empire']))} fortify {d['area']} {paid}."
        case "capital_placed":
            return f"{the_empire(int(d['empire']))} set up their capital in {d['area']} " \
                   f"(a value {d['value']} city)."
        case "capital_converted":
            return (f"{the_empire(int(d['empire']))} take the city of {d['area']} as their "
                    "capital.")
        case "homeland_named":
            return f"{the_empire(int(d['empire']))} name {d['area']} their homeland."
        case "units_converted":
            units = unit_words(int(d["count"]), str(d.get("unit", "unit")))  # the type: for its owner
            return (f"{the_empire(int(d['empire']))} convert {units} of {empire_name(int(d['other']))} in "
                    f"{d['area']}.")
        case "top_unit_set":
            return (f"Other players now see {article(str(d['unit']))} on top of the units of "
                    f"{empire_name(int(d['empire']))} in {d['area']}.")
        case "units_revealed":
            sides = [f"{empire_name(int(side['empire']))} "
                     + join_words([unit_words(int(n), str(u)) for u, n in side["units"]])
                     for side in d["sides"]]
            return f"The units in {d['area']} are shown to all for the conflict: {'; '.join(sides)}."
        case "city_destroyed":
            return f"{the_empire(int(d['empire']))} destroy the city of {d['area']}."
        case "income":
            return (f"{the_empire(int(d['empire']))} earn {d['amount']} income and have "
                    f"{d['money']} money.")
        case "maintained":
            return f"{the_empire(int(d['empire']))} pay {d['cost']} to maintain their units."
        case "unit_unmaintained":
            return (f"{the_empire(int(d['empire']))} cannot maintain {article(str(d['unit']))} in "
                    f"{d['area']}: it goes back to the pool.")
        case "disordered":
            return f"{d['area']} falls into disorder."
        case "elite_built":
            return f"{the_empire(int(d['empire']))} buy an elite marker for {d['cost']} money."
        case "empire_discarded":
            why = " (it has no units left)" if d["forced"] else ""
            return f"{who} discards {empire_name(int(d['empire']))}{why}."
        case "leader_lost":
            where = "out of the game" if d["named"] else "back to the leader cup"
            leader = d["leader"] if d["named"] else f"their {d['leader']}"  # an unnamed one is its ability
            return (f"{the_empire(int(d['empire']))} lose {leader} in {d['area']}, where no unit of "
                    f"theirs is left ({where}).")
        case "area_cleared":
            parts = [*(["fort"] if d["fort"] else []), *(["disorder"] if d["disorder"] else []),
                     *(f"artefact {a}" for a in d["artefacts"])]
            verb = "is" if len(parts) == 1 else "are"
            return f"{d['area']} is vacant: its {join_words(parts)} {verb} removed."
        case "capital_to_city":
            return (f"No unit is left in {d['area']}: the capital of {empire_name(int(d['empire']))} there "
                    f"becomes a plain city of value {d['value']}.")
        case "illustrious":
            return (f"{who} gains {d['glory']} glory: {empire_name(int(d['empire']))} went beyond the 49th "
                    "progress level.")
        case "game_over":
            return None
    return None


# -- the state of play -------------------------------------------------------------------------------

def stage(view: SevenView) -> str:
    phase = view["phase"]
    if phase in ACTIONS:
        return f"Turn {view['turn']}: {action_name(phase)}"
    if phase in (DRAFT, MARKERS, END_TURN):
        return f"Turn {view['turn']}: {PHASE_WORDS[phase]}"
    return PHASE_WORDS[phase]


def scores(view: SevenView, names: Names) -> str:
    return join_words([f"{seat(names, p['seat'])} {p['glory']}" for p in view["people"]])


def result(view: SevenView, names: Names) -> str:
    ranking = view["ranking"] or []
    if not ranking:
        return ""
    best = view["people"][ranking[0]]["glory"]
    shared = first_place(view["places"], ranking)
    if len(shared) > 1:  # "If still equal, they both win" (L311)
        return (f"{join_words([seat(names, s) for s in shared])} share the win: tied on glory and on "
                "their most advanced empires.")
    tied = [s for s in ranking if view["people"][s]["glory"] == best]
    if len(tied) > 1:
        return (f"Winner: {seat(names, ranking[0])} (tied on glory with "
                f"{join_words([seat(names, s) for s in tied[1:]])}, ahead on the most advanced empire).")
    return f"Winner: {seat(names, ranking[0])}."


def status_text(view: SevenView, names: Names) -> str:
    glory = f"Glory: {scores(view, names)}."
    if view["over"]:
        return f"{stage(view)}. {glory} {result(view, names)}"
    waiting = [seat(names, s) for s in view["actors"]]
    waits = f" Waiting for {join_words(waiting)}." if waiting else ""
    return f"{stage(view)}.{waits} {glory}"


def hand_text(view: SevenView, player: PlayerId, names: Names) -> str:
    hand = view["your_hand"] or []
    cards = "You hold no cards."
    if hand:  # whole cards, to their owner only (the view gives a hand to its owner alone)
        blocks = "\n\n".join(card_long(c) for c in hand)
        cards = f"You hold {plural(len(hand), 'card')}:\n\n{blocks}\n"
    bid = view["your_bid"]
    extra = f" Your face-down bid is {card_text(bid)}." if bid is not None and bid != FROM_DECK else ""
    mine = [(m["action"], m["empire"]) for m in view["markers"]
            if m["owner"] == player and m["turned"] is None and m["action"]]
    if mine:
        placed = join_words([f"{action_name(action)} {marker_place(at, 'you')}" for action, at in mine])
        extra += f" Your face-down markers: {placed}."
    you = view["you"]  # None in a spectator's view
    armed = you["armed"] if you is not None else []
    if armed:  # the owner's hidden standing orders (engine.seven_ages.armed): in their own view only
        events = [load_deck().cards[o["card"]].event for o in armed]
        extra += " Armed orders, hidden from the others: " + "; ".join(
            f"{ev.name} on {empire_name(o['empire'])} at their {action_name(ev.timing)}"
            f"{order_tail(o['areas'], o.get('to', 0))}" for ev, o in zip(events, armed, strict=True)) + "."
    standing = you["prefs"] if you is not None else {}
    if standing:
        extra += " Standing preferences (prefs KEY=VALUE changes one): " + " ".join(
            f"{key}={value}: {prefs.sentence(key, value)}" for key, value in standing.items())
    return cards + (extra.lstrip() if hand else extra)  # the blocks end a line: no space after them


def units_by_area(empire: EmpireView, public: bool = False) -> dict[str, list[str]]:
    """An empire's units in each area as the viewer may know them: every type in its owner's view (unless
    ``public``: what everyone sees); otherwise the top unit and how many stand there (fog of war, L791):
    "a stack of 4 units with a Rifle on top"."""
    held: dict[str, list[str]] = {}
    if empire["units"] is not None and not public:
        for area, unit, count in empire["units"]:
            held.setdefault(str(area), []).append(unit_words(int(count), str(unit)))
        return held
    for area, top, count in empire["stacks"]:
        shown = article(str(top))
        held[str(area)] = [shown if count == 1 else f"a stack of {count} units with {shown} on top"]
    return held


def summary_text(view: SevenView, names: Names) -> str:
    parts = []
    for p in view["people"]:
        made = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in sorted(p["parts"].items()) if v)
        parts.append(f"{seat(names, p['seat'])} {p['glory']}" + (f" ({made})" if made else ""))
    out = f"Final scores (glory): {join_words(parts)}. {result(view, names)}"
    removed = view.get("removed") or []
    if removed:  # option 2's discards, hidden until the game's end (L1168); a long list is cut short
        shown = [f"{c} ({load_deck().cards[c].empire.name})" for c in removed[:SHOWN_REMOVED]]
        more = len(removed) - len(shown)
        out += (f" Cards put out of the game before it began: {', '.join(shown)}"
                + (f" and {more} more." if more else "."))
    return out


SHOWN_REMOVED = 12
"""At most this many of option 2's discarded cards are named in the final summary (a message's length)."""
