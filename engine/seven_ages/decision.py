"""A 7 Ages player's current decision, headed and labelled from their view (and the printed cards).

Every legal move gets one :class:`~engine.core.Choice`; a move with a place (a unit to build, a
marker to place on an empire) is grouped by that place, the first step of a two-step pick. Half B's
moves are labelled by their own modules through :func:`register_label`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import Action, Choice, Decision, Names, PlayerId
from engine.seven_ages.actions import (
    Bid,
    Build,
    BuildElite,
    ChooseColour,
    ChooseColours,
    ChooseLeader,
    DiscardCard,
    Done,
    DraftMarker,
    Fortify,
    FreeFort,
    Pass,
    PlaceCapital,
    PlaceMarker,
    SetupChoice,
    SiftVote,
    StartCard,
    TurnMarker,
    Unmaintain,
)
from engine.seven_ages.card_words import card_parts, card_text, start_label
from engine.seven_ages.setup import FROM_DECK
from engine.seven_ages.state import BID, COLOURS, DRAFT, EXTRA, MARKERS, REDEEM, SIFT, SIFT_VOTE, TRIM
from engine.seven_ages.text import empire_name, seat, stage, unit_count
from engine.seven_ages.view import GoView, PendingView, SevenView, action_name
from engine.words import shorten

Label = Callable[[SevenView, Any], Choice]
_LABELS: dict[str, Label] = {}


def register_label(kind: str, label: Label) -> None:
    """Label an action kind another module owns (trade, destiny, civilise, end of turn...)."""
    _LABELS[kind] = label


NamedLabel = Callable[[SevenView, Any, Names], Choice]
_NAMED: dict[str, NamedLabel] = {}


def register_named_label(kind: str, label: NamedLabel) -> None:
    """Label an action kind that names a player (a nominated defender): players are named, never numbered."""
    _NAMED[kind] = label


def _go(view: SevenView, player: PlayerId) -> GoView | None:
    return next((g for g in view["goes"] if g["seat"] == player), None)


_HEADINGS: dict[str, str] = {}
_GO_HEADINGS: dict[str, Callable[[GoView], str]] = {}


def register_heading(stage: str, words: str) -> None:
    """Word a go's stage or a pending decision another module owns (trade, civilise, end of turn...)."""
    _HEADINGS[stage] = words


def plain_heading(view: SevenView, kind: str) -> str:
    """The heading a pending decision of ``kind`` reads by its registered words (:func:`register_heading`)."""
    return f"{stage(view)}: {_HEADINGS.get(kind, 'choose')}"


def register_go_heading(stage: str, words: Callable[[GoView], str]) -> None:
    """Word a go's stage from the go as its owner sees it (a manoeuvre's moving units and points left)."""
    _GO_HEADINGS[stage] = words


PendingHeading = Callable[[SevenView, PendingView, str], str]
_PENDING_HEADINGS: dict[str, PendingHeading] = {}


def register_pending_heading(kind: str, words: PendingHeading) -> None:
    """Word a pending decision from what it shows its seat (``view.pending``'s ``ask``) and the seat's name
    ("alice (Red): choose 3 more losses in Muscovy")."""
    _PENDING_HEADINGS[kind] = words


