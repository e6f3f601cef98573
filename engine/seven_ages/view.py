"""What one player (or a spectator) may see of a 7 Ages game: :class:`SevenView`, JSON-native.

Hidden from everyone but their owner: a hand (others see its size), a face-down bid, which action
a face-down marker is (others see that a marker lies there), the working data of a go. Hidden from
all: the order of the deck and of the leader cup (their sizes only), the discard pile's cards
(cards discarded face down while preparing to play go there too; its size only), option 2's sifting
votes until all are in, and the cards it put out of the game (their number; which, once it is over).

Fog of war (L789-791, :mod:`engine.seven_ages.fog`): an empire's ``units`` are its owner's alone (None in
every other view, a spectator's too, to the game's end); everyone sees its ``stacks``, each area's top
unit and how many units stand there. Its leaders, and the cities, forts and artefacts, are public.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, get_args

from engine.core import PlayerId
from engine.seven_ages import prefs
from engine.seven_ages.cards import load_deck
from engine.seven_ages.fog import faces
from engine.seven_ages.production import age_of
from engine.seven_ages.state import DRAFT, OVER, Empire, Pending, SevenState
from engine.seven_ages.steps import actors, places, ranking

PUBLIC_GO_DATA = ("card", "progress", "areas", "placed", "free")
"""Go data every player may see (the card is played face up, L381); the rest is its owner's."""


Phase = Literal["sift", "sift_vote", "redeem", "bid", "colours", "trim", "draft", "markers", "start",
                "production", "trade", "manoeuvre", "destiny", "civilise", "discard", "end_turn", "over"]
"""A phase of play as a view holds it: the state's phases (:data:`engine.seven_ages.state.PHASES`), so mypy
checks every phase a reader compares the view's against."""

_PHASES: frozenset[str] = frozenset(get_args(Phase))


def phase_of(text: str) -> Phase:
    """``text``, a state's phase or a view's that went through JSON (a plain ``str``), as a :data:`Phase`:
    the one door where a phase becomes typed. ValueError for a word that is no phase."""
    if text not in _PHASES:
        raise ValueError(f"{text!r} is not a 7 Ages phase")
    return text  # type: ignore[return-value]  # checked against Phase's members just above


Piece = list[str | int]
"""A stack as a view lists it: ``[area, unit, count]`` (its owner's every unit type, or what everyone sees:
the top unit and how many units stand there)."""
BeliefMarker = list[str | int]
"""A double-sided belief marker: ``[religion or government, marker number, the side on its back]``."""


class PersonView(TypedDict):
    seat: int
    glory: int
    parts: dict[str, int]
    group: str | None
    hand_size: int
    has_bid: bool
    has_voted: bool  # option 2: voted this round (how, only once every vote is in)
    bids: list[int]
    placed: bool
    prefs: dict[str, str]  # the public standing preferences (engine.seven_ages.prefs): events


class LeaderView(TypedDict):
    name: str
    abilities: list[str]
    area: str
    named: bool  # a card's named leader; else an unnamed one from the cup


class EmpireView(TypedDict):
    card: int
    name: str
    owner: int
    colour: str
    progress: int
    age: int
    money: int
    units: list[Piece] | None  # None: hidden from this viewer (fog of war)
    stacks: list[Piece]  # what every player sees of each stack: its top unit and how many
    elite: int
    leaders: list[LeaderView]
    artefacts: list[str]
    religions: list[str]
    government: str | None
    capital: str | None
    homeland: str | None
    flags: list[str]
    belief_markers: list[BeliefMarker]


class AreaView(TypedDict):
    """What an area holds besides units (only areas with something on them are listed)."""

    name: str
    city: int  # its value; 0: no city
    fort: bool
    disorder: bool
    artefacts: list[str]


class MarkerView(TypedDict):
    index: int
    owner: int
    empire: int
    action: str | None  # None: face down and not the viewer's
    turned: str | None


class GoView(TypedDict):
    seat: int
    empire: int
    action: str
    stage: str  # the go's own sub-stage, named by the module of its action
    data: dict[str, Any]  # its working data (PUBLIC_GO_DATA, and the rest to its owner), per action


class PendingView(TypedDict):
    kind: str
    seat: int
    empire: int
    ask: NotRequired[dict[str, Any]]  # what the decision shows its own seat (per kind), never others


class OrderView(TypedDict):
    """One of the viewer's armed standing orders (:mod:`engine.seven_ages.armed`)."""

    card: int
    empire: int
    areas: list[str]
    to: int  # the empire that receives the money a card takes; 0 for none


class YouView(TypedDict):
    prefs: dict[str, str]  # every standing preference (engine.seven_ages.prefs), defaults included
    armed: list[OrderView]  # the viewer's standing orders (engine.seven_ages.armed): theirs alone


