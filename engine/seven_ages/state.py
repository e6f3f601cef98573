"""The state of a 7 Ages game: frozen dataclasses, JSON-native through :func:`to_json` / :func:`from_json`.

Entities (NOTES 4.1):

- :class:`Player` - a seat: glory (with its parts), hand, dedicated colour group, the marker set it
  owns, its first-player bids.
- :class:`Empire` - an empire in play, keyed by its card number: owner, counter mix (colour),
  progress level, money, units on the map (:class:`Stack`), elite markers, leaders, artefacts,
  religions (dominant first), government, capital, homeland, flags (``lifted:<code>``: a
  "no ships/cavalry until trade" icon lifted, :mod:`engine.seven_ages.trade_bars`). Its unit pool is
  the counter mix less what is on the map (:func:`pool`).
- :class:`AreaState` - what an area holds apart from units: a city (its value), a fort, disorder,
  artefact markers. Only areas with something on them are kept.
- :class:`Marker` - an action marker placed this turn: owner, which action (or ``wild``), the
  empire it sits on (:data:`EXTRA` for the additional marker in front of its owner), and what it
  was turned over as (None while face down).
- :class:`Go` - an empire's go under way inside an action step (a started Production, a Start
  empire half set up): its stage and working data.
- :class:`Pending` - a sub-decision asked of a seat that is not the one whose go it is (a trade
  partner's card, later a defender's commitment).

Nothing here is ever changed in place: rules build new values with :func:`dataclasses.replace`
(or the ``with_*`` helpers). Dict-valued fields (``options``, ``Go.data``, ``Pending.data``) hold
JSON only and are replaced whole, never mutated, so states may share them safely.

The step machine (who acts, and how a turn runs) is described in :mod:`engine.seven_ages.steps`.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Final, TypeVar

from engine.core import JSON

START: Final = "start"
PRODUCTION: Final = "production"
TRADE: Final = "trade"
MANOEUVRE: Final = "manoeuvre"
DESTINY: Final = "destiny"
CIVILISE: Final = "civilise"
DISCARD: Final = "discard"
ACTIONS: tuple[str, ...] = (START, PRODUCTION, TRADE, MANOEUVRE, DESTINY, CIVILISE, DISCARD)
"""The seven actions in the order a turn carries them out (L359-367), each the name of its phase."""
WILD = "wild"
"""The wild card marker: turned over at any action as that action (L351-355)."""
MARKER_SET: tuple[str, ...] = (*ACTIONS, WILD)
"""One set of action markers: one of each action and the wild card (our reading of L341 and L351)."""


def marker_sets(options: Mapping[str, Any], players: int) -> tuple[str, ...]:
    """The action markers each player owns: one set; two each with option 5 and two players (L1192)."""
    return MARKER_SET * (2 if options.get("enhanced_play") and players == 2 else 1)
EXTRA = 0
"""The ``empire`` of the additional marker placed in front of its owner, on no empire (L343).
Card numbers start at 1, so 0 names no card."""

# Phases of a game in order: the preparation once, then each turn from ``draft`` to ``end_turn``.
SIFT: Final = "sift"  # option 2: sub-decks passed round, a card discarded each time (L1162-1170)
SIFT_VOTE: Final = "sift_vote"  # option 2: after each round, are most players happy with the cards left?
REDEEM: Final = "redeem"  # option 3: discard and refill to 6 (L1172-1176)
BID: Final = "bid"  # who goes first (L317-323)
COLOURS: Final = "colours"  # dedicated colours (L325-327)
TRIM: Final = "trim"  # option 4: discard down to 6 (L1182)
DRAFT: Final = "draft"  # option 5: the spare markers passed round (L1186-1190); a turn begins here
MARKERS: Final = "markers"
END_TURN: Final = "end_turn"
OVER: Final = "over"
PHASES: tuple[str, ...] = (SIFT, SIFT_VOTE, REDEEM, BID, COLOURS, TRIM, DRAFT, MARKERS, *ACTIONS, END_TURN,
                           OVER)

MAX_MONEY = 199
"""Money is kept on the glory track: at most 199 at any time (L479)."""
LAST_LEVEL = 49
"""An empire that progresses beyond level 49 ends the game at the end of that turn (L313)."""
PAST_THE_END = LAST_LEVEL + 1
"""The progress level of an empire that has gone beyond the 49th level (it stays there)."""
FINAL_BONUS = 7
"""The glory the player of an empire past level 49 gains at the end of the game (L313-315)."""


@dataclass(frozen=True)
class Stack:
    """``count`` units of one type (its face showing: a modernised Spear reads Rifle) in one area."""

    area: str
    unit: str
    count: int


@dataclass(frozen=True)
class Leader:
    """A leader on the map. ``named``: a card's named leader (unique; never back in the cup)."""

    name: str
    abilities: tuple[str, ...]
    area: str
    named: bool = False


