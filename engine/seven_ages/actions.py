"""The moves of 7 Ages (setup, markers, Start empire, Production, Discard) and the codec of every move.

Every action is one small choice, so a decision never lists more than a few dozen moves: a Start
empire is a card, then a colour, a leader, units one at a time, a capital, forts, each its own move
ending with :class:`Done`. Trade and progress, Destiny, Civilise and the end of turn add their
own kinds in :mod:`engine.seven_ages.civilisation_moves`, a Manoeuvre go in
:mod:`engine.seven_ages.manoeuvre_moves` and a conflict in :mod:`engine.seven_ages.conflict_moves`;
:data:`CODEC` decodes them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action, ActionCodec
from engine.seven_ages import civilisation_moves, conflict_moves, manoeuvre_moves
from engine.seven_ages.state import EXTRA


@dataclass(frozen=True)
class Bid(Action):
    """Play a card from the hand face down to bid for the first player (L317-321)."""

    kind = "bid"
    card: int = 0


@dataclass(frozen=True)
class DiscardCard(Action):
    """Discard a card from the hand (options 3 and 4 while preparing to play)."""

    kind = "discard_card"
    card: int = 0


HAPPY, AGAIN = "happy", "again"
"""Option 2's two votes: happy to play with the cards left, or another round of sifting (L1166)."""


@dataclass(frozen=True)
class SiftVote(Action):
    """Option 2: vote :data:`HAPPY` with the cards left, or :data:`AGAIN` for another round (L1166)."""

    kind = "sift_vote"
    vote: str = HAPPY

    @property
    def happy(self) -> bool:
        return self.vote == HAPPY


@dataclass(frozen=True)
class ChooseColours(Action):
    """Take a colour group's empire counters as one's dedicated colours (L325-327)."""

    kind = "choose_colours"
    group: str = ""


@dataclass(frozen=True)
class PlaceMarker(Action):
    """Put an action marker face down on one of one's empires, or (``empire`` = 0) in front of oneself."""

    kind = "place_marker"
    empire: int = EXTRA
    marker: str = ""


@dataclass(frozen=True)
class DraftMarker(Action):
    """Option 5: take one of the spare action markers passed face down (L1186)."""

    kind = "draft_marker"
    marker: str = ""


@dataclass(frozen=True)
class TurnMarker(Action):
    """Turn over one's marker ``marker`` (its index this turn) at the current action; a wild card
    converts into the current action (L353). With ``no_cards`` (Civilise only), the go begins past its
    cards stage: the seat plays no event or artefact card in it, answered with the turn; with ``start``
    (Start empire only), the empire card it starts, played with the turn instead of at the card stage
    (:meth:`engine.seven_ages.markers.GoRules.turns`)."""

    kind = "turn_marker"
    marker: int = 0
    no_cards: bool = False
    start: int = 0


@dataclass(frozen=True)
class Pass(Action):
    """Turn over no more markers at this action: the empires under them miss their go (L377)."""

    kind = "pass"


@dataclass(frozen=True)
class Done(Action):
    """End the current part of a go (no more units to build, no more forts, ...)."""

    kind = "done"


@dataclass(frozen=True)
class StartCard(Action):
    """Play a card from the hand to start its empire (L381)."""

    kind = "start_card"
    card: int = 0


@dataclass(frozen=True)
class SetupChoice(Action):
    """Choose between the features of a starting empire (L385), e.g. the Byzantines' progress."""

    kind = "setup_choice"
    choice: str = ""


@dataclass(frozen=True)
class ChooseColour(Action):
    """The counter mix that represents the empire being started (L399)."""

    kind = "choose_colour"
    colour: str = ""


@dataclass(frozen=True)
class ChooseLeader(Action):
    """Set up one named leader of the starting age (``name`` empty: none) in ``area`` (L429)."""

    kind = "choose_leader"
    name: str = ""
    area: str = ""


@dataclass(frozen=True)
class Build(Action):
    """Build ``count`` units of one type in ``area`` and pay for them, as one move (L505-513)."""

    kind = "build"
    unit: str = ""
    area: str = ""
    count: int = 1


@dataclass(frozen=True)
class Fortify(Action):
    """Build a fort in ``area`` (5 money, 4 with a Builder there: L517)."""

    kind = "fortify"
    area: str = ""


@dataclass(frozen=True)
class PlaceCapital(Action):
    """Set up the capital (or, for an empire without one, name the homeland) in ``area`` (L449-457)."""

    kind = "place_capital"
    area: str = ""


@dataclass(frozen=True)
class FreeFort(Action):
    """Set up a free fort from the card's Special in a start area without one (L465)."""

    kind = "free_fort"
    area: str = ""


@dataclass(frozen=True)
class Unmaintain(Action):
    """Leave one ``unit`` in ``area`` unmaintained when the empire cannot pay for all (L501)."""

    kind = "unmaintain"
    unit: str = ""
    area: str = ""


@dataclass(frozen=True)
class BuildElite(Action):
    """Buy the production's one elite marker (L519)."""

    kind = "build_elite"


@dataclass(frozen=True)
class Prefer(Action):
    """Set one's standing preference ``key`` to ``value`` (:mod:`engine.seven_ages.prefs`): any seated
    player, at any time; it never changes whose move it is."""

    kind = "prefer"
    key: str = ""
    value: str = ""


OURS: tuple[type[Action], ...] = (
    Bid, DiscardCard, SiftVote, ChooseColours, DraftMarker, PlaceMarker, TurnMarker, Pass, Done, StartCard,
    SetupChoice, ChooseColour, ChooseLeader, Build, Fortify, PlaceCapital, FreeFort, Unmaintain, BuildElite,
    Prefer,
)

CODEC = ActionCodec(*OURS, *civilisation_moves.ACTIONS, *manoeuvre_moves.ACTIONS, *conflict_moves.ACTIONS)
"""Every move of the game: these and those of :mod:`engine.seven_ages.civilisation_moves` and
:mod:`engine.seven_ages.manoeuvre_moves` and :mod:`engine.seven_ages.conflict_moves`."""
