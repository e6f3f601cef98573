"""Goofspiel for two: a small game defined only under ``tests/``, proving that a game is a plugin.

Each player holds the cards 1 to 5. A prize deck of 1 to 5 is shuffled; each
round one prize is turned up and both players bid one of their cards in
secret, at once (both are actors). The higher bid takes the prize's points;
equal bids take nothing. Bids show only when both are in. After five rounds
the most points wins. It exercises a simultaneous step, hidden information
(a bid before the reveal), the seeded dice, a timeout move and every text
hook, through exactly the contract the real games implement.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from engine import rng
from engine.core import (
    Action,
    ActionCodec,
    Choice,
    Decision,
    Event,
    IllegalAction,
    Names,
    PlayerId,
    Result,
    no_joining,
    only_move,
    plain_move,
    shows_hidden,
    tied_places,
)

CARDS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Bid(Action):
    kind = "bid"
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


class ToyView(TypedDict):
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


class ToyGame:
    id = "toy-goofspiel"
    title = "Goofspiel (test game)"
    min_players = 2
    max_players = 2
    codec = CODEC

    def check_data(self) -> list[str]:
        return []

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> ToyState:
        from tests.toy.spec import SPEC

        SPEC.checked_options(players, options)
        state = ToyState(seed=seed, rng_counter=0, seq=0, prizes=list(CARDS),
                         hands=[list(CARDS), list(CARDS)], bids=[None, None], points=[0, 0], won=[[], []])
        rng.shuffle(state, state.prizes)
        return state

    def actors(self, state: ToyState) -> frozenset[PlayerId]:
        if not state.prizes:
            return frozenset()
        return frozenset(p for p in (0, 1) if state.bids[p] is None)

    def legal_actions(self, state: ToyState, player: PlayerId) -> list[Action]:
        if player not in self.actors(state):
            return []
        return [Bid(player, c) for c in state.hands[player]]

    def timeout_action(self, state: ToyState, player: PlayerId) -> Action:
        return Bid(player, min(state.hands[player]))

    def apply(self, state: ToyState, action: Action) -> Result:
        if not isinstance(action, Bid):
            raise IllegalAction("unknown_action", "Goofspiel has only bids.")
        p = action.player
        if p not in self.actors(state):
            raise IllegalAction("not_your_turn", "You have already bid this round, or the game is over.")
        if action.card not in state.hands[p]:
            raise IllegalAction("not_in_hand", f"You do not hold the {action.card}.", card=action.card)
        s = self.from_json(self.to_json(state))
        s.seq += 1
        s.hands[p].remove(action.card)
        s.bids[p] = action.card
        events = [Event("bid_placed", {"player": p}), Event("bid_secret", {"player": p, "card": action.card},
                                                            audience=(p,))]
        if all(b is not None for b in s.bids):
            prize = s.prizes.pop(0)
            a, b = int(s.bids[0] or 0), int(s.bids[1] or 0)
            winner = 0 if a > b else 1 if b > a else None
            if winner is not None:
                s.points[winner] += prize
                s.won[winner].append(prize)
            events.append(Event("round_won", {"prize": prize, "bids": [a, b], "winner": winner}))
            s.bids = [None, None]
            if not s.prizes:
                events.append(Event("game_over", {"scores": list(s.points)}))
        return Result(s, tuple(events))

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

    def is_over(self, state: ToyState) -> bool:
        return not state.prizes

    def scores(self, state: ToyState) -> list[int]:
        return list(state.points)

    def undoable(self, before: ToyState, action: Action, result: Result) -> bool:
        # the engine's generic rule (what BaseGame does), for a game written without BaseGame
        return plain_move(self, before, action, result) and not shows_hidden(self, before, action, result)

    def forced(self, state: ToyState, player: PlayerId) -> Action | None:
        return only_move(self, state, player)

    def up_next(self, state: ToyState) -> PlayerId | None:
        # both bid at once: nobody is next after a lone bidder, the round is then revealed
        return None

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

    def join(self, state: ToyState) -> Result:
        raise no_joining()  # two hands of 1 to 5 and a prize deck for two: nobody can come in

    def ranking(self, state: ToyState) -> list[PlayerId]:
        return sorted((0, 1), key=lambda p: (-state.points[p], p))

    def places(self, state: ToyState) -> list[list[PlayerId]]:
        return tied_places(self.ranking(state), lambda p: self.compared(state, p))

    def compared(self, state: ToyState, seat: PlayerId) -> tuple[int]:
        return (-state.points[seat],)

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

    # -- words ------------------------------------------------------------------------------
    def decision(self, view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        heading = f"Round {view['round']}: bid a card for the prize {view['prize']}"
        return Decision(player, heading, tuple(Choice(a, f"Bid {a.to_json()['card']}") for a in legal))

    def describe_event(self, event: Event, names: Names) -> str | None:
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

    def stage(self, view: Mapping[str, Any]) -> str:
        return "Game over" if view["over"] else f"Round {view['round']} of {len(CARDS)}"

    def status_text(self, view: Mapping[str, Any], names: Names) -> str:
        scores = ", ".join(f"{names[p]} {view['points'][p]}" for p in (0, 1))
        if view["over"]:
            return f"{self.stage(view)}. Scores: {scores}. {self._result(view, names)}"
        waiting = [names[p] for p in (0, 1) if not view["has_bid"][p]]
        return (f"{self.stage(view)}: the prize is {view['prize']}. Waiting for {' and '.join(waiting)} "
                f"to bid. Scores: {scores}.")

    def hand_text(self, view: Mapping[str, Any], player: PlayerId, names: Names) -> str:
        cards = ", ".join(str(c) for c in view["your_hand"] or ()) or "no cards"
        bid = f" You have bid {view['your_bid']} this round." if view["your_bid"] is not None else ""
        return f"You hold {cards}.{bid}"

    def board_text(self, view: Mapping[str, Any], names: Names) -> str:
        won = "; ".join(f"{names[p]} has won {', '.join(map(str, view['won'][p])) or 'nothing'}"
                        for p in (0, 1))
        return f"{view['prizes_left']} prizes left. {won}."

    def place_text(self, view: Mapping[str, Any], place: str, names: Names) -> str | None:
        """Goofspiel is played with cards alone: there is no place to describe."""
        return None

    def summary_text(self, view: Mapping[str, Any], names: Names) -> str:
        scores = f"{names[0]} {view['points'][0]}, {names[1]} {view['points'][1]}"
        return f"Final scores: {scores}. {self._result(view, names)}"

    @staticmethod
    def _result(view: Mapping[str, Any], names: Names) -> str:
        a, b = view["points"]
        return "A draw." if a == b else f"Winner: {names[0] if a > b else names[1]}."


GAME = ToyGame()
