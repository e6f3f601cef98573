"""More players entering a game under way (L337).

"If any colours are still available, more players can enter the game after it has started. Simply
deal them 7 cards, place their glory marker on the same space as the player coming last and give
any free colour's empire counters to the new player. Continue play."

- :func:`join`: the newcomer takes the seat after the last (clockwise, between the last seat and the
  first), is dealt 7 cards from the deck (:func:`engine.seven_ages.setup.draw`: fewer if the deck has
  run out) and gets the glory of the player coming last. From then on the maximum number of empires
  (L345) counts one more player.
- Their colours are their first decision, asked at once whatever the step (:func:`colour_choices`):
  any free colour group, like the colours chosen at the start (L325-327); the skip move takes the
  first free group in the data's order.
- They take part in every step that begins after they join: the next placement of action markers
  (their first, on no empire, can only start an empire, L343-349), the actions of that turn, and so
  on. Steps already under way (markers being placed by everyone at once, an action being carried
  out) go on without them. Where we read the rulebook so is written in data/seven_ages/README.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, IllegalAction, Names, PlayerId, Result
from engine.seven_ages import text
from engine.seven_ages.actions import ChooseColours
from engine.seven_ages.answers import Answers
from engine.seven_ages.setup import HAND, draw, free_groups
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import OVER, Player, SevenState, marker_sets
from engine.seven_ages.steps import Ctx

LATECOMER = "latecomer"
"""The glory part of a newcomer's starting glory (the summary lists what glory is made of)."""


def refusal(state: SevenState) -> IllegalAction | None:
    """Why nobody can join ``state`` now (None when a newcomer may)."""
    if state.phase == OVER:
        return IllegalAction("game_over", "The game is over: nobody can join it any more.")
    if state.turn == 0:
        # "after it has started": the deal, the bid and the colours are for the players at the table
        return IllegalAction("preparing", "The game is still being prepared: a new player can join once "
                             "the first turn begins.")
    if len(free_groups(state)) <= len(state.choosing_colours()):
        return IllegalAction("no_free_colour", "No colour is free: every colour group is a player's "
                             "dedicated colours, so nobody can join.")
    if state.players >= SPEC.max_players:
        return IllegalAction("table_full", f"{SPEC.title} takes at most {SPEC.max_players} players; this "
                             "game has them all.", players=state.players)
    return None


def join(state: SevenState) -> Result:
    """A newcomer takes the next seat: 7 cards, the glory of the player coming last (L337)."""
    problem = refusal(state)
    if problem is not None:
        raise problem
    seat = state.players
    lowest = min(p.glory for p in state.people)
    newcomer = Player(seat, marker_set=marker_sets(state.options, seat + 1), joined=state.turn).gain(
        LATECOMER, lowest)
    ctx = Ctx(replace(state, players=seat + 1, people=(*state.people, newcomer)))
    ctx.emit("newcomer_joins", seat=seat, glory=newcomer.glory, turn=state.turn)
    draw(ctx, seat, HAND)
    return Result(replace(ctx.state, seq=ctx.state.seq + 1), tuple(ctx.events))


def colour_choices(state: SevenState, seat: PlayerId) -> list[Action]:
    """A newcomer's colours: any free group (L337)."""
    return [ChooseColours(seat, g) for g in free_groups(state)]


def choose_colours(state: SevenState, action: Action) -> Result:
    """A newcomer takes a free colour group as their dedicated colours; anything else waits for it."""
    return NEWCOMER.of(action)(state, action)


def _take_colours(state: SevenState, action: ChooseColours) -> Result:
    if action.group not in free_groups(state):
        raise IllegalAction("colours_taken", "Those colours are not free; choose another group.")
    ctx = Ctx(state.with_player(replace(state.people[action.player], group=action.group)))
    ctx.emit("colours_chosen", seat=action.player, group=action.group)
    return Result(replace(ctx.state, seq=ctx.state.seq + 1), tuple(ctx.events))


NEWCOMER: Answers[Callable[[SevenState, Any], Result]] = Answers(
    {ChooseColours: _take_colours}, "choose_colours_first",
    "You have just joined: choose your dedicated colours first.")
"""A newcomer's one move before any other (L337): its colours."""


def _joins(event: Event, names: Names) -> str:
    d = event.data
    return (f"{text.seat(names, int(d['seat']))} joins the game with {d['glory']} glory (level with the "
            "player coming last); they choose their colours next and take part from the next placement of "
            "action markers.")


text.register_event("newcomer_joins", _joins)
