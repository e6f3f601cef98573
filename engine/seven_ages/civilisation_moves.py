"""The moves that build a civilisation: Trade and progress, Destiny, Civilise, the end of turn's glory,
and the standing orders (event cards armed ahead, :data:`ANYTIME`).

The moves of a Manoeuvre go are in :mod:`engine.seven_ages.manoeuvre_moves`, those of a conflict in
:mod:`engine.seven_ages.conflict_moves`. Each is one small choice.
:data:`engine.seven_ages.actions.CODEC` decodes every kind of these modules; ``Done`` (end a stage),
``DiscardCard``, ``TurnMarker`` and ``Pass`` are shared and live in :mod:`engine.seven_ages.actions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action
from engine.seven_ages.manoeuvre_moves import TopUnit

FROM_DECK = 0
"""A trade card of 0: the top card of the deck, for a player with no cards (L563)."""


# -- Trade and progress (L551-596) ------------------------------------------------------------------

@dataclass(frozen=True)
class TradeWith(Action):
    """Pick the empire (its card number) to trade with (L557)."""

    kind = "trade_with"
    empire: int = 0


@dataclass(frozen=True)
class TradeCard(Action):
    """Play a card face down for the trade (0: the deck's top card, for an empty hand, L563)."""

    kind = "trade_card"
    card: int = FROM_DECK


@dataclass(frozen=True)
class TradeLevels(Action):
    """The winner advances this many levels: 1, and the extra ones it may take (L571-575)."""

    kind = "trade_levels"
    levels: int = 1


@dataclass(frozen=True)
class TradeKeep(Action):
    """Keep one of the cards a winner's Scientists drew; the others are discarded (L577)."""

    kind = "trade_keep"
    card: int = 0


@dataclass(frozen=True)
class Gift(Action):
    """Give money to the other empire of the trade (0: none), L585."""

    kind = "gift"
    amount: int = 0


# -- Civilise (L855-1008) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayEvent(Action):
    """Play a card as its event on an empire (``target``, a card number) or an area (L859-861)."""

    kind = "play_event"
    card: int = 0
    target: int = 0
    area: str = ""


@dataclass(frozen=True)
class PlayArtefact(Action):
    """Play a card as its artefact on an empire (``target``), its marker in ``area`` if it goes on the
    map (L893-921)."""

    kind = "play_artefact"
    card: int = 0
    target: int = 0
    area: str = ""


@dataclass(frozen=True)
class RemoveLeader(Action):
    """Remove one of the empire's leaders (L934)."""

    kind = "remove_leader"
    name: str = ""
    area: str = ""


@dataclass(frozen=True)
class PromoteLeader(Action):
    """Promote a named leader of this age into ``area`` (L944-948); ``name`` empty: draw an unnamed
    leader from the cup (L950)."""

    kind = "promote_leader"
    name: str = ""
    area: str = ""


@dataclass(frozen=True)
class KeepLeader(Action):
    """Keep the unnamed leader just drawn, in ``area``; ``area`` empty: return it to the cup (L950)."""

    kind = "keep_leader"
    area: str = ""


@dataclass(frozen=True)
class Adopt(Action):
    """Adopt a religion or government of an empire in range (L962-966)."""

    kind = "adopt"
    name: str = ""


@dataclass(frozen=True)
class Renounce(Action):
    """Discard the empire's religion or government ``name``, playing its card (``card``) for no ill
    effect, or without one (0) disordering areas (L970)."""

    kind = "renounce"
    name: str = ""
    card: int = 0


@dataclass(frozen=True)
class Dominant(Action):
    """Make ``name``, one of the empire's two religions, the dominant (leftmost) one (L966)."""

    kind = "dominant"
    name: str = ""


@dataclass(frozen=True)
class Modernise(Action):
    """Turn over every ``unit`` in ``area`` to the counter's other side (L976-982)."""

    kind = "modernise"
    area: str = ""
    unit: str = ""


@dataclass(frozen=True)
class RemoveDisorder(Action):
    """Pay to remove the disorder in ``area`` (L986)."""

    kind = "remove_disorder"
    area: str = ""


@dataclass(frozen=True)
class Urbanise(Action):
    """Build a city of 1 in ``area`` or improve the one there a step (L996-1004)."""

    kind = "urbanise"
    area: str = ""


@dataclass(frozen=True)
class NewHomeland(Action):
    """Declare the capital the empire's new homeland (L1008)."""

    kind = "new_homeland"


@dataclass(frozen=True)
class EventPick(Action):
    """One choice an event asks for, one at a time (an area, a leader, an artefact, a player, a card, a
    unit lost): ``pick`` is the choice's key, ``kind:detail`` (e.g. ``area:Gaul``), as
    :mod:`engine.seven_ages.civ_events` lists them."""

    kind = "event_pick"
    pick: str = ""


@dataclass(frozen=True)
class AssassinCard(Action):
    """An assassination's secret draw (L887): keep the card drawn, or discard it and draw another."""

    kind = "assassin_card"
    keep: bool = True


# -- End of turn (L1022-1148) -----------------------------------------------------------------------

@dataclass(frozen=True)
class BuyGlory(Action):
    """The empire pays 50 money a glory for ``points`` glory (L1056-1058)."""

    kind = "buy_glory"
    empire: int = 0
    points: int = 1


@dataclass(frozen=True)
class RankHigher(Action):
    """Of one's own empires tied in a glory category, ``empire`` ranks higher (L1048)."""

    kind = "rank_higher"
    empire: int = 0


@dataclass(frozen=True)
class Hock(Action):
    """Option 15: the empire gains 5 money a glory for ``points`` of its player's glory (L1356)."""

    kind = "hock"
    empire: int = 0
    points: int = 1


@dataclass(frozen=True)
class Arm(Action):
    """A hidden standing order (:mod:`engine.seven_ages.armed`): when the empire ``empire`` begins its go of
    the action ``card``'s event is timed for, play that event on it, disordering ``areas`` (comma-separated,
    as many as the event disorders), the money it takes going to ``to`` (one of the sender's empires, for an
    event that takes money; 0 otherwise). Any seated player, at any time; only its sender learns of it."""

    kind = "arm"
    card: int = 0
    empire: int = 0
    areas: str = ""
    to: int = 0


@dataclass(frozen=True)
class Disarm(Action):
    """Withdraw one's standing order on ``card`` (the card stays in the hand)."""

    kind = "disarm"
    card: int = 0


ACTIONS: tuple[type[Action], ...] = (
    TradeWith, TradeCard, TradeLevels, TradeKeep, Gift,
    PlayEvent, PlayArtefact, RemoveLeader, PromoteLeader, KeepLeader, Adopt, Renounce, Dominant, Modernise,
    RemoveDisorder, Urbanise, NewHomeland, EventPick, AssassinCard,
    BuyGlory, RankHigher, Hock, Arm, Disarm,
)
ANYTIME: frozenset[str] = frozenset({"prefer", TopUnit.kind, Arm.kind, Disarm.kind})
"""Kinds a seated player may send at any time (the spec's ``anytime_kinds``)."""
