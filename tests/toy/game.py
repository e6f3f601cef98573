"""Goofspiel for two: a small game defined only under ``tests/``, proving that a game is a plugin.

Each player holds the cards 1 to 5. A prize deck of 1 to 5 is shuffled; each
round one prize is turned up and both players bid one of their cards in
secret, at once (both are actors). The higher bid takes the prize's points;
equal bids take nothing. Bids show only when both are in. After five rounds
the most points wins. It exercises a simultaneous step, hidden information
(a bid before the reveal), the seeded dice, a timeout move and every text
hook, through exactly the contract the real games implement.

It is the reference a new game copies (docs/ARCHITECTURE.md, "Adding a game"), written on the
templates of :mod:`engine.core`:

- the rules are :class:`~engine.core.StepGame`'s steps: one :class:`~engine.core.Step` per
  :class:`Phase`, saying who acts, its ``{action class: handler}`` table, the legal moves and the
  timeout move; the template checks whose move it is, refuses a move the step does not take, applies
  a move to a copy (:meth:`ToyGame.begin`) and counts it (:meth:`ToyGame.finish`);
- :class:`~engine.core.BaseGame` (under it) gives the undo rule, forced moves, the ranking and places
  from :meth:`ToyGame.compared`, and refuses newcomers;
- a move's handler works on :class:`~engine.core.Context` (the state being made and the events with
  their audiences), the one context every game's rules use;
- the view is a ``TypedDict`` (:class:`ToyView`), and the words are module functions reading it,
  gathered in a :class:`~engine.core.Words` read through ``SpokenBy[ToyView]``, so mypy checks every key
  they read; the renderer (:mod:`tests.toy.render`) takes the same type;
- its facets (simultaneous steps, hidden information, no undo against the AI) are declared in
  :mod:`tests.toy.spec`, its own invariants in :mod:`tests.toy.invariants`.

Copied into ``engine/`` with its renderer under ``render/`` and its spec module listed in
``engine.registry.BUILTIN``, it is a new game that passes the contract suite
(``tests/contract/test_copied_game.py``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypedDict

from engine import rng
from engine.core import (
    Action,
    ActionCodec,
    Choice,
    Context,
    Decision,
    Ending,
    Event,
    IllegalAction,
    Names,
    PlayerId,
    SpokenBy,
    Step,
    StepGame,
    Words,
)

CARDS = (1, 2, 3, 4, 5)


class Phase(StrEnum):
    """The phases of play; this game works them out from the state (a game that stores its phase
    stores the value, a plain string in its JSON)."""

    BID = "bid"  # both players bid for the prize turned up, at once
    OVER = "over"  # every prize is taken


@dataclass(frozen=True)
class Bid(Action):
    kind: ClassVar[str] = "bid"
    card: int = 0


CODEC = ActionCodec(Bid)


@dataclass
class ToyState:
    seed: int
    rng_counter: int
    seq: int
    prizes: list[int]
    hands: list[list[int]]
    bids: list[int | None]
    points: list[int]
    won: list[list[int]]


ToyCtx = Context[ToyState]
"""One move being applied: the copy of the state the handler changes, and the events so far (the
generic context as it is: the toy's rules need nothing beside the state)."""


class ToyView(TypedDict):
    """What one seat (or a spectator, ``viewer`` None) sees: bids stay hidden until both are in."""

    game: str
    seq: int
    round: int
    prize: int | None
    prizes_left: int
    unrevealed: list[list[int]]
    your_hand: list[int] | None
    has_bid: list[bool]
    your_bid: int | None
    points: list[int]
    won: list[list[int]]
    over: bool
    viewer: int | None


# -- the steps ------------------------------------------------------------------------------------


def _still_to_bid(state: ToyState) -> tuple[PlayerId, ...]:
    """Both players until they have bid: the bid is simultaneous."""
    return tuple(p for p in (0, 1) if state.bids[p] is None)


def _bids(state: ToyState, player: PlayerId) -> list[Action]:
    return [Bid(player, c) for c in state.hands[player]]


def _lowest_card(state: ToyState, player: PlayerId) -> Action:
    return Bid(player, min(state.hands[player]))


def _bid(ctx: ToyCtx, action: Bid) -> None:
    """The rules of a bid: the card leaves the hand face down; once both are in, the prize is taken."""
    s, p = ctx.state, action.player
    if action.card not in s.hands[p]:
        raise IllegalAction("not_in_hand", f"You do not hold the {action.card}.", card=action.card)
    s.hands[p].remove(action.card)
    s.bids[p] = action.card
    ctx.emit("bid_placed", player=p)
    ctx.emit("bid_secret", (p,), player=p, card=action.card)
    if all(b is not None for b in s.bids):
        prize = s.prizes.pop(0)
        a, b = int(s.bids[0] or 0), int(s.bids[1] or 0)
        winner = 0 if a > b else 1 if b > a else None
        if winner is not None:
            s.points[winner] += prize
            s.won[winner].append(prize)
        ctx.emit("round_won", prize=prize, bids=[a, b], winner=winner)
        s.bids = [None, None]
        if not s.prizes:
            ctx.emit("game_over", scores=list(s.points))


STEPS: Mapping[Phase, Step[ToyState, ToyCtx]] = {
    Phase.BID: Step(
        expects="both players' bids for the prize", actors=_still_to_bid, handlers={Bid: _bid}, legal=_bids,
        timeout=_lowest_card,
        not_yours=("not_your_turn", "You have bid this round; the other player is still bidding.")),
    Phase.OVER: Step(expects="nothing: the game is over", not_yours=("game_over", "The game is over.")),
}
"""Goofspiel's steps, by phase."""


# -- the words, from a view ------------------------------------------------------------------------


def decision(view: ToyView, player: PlayerId, legal: Sequence[Action], names: Names) -> Decision:
    heading = f"Round {view['round']}: bid a card for the prize {view['prize']}"
    return Decision(player, heading, tuple(Choice(a, f"Bid {a.to_json()['card']}") for a in legal))


def describe_event(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "bid_placed":
        return f"{names[d['player']]} has bid."
    if event.type == "bid_secret":
        return f"You bid {d['card']}."
    if event.type == "round_won":
        bids = f"{names[0]} bid {d['bids'][0]}, {names[1]} bid {d['bids'][1]}"
        if d["winner"] is None:
            return f"{bids}: a tie, nobody takes the prize {d['prize']}."
        return f"{bids}: {names[d['winner']]} takes the prize {d['prize']}."
    return None  # the end of the game (the platform tells it), or a type the toy does not know


def stage(view: ToyView) -> str:
    return "Game over" if view["over"] else f"Round {view['round']} of {len(CARDS)}"


def _result(view: ToyView, names: Names) -> str:
    a, b = view["points"]
    return "A draw." if a == b else f"Winner: {names[0] if a > b else names[1]}."


def status_text(view: ToyView, names: Names) -> str:
    scores = ", ".join(f"{names[p]} {view['points'][p]}" for p in (0, 1))
    if view["over"]:
        return f"{stage(view)}. Scores: {scores}. {_result(view, names)}"
    waiting = [names[p] for p in (0, 1) if not view["has_bid"][p]]
    return (f"{stage(view)}: the prize is {view['prize']}. Waiting for {' and '.join(waiting)} "
            f"to bid. Scores: {scores}.")


def hand_text(view: ToyView, player: PlayerId, names: Names) -> str:
    cards = ", ".join(str(c) for c in view["your_hand"] or ()) or "no cards"
    bid = f" You have bid {view['your_bid']} this round." if view["your_bid"] is not None else ""
    return f"You hold {cards}.{bid}"


def board_text(view: ToyView, names: Names) -> str:
    won = "; ".join(f"{names[p]} has won {', '.join(map(str, view['won'][p])) or 'nothing'}" for p in (0, 1))
    return f"{view['prizes_left']} prizes left. {won}."


def summary_text(view: ToyView, names: Names) -> str:
    scores = f"{names[0]} {view['points'][0]}, {names[1]} {view['points'][1]}"
    return f"Final scores: {scores}. {_result(view, names)}"


# -- the game ---------------------------------------------------------------------------------------


class ToyGame(SpokenBy[ToyView], StepGame[ToyState, ToyCtx, Phase, ToyView]):
    """Goofspiel: what the templates leave to a game (set-up, its phase, copying and counting a move,
    the view, the scores, what a seat knows alone, persistence)."""

    WORDS = Words(decision=decision, describe_event=describe_event, stage=stage, status_text=status_text,
                  hand_text=hand_text, board_text=board_text, summary_text=summary_text)

    id = "toy-goofspiel"
    title = "Goofspiel (test game)"
    min_players = 2
    max_players = 2
    codec = CODEC

    def __init__(self, steps: Mapping[Phase, Step[ToyState, ToyCtx]] = STEPS) -> None:
        super().__init__(steps, over=Phase.OVER)

    def check_data(self) -> list[str]:
        return []

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> ToyState:
        from tests.toy.spec import SPEC

        SPEC.checked_options(players, options)
        state = ToyState(seed=seed, rng_counter=0, seq=0, prizes=list(CARDS),
                         hands=[list(CARDS), list(CARDS)], bids=[None, None], points=[0, 0], won=[[], []])
        rng.shuffle(state, state.prizes)
        return state

    def step(self, state: ToyState) -> Phase:
        return Phase.BID if state.prizes else Phase.OVER

    def begin(self, state: ToyState) -> ToyCtx:
        return ToyCtx(self.from_json(self.to_json(state)))

    def finish(self, ctx: ToyCtx) -> ToyState:
        ctx.state.seq += 1
        return ctx.state

    def view(self, state: ToyState, viewer: PlayerId | None) -> ToyView:
        # A bid in is hidden until both are in: what others see of a hand is the cards not yet shown.
        unrevealed = [sorted(h + ([b] if b is not None else [])) for h, b in zip(state.hands, state.bids,
                                                                                  strict=True)]
        return ToyView(game=self.id, seq=state.seq, round=len(CARDS) - len(state.prizes) + 1,
                       prize=state.prizes[0] if state.prizes else None, prizes_left=len(state.prizes),
                       unrevealed=unrevealed,
                       your_hand=list(state.hands[viewer]) if viewer is not None else None,
                       has_bid=[b is not None for b in state.bids],
                       your_bid=state.bids[viewer] if viewer is not None else None,
                       points=list(state.points), won=[list(w) for w in state.won], over=not state.prizes,
                       viewer=viewer)

    def scores(self, state: ToyState) -> list[int]:
        return list(state.points)

    def compared(self, state: ToyState, seat: PlayerId) -> tuple[int]:
        return (-state.points[seat],)

    def ending(self, state: ToyState) -> tuple[Ending, str]:
        # the toy has one end: every prize taken (or left by equal bids)
        return Ending.LAST_ROUND, f"The game ends: all {len(CARDS)} prizes have been bid for."

    def private_variants(self, state: ToyState, seat: PlayerId) -> list[ToyState]:
        """A bid in is known to its bidder alone: the others see only the cards not yet shown (hand
        and bid together), so any of those could be the bid. The lowest and the highest other one."""
        bid = state.bids[seat] if 0 <= seat < len(state.bids) else None
        if bid is None:
            return []  # without a bid in, a whole hand is on show (its cards not yet shown)
        out = []
        for card in sorted({min(state.hands[seat]), max(state.hands[seat])} if state.hands[seat] else ()):
            variant = self.from_json(self.to_json(state))
            variant.hands[seat] = sorted([c for c in state.hands[seat] if c != card] + [bid])
            variant.bids[seat] = card
            out.append(variant)
        return out

    def place_text(self, view: ToyView, place: str, names: Names) -> str | None:
        """Goofspiel is played with cards alone: there is no place to describe."""
        return None

    def to_json(self, state: ToyState) -> dict[str, Any]:
        return {"seed": state.seed, "rng_counter": state.rng_counter, "seq": state.seq,
                "prizes": list(state.prizes), "hands": [list(h) for h in state.hands],
                "bids": list(state.bids), "points": list(state.points), "won": [list(w) for w in state.won]}

    def dumps(self, state: ToyState) -> str:
        return json.dumps(self.to_json(state), separators=(",", ":"))

    def from_json(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(seed=int(data["seed"]), rng_counter=int(data["rng_counter"]), seq=int(data["seq"]),
                        prizes=list(data["prizes"]), hands=[list(h) for h in data["hands"]],
                        bids=list(data["bids"]), points=list(data["points"]),
                        won=[list(w) for w in data["won"]])


GAME = ToyGame()