def heading(view: SevenView, player: PlayerId, names: Names | None = None) -> str:
    phase = view["phase"]
    if phase == BID:
        return "Who goes first: play a card face down (the highest value goes first)"
    if phase == COLOURS:
        return "Choose your dedicated empire colours"
    if phase == SIFT:
        return "Not the full deck: put one of these cards out of the game (the rest pass to your left)"
    if phase == SIFT_VOTE:
        return ("Not the full deck: are you happy to play with the cards left, or do you want another round? "
                "(more than half happy ends it)")
    if phase == REDEEM:
        return "Redemption: discard any cards, then draw back up"
    if phase == TRIM:
        return "Discard down to 6 cards"
    if phase == DRAFT:
        return f"Turn {view['turn']}: take one of the spare action markers passed to you"
    if phase == MARKERS:
        return f"Turn {view['turn']}: place an action marker face down on each of your empires"
    pending = next((p for p in view["pending"] if p["seat"] == player), None)
    if pending is not None and pending["kind"] in _PENDING_HEADINGS and "ask" in pending:
        return _PENDING_HEADINGS[pending["kind"]](view, pending, seat(names or (), player))
    if pending is not None and pending["kind"] in _HEADINGS:
        return f"{stage(view)}: {_HEADINGS[pending['kind']]}"
    go = _go(view, player)
    if go is None:
        return f"{stage(view)}: turn over a marker for this action, or pass"
    e = next((x for x in view["empires"] if x["card"] == go["data"].get("card", go["empire"])), None)
    what = f" for the {e['name']} ({e['money']} money)" if e else ""
    stage_words = {"card": "choose the card to start", "setup": "choose where the progress marker starts",
                   "colour": "choose the empire's colour", "leader": "choose a named leader",
                   "build": "build units (or finish)", "capital": "place the capital",
                   "homeland": "name the homeland", "forts": "fortify start areas (or finish)",
                   "free_forts": "place a free fort", "maintain": "choose a unit left unmaintained"}
    if go["stage"] in _GO_HEADINGS:
        return f"{stage(view)}{what}: {_GO_HEADINGS[go['stage']](go)}"
    return f"{stage(view)}{what}: {stage_words.get(go['stage'], _HEADINGS.get(go['stage'], 'choose'))}"


def _done_label(view: SevenView, player: PlayerId) -> str:
    go = _go(view, player)
    phase = view["phase"]
    if phase == MARKERS:
        return "Place no marker in front of me"
    if phase == REDEEM:
        return "Keep the rest and draw back up"
    if go is None:
        return "Finish"
    return {"build": "Finish building", "forts": "Finish fortifying"}.get(go["stage"], "Finish")


OwnLabel = Callable[[SevenView, PlayerId, Any], Choice]
"""The words of one of this module's action classes, from the view, the deciding seat and the move."""


def _bid(view: SevenView, player: PlayerId, action: Bid) -> Choice:
    if action.card == FROM_DECK:
        return Choice(action, "Play the top card of the deck")
    return Choice(action, f"Bid {card_text(action.card)}")


def _discard(view: SevenView, player: PlayerId, action: DiscardCard) -> Choice:
    verb = "Put out of the game" if view["phase"] == SIFT else "Discard"
    return Choice(action, shorten(f"{verb} {card_parts(action.card)}", 100))


def _sift_vote(view: SevenView, player: PlayerId, action: SiftVote) -> Choice:
    return Choice(action, "Happy with these cards" if action.happy else "Another round")


def _colours(view: SevenView, player: PlayerId, action: ChooseColours) -> Choice:
    return Choice(action, f"Take the {action.group} counters")


def _draft(view: SevenView, player: PlayerId, action: DraftMarker) -> Choice:
    return Choice(action, f"Take the spare {action_name(action.marker)} marker")


def _place_marker(view: SevenView, player: PlayerId, action: PlaceMarker) -> Choice:
    where = "In front of me (no empire)" if action.empire == EXTRA else f"On {empire_name(action.empire)}"
    return Choice(action, f"{action_name(action.marker)} {where[0].lower() + where[1:]}", group=where)


def _turn_marker(view: SevenView, player: PlayerId, action: TurnMarker) -> Choice:
    if action.start:  # the turn that starts this empire: the card's words
        return Choice(action, start_label(action.start))
    m = view["markers"][action.marker]
    where = "for no empire" if m["empire"] == EXTRA else f"on {empire_name(m['empire'])}"
    as_what = f" as {action_name(view['phase'])}" if m["action"] == "wild" else ""
    if m["action"] is None:  # never: a seat turns over only its own markers, which its view shows
        raise ValueError(f"marker {action.marker} is face down to its own seat")
    label = f"Turn over the {action_name(m['action'])} marker {where}{as_what}"
    return Choice(action, shorten(label + (", playing no card" if action.no_cards else ""), 100))


def _pass(view: SevenView, player: PlayerId, action: Pass) -> Choice:
    return Choice(action, "Turn over no more markers now",
                  confirm="Any marker of this action you leave face down misses its go. Pass?")


