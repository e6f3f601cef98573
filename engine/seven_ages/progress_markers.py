"""Option 16's markers on the progress track (L1376-1388, L1986-1999) and the Internet's end (L1694).

- A blue artefact's blue marker goes on the track the first time the artefact is played, 7 levels ahead of
  the empire less the empire's age (L1378; Industrial Revolution on the Sudanese at 31, in age 5, puts it
  at 33, L1382), and is never removed (L1384). :func:`engine.seven_ages.artefact_powers.has` reads it.
- A game that starts after the age in which a blue artefact may first come unconditionally has its marker
  on the first level of the next age from the start (L1386-1388).
- World war puts the black marker on its empire's level (L1986); the United Nations discards it (L1964),
  and so does an empire entering a higher age than the marker's (L1996). When World war is discarded,
  every empire but the one whose new age removed it gains 1 glory per fertile area it controls (L1999).
- The Internet ends the game: its owner draws 1 card (2 with 4 players or fewer) for each player ahead
  of them in glory and gains the cards' values in glory (L1694).

Each hook does nothing unless the game plays option 16.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Names, PlayerId
from engine.seven_ages import steps
from engine.seven_ages.artefact_powers import blue_marker, powers_on
from engine.seven_ages.cards import Artefact, load_deck
from engine.seven_ages.data import load_tables
from engine.seven_ages.map import load_map
from engine.seven_ages.setup import refill
from engine.seven_ages.state import LAST_LEVEL, Empire, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, seat
from engine.words import plural

WORLD_WAR, UNITED_NATIONS, INTERNET = "World war", "United Nations", "Internet"
"""The artefacts whose play moves the black marker or ends the game (L1960-1999, L1690-1695)."""
AGES = 7


def _age(level: int) -> int:
    return load_tables().age_of(max(1, min(level, LAST_LEVEL)))


def blue_level(e: Empire) -> int:
    """Where a blue marker goes when played on ``e``: 7 levels ahead less its age (L1378), on the track."""
    return min(LAST_LEVEL, e.progress + AGES - _age(e.progress))


def _with_blue(state: SevenState, name: str, level: int) -> SevenState:
    return replace(state, progress_markers=(*state.progress_markers, (name, level)))


def opening(ctx: Ctx, first: Empire) -> None:
    """The game's first empire started at ``first.progress``: each blue artefact whose unconditional first
    age is before that age has its marker on the first level of its next age (L1386-1388)."""
    s = ctx.state
    if not powers_on(s):
        return
    age, tables = _age(first.progress), load_tables()
    for art in load_deck().artefacts.values():
        if (art.colour == "blue" and art.expansion is None and art.ages[0] < age
                and blue_marker(s, art.name) is None):
            level = tables.ages[art.ages[0]].first  # ages[n] is age n + 1: the next age's first level
            s = _with_blue(s, art.name, level)
            ctx.state = s
            ctx.emit("blue_marker", artefact=art.name, level=level, empire=0)


def placed(ctx: Ctx, e: Empire, art: Artefact) -> None:
    """After ``art`` is played on ``e``: its blue or black marker, the UN's peace, the Internet's end."""
    s = ctx.state
    if not powers_on(s):
        return
    if art.colour == "blue" and blue_marker(s, art.name) is None:
        level = blue_level(e)
        ctx.state = _with_blue(s, art.name, level)
        ctx.emit("blue_marker", artefact=art.name, level=level, empire=e.card)
    elif art.name == WORLD_WAR:
        ctx.state = replace(s, world_war=e.progress)
        ctx.emit("world_war_marker", level=e.progress, empire=e.card)
    elif art.name == UNITED_NATIONS and s.world_war:
        end_world_war(ctx, ended_by=0)
    elif art.name == INTERNET:
        internet(ctx, e)


def entered_age(ctx: Ctx, e: Empire) -> None:
    """``e`` entered a new age: a higher one than the black marker's discards World war (L1996)."""
    s = ctx.state
    if powers_on(s) and s.world_war and _age(e.progress) > _age(s.world_war):
        end_world_war(ctx, ended_by=e.card)


def _fertile(e: Empire) -> int:
    wmap = load_map()
    return sum(1 for a in e.areas() if wmap.areas[a].land and wmap.areas[a].terrain == "fertile")


def end_world_war(ctx: Ctx, ended_by: int) -> None:
    """World war and its black marker are discarded; every empire but ``ended_by``'s gains 1 glory per
    fertile area it controls (L1999)."""
    s = ctx.state
    s = replace(s, world_war=0, empires=tuple(
        replace(x, artefacts=tuple(a for a in x.artefacts if a != WORLD_WAR)) for x in s.empires))
    for x in s.empires:
        points = _fertile(x) if x.card != ended_by else 0
        if points:
            s = s.with_player(s.people[x.owner].gain("world war", points))
    ctx.state = s
    ctx.emit("world_war_over", empire=ended_by,
             gains={str(x.card): _fertile(x) for x in s.empires if x.card != ended_by and _fertile(x)})


def internet(ctx: Ctx, e: Empire) -> None:
    """The Internet ends history (L1694): cards drawn for each player ahead in glory add their values."""
    s = ctx.state
    own = s.people[e.owner].glory
    ahead = sum(1 for p in s.people if p.glory > own)
    wanted = ahead * (2 if s.players <= 4 else 1)
    refill(ctx, wanted)  # the discards make a new deck when it runs out (L2107)
    s = ctx.state
    drawn = s.deck[:wanted]
    points = sum(load_deck().cards[c].value for c in drawn)
    s = replace(s, deck=s.deck[wanted:], discard=(*s.discard, *drawn))
    ctx.state = s.with_player(s.people[e.owner].gain("internet", points))
    ctx.emit("internet", seat=e.owner, empire=e.card, ahead=ahead, cards=list(drawn), glory=points)
    steps.finish(ctx, "internet", ender=e.card)


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    match event.type:
        case "blue_marker":
            by = f", played on {empire_name(int(d['empire']))}" if d["empire"] else " as the game starts late"
            return f"{d['artefact']}'s blue marker goes on progress level {d['level']}{by} (L1378-1388)."
        case "world_war_marker":
            return (f"The black World war marker goes on progress level {d['level']}, where "
                    f"{empire_name(int(d['empire']))} stand (L1986).")
        case "world_war_over":
            why = (f"{empire_name(int(d['empire']))} entered a higher age" if d["empire"]
                   else "the United Nations ended it")
            gains = [f"{empire_name(int(c))} {n}" for c, n in d["gains"].items()]
            return f"World war is over: {why}; glory for fertile areas: {', '.join(gains) or 'none'} (L1999)."
        case "moon_landing_end":
            return (f"{seat(names, int(d['seat']))} gains {d['glory']} glory: "
                    f"{empire_name(int(d['empire']))} ended the game with Moon landing (L1772).")
        case "internet":
            who: PlayerId = int(d["seat"])
            return (f"The Internet ends history: {seat(names, who)} draws {plural(len(d['cards']), 'card')} "
                    f"for the players ahead and gains {d['glory']} glory (L1694).")
    return None


for _type in ("blue_marker", "world_war_marker", "world_war_over", "internet", "moon_landing_end"):
    register_event(_type, _words)