@dataclass(frozen=True)
class Empire:
    card: int
    owner: int
    colour: str
    progress: int
    money: int = 0
    units: tuple[Stack, ...] = ()
    elite: int = 0
    leaders: tuple[Leader, ...] = ()
    artefacts: tuple[str, ...] = ()
    religions: tuple[str, ...] = ()  # the dominant religion first
    government: str | None = None
    capital: str | None = None
    homeland: str | None = None
    started: int = 0  # the turn it started
    passed: int = 0  # 0; or the order (1, 2, ...) in which it went beyond level 49 (tie-break, L311)
    flags: tuple[str, ...] = ()  # sorted words: "lifted:<code>" (an icon lifted, L519), ...
    belief_markers: tuple[tuple[str, int], ...] = ()  # (religion or government, the double-sided
    # marker showing it: an index of Deck.belief_markers), L915-919; see engine.seven_ages.beliefs
    coasts: tuple[tuple[str, str], ...] = ()  # (land area, coast): the coast its ships lie on in a land
    # area of several coasts (L648-650); none listed: built there, they take the coast they leave by
    tops: tuple[tuple[str, str], ...] = ()  # (area, unit): the unit its owner chose to show on top of its
    # stack there (fog of war, L791); kept while the area holds none of it; see engine.seven_ages.fog
    harvests: tuple[int, ...] = ()  # the glory it earned at its last two harvests, the latest last (public,
    # as the harvest is): the players' notes fold an empire earning under 3 two turns running (L2353)

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def flagged(self, flag: str, on: bool = True) -> Empire:
        flags = set(self.flags)
        if on:
            flags.add(flag)
        else:
            flags.discard(flag)
        return replace(self, flags=tuple(sorted(flags)))

    def areas(self) -> tuple[str, ...]:
        """The areas it has units in, in name order (an empire controls the areas it occupies)."""
        return tuple(sorted({s.area for s in self.units}))

    def count(self, area: str | None = None, unit: str | None = None) -> int:
        return sum(s.count for s in self.units
                   if (area is None or s.area == area) and (unit is None or s.unit == unit))

    def add_units(self, area: str, unit: str, n: int) -> Empire:
        """With ``n`` more (or, negative, fewer) ``unit`` in ``area``; ValueError below zero."""
        stacks = {(s.area, s.unit): s.count for s in self.units}
        total = stacks.get((area, unit), 0) + n
        if total < 0:
            raise ValueError(f"no {-n} {unit} in {area}")
        stacks[(area, unit)] = total
        return replace(self, units=tuple(Stack(a, u, c) for (a, u), c in sorted(stacks.items()) if c))

    def leaders_in(self, area: str) -> tuple[Leader, ...]:
        return tuple(ld for ld in self.leaders if ld.area == area)

    def has_leader(self, ability: str, area: str | None = None) -> bool:
        return any(ability in ld.abilities and (area is None or ld.area == area) for ld in self.leaders)


@dataclass(frozen=True)
class AreaState:
    """What an area holds besides units: ``city`` value (0: none), a fort, disorder, artefact markers."""

    name: str
    city: int = 0
    fort: bool = False
    disorder: bool = False
    artefacts: tuple[str, ...] = ()

    @property
    def blank(self) -> bool:
        return not (self.city or self.fort or self.disorder or self.artefacts)


@dataclass(frozen=True)
class Marker:
    """An action marker placed this turn. ``turned``: None while face down; else the action it was
    turned over as (its own, or what a wild card converted into)."""

    owner: int
    action: str
    empire: int = EXTRA
    turned: str | None = None

    @property
    def face_down(self) -> bool:
        return self.turned is None