class SevenView(TypedDict):
    game: str
    seq: int
    viewer: int | None
    players: int
    options: dict[str, Any]
    turn: int
    phase: Phase
    first: int
    actors: list[int]
    queue: list[int]
    people: list[PersonView]
    your_hand: list[int] | None
    your_bid: int | None
    your_drafted: list[str] | None
    you: YouView | None  # the viewer's own settings (None for a spectator)
    spare_offered: list[str] | None  # option 5: the spare markers passed to the viewer, while they pick
    empires: list[EmpireView]
    areas: list[AreaView]
    markers: list[MarkerView]
    goes: list[GoView]
    pending: list[PendingView]
    deck_size: int
    discard_size: int
    removed_size: int  # option 2: cards out of the game
    removed: list[int] | None  # and which, once the game is over (L1168: hidden until the game's end)
    cup_size: int
    over: bool
    final: list[int] | None
    ranking: list[int] | None
    places: list[list[int]] | None  # the seats by place, a tie that survives the tie-breaks shared
    progress_markers: list[list[Any]]  # option 16: [blue artefact, level] on the progress track (L1376-1388)
    world_war: int  # option 16: the black World war marker's level (0: not on the track, L1986)


def _you(state: SevenState, viewer: PlayerId) -> YouView:
    """The viewer's own settings: preferences and armed orders (no other view holds either)."""
    return YouView(prefs=prefs.of_player(state, viewer),
                   armed=[OrderView(card=c, empire=e, areas=[a for a in areas.split(",") if a], to=to)
                          for c, e, areas, to in state.people[viewer].armed])


def _pending(p: Pending, own: bool) -> PendingView:
    """A pending decision as a viewer sees it: what it shows its seat (losses still owed, areas to go to)
    to that seat alone (``own``), never to the others."""
    shown = PendingView(kind=p.kind, seat=p.seat, empire=p.empire)
    if own and "ask" in p.data:
        shown["ask"] = p.data["ask"]
    return shown


def empire_view(state: SevenState, e: Empire, viewer: PlayerId | None) -> EmpireView:
    """``e`` as ``viewer`` sees it: its units listed for its owner only (fog of war, L791)."""
    return EmpireView(
        card=e.card, name=load_deck().cards[e.card].empire.name, owner=e.owner, colour=e.colour,
        progress=e.progress, age=age_of(e.progress), money=e.money,
        units=[[s.area, s.unit, s.count] for s in e.units] if viewer == e.owner else None,
        stacks=faces(state, e), elite=e.elite,
        leaders=[LeaderView(name=ld.name, abilities=list(ld.abilities), area=ld.area, named=ld.named)
                 for ld in e.leaders],
        artefacts=list(e.artefacts), religions=list(e.religions), government=e.government,
        capital=e.capital, homeland=e.homeland, flags=list(e.flags),
        belief_markers=[[b, m, load_deck().back(m, b)] for b, m in e.belief_markers])


def build_view(state: SevenState, viewer: PlayerId | None, game_id: str) -> SevenView:
    mine = viewer is not None and 0 <= viewer < state.players
    over = state.phase == OVER
    markers = [MarkerView(index=i, owner=m.owner, empire=m.empire,
                          action=m.action if (m.turned is not None or (mine and m.owner == viewer)) else None,
                          turned=m.turned)
               for i, m in enumerate(state.markers)]
    goes = [GoView(seat=g.seat, empire=g.empire, action=g.action, stage=g.stage,
                   data={k: v for k, v in g.data.items()
                         if (mine and g.seat == viewer) or k in PUBLIC_GO_DATA})
            for g in state.goes]
    return SevenView(
        game=game_id, seq=state.seq, viewer=viewer, players=state.players, options=dict(state.options),
        turn=state.turn, phase=phase_of(state.phase), first=state.first, actors=sorted(actors(state)),
        queue=list(state.queue),
        people=[PersonView(seat=p.seat, glory=p.glory, parts=dict(p.parts), group=p.group,
                           hand_size=len(p.hand), has_bid=p.bid is not None,
                           has_voted=p.happy is not None, bids=list(p.bids),
                           placed=p.placed, prefs=prefs.of_player(state, p.seat, public_only=True))
                for p in state.people],
        your_hand=list(state.people[viewer].hand) if mine and viewer is not None else None,
        your_bid=state.people[viewer].bid if mine and viewer is not None else None,
        your_drafted=list(state.people[viewer].drafted) if mine and viewer is not None else None,
        you=_you(state, viewer) if mine and viewer is not None else None,
        spare_offered=sorted(state.spare) if mine and state.phase == DRAFT and state.queue[:1] == (viewer,)
        else None,
        empires=[empire_view(state, e, viewer if mine else None) for e in state.empires],
        areas=[AreaView(name=a.name, city=a.city, fort=a.fort, disorder=a.disorder,
                        artefacts=list(a.artefacts)) for a in state.areas],
        markers=markers, goes=goes,
        pending=[_pending(p, mine and p.seat == viewer) for p in state.pending],
        deck_size=len(state.deck), discard_size=len(state.discard), cup_size=len(state.cup),
        removed_size=len(state.removed), removed=sorted(state.removed) if over else None,
        over=over, final=list(state.final) if state.final is not None else None,
        ranking=ranking(state) if over else None,
        places=places(state) if over else None,
        progress_markers=[[name, level] for name, level in state.progress_markers], world_war=state.world_war,
    )


def action_name(action: str) -> str:
    """An action as the rulebook names it ("Trade and progress")."""
    return {"start": "Start empire", "production": "Production", "trade": "Trade and progress",
            "manoeuvre": "Manoeuvre", "destiny": "Destiny", "civilise": "Civilise",
            "discard": "Discard empire", "wild": "Wild card"}[action]