def _done(view: SevenView, player: PlayerId, action: Done) -> Choice:
    return Choice(action, _done_label(view, player))


def _start_card(view: SevenView, player: PlayerId, action: StartCard) -> Choice:
    return Choice(action, start_label(action.card))


def _setup_choice(view: SevenView, player: PlayerId, action: SetupChoice) -> Choice:
    go = _go(view, player)
    level = go["data"].get("choices", {}).get(action.choice) if go is not None else None
    text = "2 behind the most advanced empire" if action.choice == "behind" else action.choice
    return Choice(action, f"Start {text}" + (f" (level {level})" if level else ""))


def _colour(view: SevenView, player: PlayerId, action: ChooseColour) -> Choice:
    return Choice(action, f"In {action.colour}")


def _leader(view: SevenView, player: PlayerId, action: ChooseLeader) -> Choice:
    if not action.name:
        return Choice(action, "No named leader")
    return Choice(action, f"{action.name} in {action.area}", group=action.name)


def _build(view: SevenView, player: PlayerId, action: Build) -> Choice:
    return Choice(action, f"{unit_count(action.unit, action.count)} in {action.area}",
                  group=f"Build in {action.area}")


def _fortify(view: SevenView, player: PlayerId, action: Fortify) -> Choice:
    return Choice(action, f"Fort in {action.area}")


def _capital(view: SevenView, player: PlayerId, action: PlaceCapital) -> Choice:
    go = _go(view, player)
    what = "Homeland" if go is not None and go["stage"] == "homeland" else "Capital"
    return Choice(action, f"{what} in {action.area}")


def _free_fort(view: SevenView, player: PlayerId, action: FreeFort) -> Choice:
    return Choice(action, f"Free fort in {action.area}")


def _unmaintain(view: SevenView, player: PlayerId, action: Unmaintain) -> Choice:
    return Choice(action, f"Leave a {action.unit} in {action.area} unmaintained")


def _elite(view: SevenView, player: PlayerId, action: BuildElite) -> Choice:
    return Choice(action, "Buy an elite marker")


_OWN_LABELS: Mapping[type[Action], OwnLabel] = {
    Bid: _bid, DiscardCard: _discard, SiftVote: _sift_vote, ChooseColours: _colours, DraftMarker: _draft,
    PlaceMarker: _place_marker, TurnMarker: _turn_marker, Pass: _pass, Done: _done, StartCard: _start_card,
    SetupChoice: _setup_choice, ChooseColour: _colour, ChooseLeader: _leader, Build: _build,
    Fortify: _fortify, PlaceCapital: _capital, FreeFort: _free_fort, Unmaintain: _unmaintain,
    BuildElite: _elite,
}
"""The words of this module's moves (the setup's, the markers' and the start of an empire's), by class."""


def choice(view: SevenView, player: PlayerId, action: Action) -> Choice:
    """The choice ``player`` reads for ``action``: another module's registered words, else this module's."""
    if action.kind in _LABELS:
        return _LABELS[action.kind](view, action)
    own = _OWN_LABELS.get(type(action))
    if own is None:
        raise ValueError(f"no label for {action.kind}")
    return own(view, player, action)


def decide(view: SevenView, player: PlayerId, legal: Sequence[Action], names: Names) -> Decision:
    choices = [_NAMED[a.kind](view, a, names) if a.kind in _NAMED else choice(view, player, a) for a in legal]
    if legal and isinstance(legal[0], ChooseColours) and view["phase"] != COLOURS:
        # a newcomer's first decision, asked whatever the step (L337)
        return Decision(player, "You have joined the game: choose your dedicated empire colours (any free "
                        "group)", tuple(choices))
    seen: dict[str, int] = {}
    for i, c in enumerate(choices):
        # two like markers (option 5's second set) read alike: number the second and later
        seen[c.label] = seen.get(c.label, 0) + 1
        if seen[c.label] > 1:
            choices[i] = replace(c, label=f"{shorten(c.label, 94)} ({seen[c.label]})")
    return Decision(player, heading(view, player, names), tuple(choices))