@dataclass(frozen=True)
class Go:
    """An empire's go under way in an action step: ``marker`` is the index of the marker turned for it
    (-1 for a go no marker started, e.g. a forced discard), ``stage`` the step's own sub-stage."""

    seat: int
    marker: int
    empire: int
    action: str
    stage: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pending:
    """A decision asked of ``seat`` on behalf of another go (``kind`` names it, e.g. a trade card)."""

    kind: str
    seat: int
    empire: int = 0
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Player:
    seat: int
    glory: int = 0
    parts: tuple[tuple[str, int], ...] = ()  # glory by what it came from, for the summary
    hand: tuple[int, ...] = ()
    group: str | None = None  # the dedicated colour group (L325-327)
    marker_set: tuple[str, ...] = MARKER_SET
    bid: int | None = None  # the card played face down in the current bid round
    happy: bool | None = None  # option 2: this round's vote, face down until every player has voted
    bids: tuple[int, ...] = ()  # the bid cards already revealed, in round order
    placed: bool = False  # has finished placing this turn's action markers
    drafted: tuple[str, ...] = ()  # option 5: spare markers taken this turn, played besides the set
    hocked: int = 0  # option 15: glory taken by hocking the crown jewels (L1356-1360)
    prefs: tuple[str, ...] = ()  # standing preferences other than defaults, sorted "key:value" (prefs.py)
    armed: tuple[tuple[int, int, str, int], ...] = ()  # hidden orders (card, empire, areas, to), armed.py
    joined: int = 0  # the turn a newcomer entered the game under way in (L337); 0: seated from the start

    def gain(self, category: str, points: int) -> Player:
        """With ``points`` more glory (never below 0 in total, L1138) put down to ``category``."""
        glory = max(0, self.glory + points)
        parts = dict(self.parts)
        parts[category] = parts.get(category, 0) + (glory - self.glory)
        return replace(self, glory=glory, parts=tuple(sorted(parts.items())))


@dataclass(frozen=True)
class SevenState:
    """A whole game.

    Hidden parts (never in another player's view): each player's ``hand`` (a sub-deck while option 2
    sifts), face-down ``bid`` and ``happy`` vote, the cards ``removed`` by option 2 (until the end),
    face-down markers' ``action``, the order of ``deck`` and of the leader ``cup``.
    """

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int = 0
    seq: int = 0
    turn: int = 0  # 0 during setup; 1, 2, ... from the first marker placement
    first: int = 0  # the seat with the turn marker (the First player, L2151)
    phase: str = BID
    queue: tuple[int, ...] = ()  # seats still to act in this phase, in order
    goes: tuple[Go, ...] = ()  # goes under way (several at once in a step run by every player at once)
    pending: tuple[Pending, ...] = ()
    people: tuple[Player, ...] = ()
    empires: tuple[Empire, ...] = ()  # in play, in the order they started
    areas: tuple[AreaState, ...] = ()  # only areas holding a city, fort, disorder or artefact, by name
    markers: tuple[Marker, ...] = ()  # this turn's placed markers
    spare: tuple[str, ...] = ()  # option 5: the spare markers not drafted (yet) this turn, face down
    deck: tuple[int, ...] = ()  # top first
    discard: tuple[int, ...] = ()  # newest last
    removed: tuple[int, ...] = ()  # option 2: cards out of the game, face down, until its end
    cup: tuple[str, ...] = ()  # unnamed leaders and 'no leader' markers; drawn at random
    passed_count: int = 0  # empires gone beyond level 49 so far
    started_count: int = 0  # empires started so far (the first obeys option 1 and the start age)
    appeared: tuple[str, ...] = ()  # named leaders that have been in the game: never again (L946)
    aside: tuple[tuple[int, int], ...] = ()  # (seat, card): cards face down before a reveal (a trade's
    # cards, a winner's Scientist draws); only that seat may see each
    sealed: tuple[Pending, ...] = ()  # decisions made face down awaiting their reveal (a conflict side's
    # card and commitment, engine.seven_ages.battle): in no view, each known to its seat alone
    notes: tuple[str, ...] = ()  # sorted words a rule sets for this turn and clears at its end
    final: tuple[int, ...] | None = None  # final scores once the game is over
    progress_markers: tuple[tuple[str, int], ...] = ()  # option 16: (blue artefact, level) on the progress
    # track, in the order placed, never removed (L1376-1388); see engine.seven_ages.progress_markers
    world_war: int = 0  # option 16: the level of the black World war marker (0: not on the track, L1986)

    # -- looking up -------------------------------------------------------------------------
    def empire(self, card: int) -> Empire:
        for e in self.empires:
            if e.card == card:
                return e
        raise KeyError(f"no empire of card {card} in play")

    def has_empire(self, card: int) -> bool:
        return any(e.card == card for e in self.empires)

    def empires_of(self, seat: int) -> tuple[Empire, ...]:
        return tuple(e for e in self.empires if e.owner == seat)

    def area(self, name: str) -> AreaState:
        for a in self.areas:
            if a.name == name:
                return a
        return AreaState(name)

    def occupants(self, area: str) -> tuple[Empire, ...]:
        return tuple(e for e in self.empires if any(s.area == area for s in e.units))

    def controller(self, area: str) -> Empire | None:
        """The empire with units in ``area``. Two empires share an area only inside a conflict (the playouts
        check it at the end of every go); then it is the first of them in the order the empires started."""
        found = self.occupants(area)
        return found[0] if found else None

    def most_advanced(self) -> int:
        """The highest progress level of an empire in play (0 with an empty map)."""
        return max((min(e.progress, LAST_LEVEL) for e in self.empires), default=0)

    def choosing_colours(self) -> tuple[int, ...]:
        """Newcomers who have not chosen their dedicated colours yet (L337): they choose at once, whatever
        the step (see :mod:`engine.seven_ages.join`)."""
        return tuple(p.seat for p in self.people if p.joined and p.group is None)

    def go_of(self, seat: int) -> Go | None:
        return next((g for g in self.goes if g.seat == seat), None)

    def seats_from_first(self) -> tuple[int, ...]:
        """Every seat, the First player first, then clockwise (to the left, L373)."""
        return tuple((self.first + i) % self.players for i in range(self.players))

    # -- building a new state ------------------------------------------------------------------
    def with_empire(self, empire: Empire) -> SevenState:
        """With ``empire`` replacing the one of the same card (or added, if new)."""
        if self.has_empire(empire.card):
            return replace(self, empires=tuple(empire if e.card == empire.card else e for e in self.empires))
        return replace(self, empires=(*self.empires, empire))

    def without_empire(self, card: int) -> SevenState:
        return replace(self, empires=tuple(e for e in self.empires if e.card != card))

    def with_area(self, area: AreaState) -> SevenState:
        others = [a for a in self.areas if a.name != area.name]
        if not area.blank:
            others.append(area)
        return replace(self, areas=tuple(sorted(others, key=lambda a: a.name)))

    def with_player(self, player: Player) -> SevenState:
        return replace(self, people=tuple(player if p.seat == player.seat else p for p in self.people))

    def with_go(self, go: Go) -> SevenState:
        """With ``go`` replacing its seat's go (or added)."""
        goes = [g for g in self.goes if g.seat != go.seat]
        return replace(self, goes=(*goes, go))

    def without_go(self, seat: int) -> SevenState:
        return replace(self, goes=tuple(g for g in self.goes if g.seat != seat))

    def noted(self, note: str) -> bool:
        return note in self.notes


# -- JSON -------------------------------------------------------------------------------------

def to_json(value: Any) -> JSON:
    """Any state value as JSON (dataclasses as objects, tuples as lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def dumps(state: SevenState) -> str:
    return json.dumps(to_json(state), separators=(",", ":"))


T = TypeVar("T")


def from_json(data: Mapping[str, JSON], cls: type[T] = SevenState) -> T:  # type: ignore[assignment]
    """The value of type ``cls`` (a state by default) that :func:`to_json` wrote."""
    out: T = _decode(cls, data)
    return out


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(hint: Any, data: Any) -> Any:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        return hint(**{k: _decode(hints[k], v) for k, v in data.items()})
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode(options[0], data)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in data)
        return tuple(_decode(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        return {k: _json_copy(v) for k, v in data.items()}
    return _json_copy(data)


def _json_copy(value: Any) -> Any:
    """A copy of JSON data sharing nothing mutable with ``value``."""
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value
