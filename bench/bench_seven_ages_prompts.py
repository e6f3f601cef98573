"""How often a 7 Ages player is asked something, and how often it is a choice of one: the prompt economy.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_seven_ages_prompts.py [--seeds 1,2,3] [--players 3,5] [--turns 0] [--sources]

Whole games (``--turns 0``: no turn limit) with the greedy player in every seat. A decision of seat 0 is
a prompt when the platform would ask it: its legal moves are not one the game lets the platform play at
once (:meth:`engine.core.Game.forced`). Printed per player count and seed: turns, seat 0's decisions
per turn (all of them: what it was asked before moves were played for it), its prompts per turn now,
the share of its prompts with a single choice, and the moves played for it. With ``--sources``, per
player count: where seat 0's prompts come from (the phase, then its pending decision's kind, its go's
stage, or "before a go"), the most frequent first, and where its single-choice prompts come from, with
the one move offered.

Figures (seeds 1-3, whole games, the default command; prompts a turn and the single-choice share; see
data/seven_ages/README.md, "Moves played at once"): first measure 20.8 (3 players) and 19.8 (5). Integ
at f145b69 (every seat holding a card asked its lone moves): 3 players 13.9 and 17.3%, 5 players 15.4
and 14.6%. After the pass at event windows that can stop the asking, the Civilise turn playing no card
and the empire started with the turn: 3 players 13.7 and 7.7%, 5 players 15.2 and 4.6%. Integ at
03a6d74 (the greedy player's new markers: more empires, longer games): 23.6 and 11.2%, 17.5 and 12.9%;
with the three changes merged in: 23.0 and 4.0%, 17.2 and 3.4%.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game, make_policy, spec
from engine.seven_ages.state import SevenState

GAME = "seven-ages"
TOP = 12
"""How many sources ``--sources`` prints of each list."""


@dataclass
class Count:
    """Seat 0's decisions over some games."""

    turns: int = 0
    prompts: int = 0
    single: int = 0
    forced: int = 0
    sources: Counter[str] = field(default_factory=Counter)
    singles: Counter[str] = field(default_factory=Counter)

    def add(self, other: Count) -> None:
        self.turns += other.turns
        self.prompts += other.prompts
        self.single += other.single
        self.forced += other.forced
        self.sources.update(other.sources)
        self.singles.update(other.singles)

    def row(self, players: int, seed: str) -> str:
        decisions = (self.prompts + self.forced) / max(self.turns, 1)
        return (f"{players:>7} {seed:>4} {self.turns:>5} {decisions:>14.1f} "
                f"{self.prompts / max(self.turns, 1):>12.1f} {self.single / max(self.prompts, 1):>7.1%} "
                f"{self.forced:>13}")


def source(state: SevenState, seat: int) -> str:
    """Where ``seat``'s decision comes from: the phase, then its pending decision, its go's stage or none."""
    pending = next((p for p in state.pending if p.seat == seat), None)
    if pending is not None:
        return f"{state.phase} / asked: {pending.kind}"
    go = state.go_of(seat)
    if go is not None:
        return f"{state.phase} / go stage: {go.stage or '(opening)'}"
    return f"{state.phase} / before a go"


def play(players: int, seed: int, turns: int) -> Count:
    """Seat 0's decisions over one whole game."""
    game = get_game(GAME)
    options = spec(GAME).checked_options(players, {"turn_limit": turns})
    state = game.setup(players, options, seed)
    policies = [make_policy(GAME, "greedy", seed * 31 + p) for p in range(players)]
    count = Count()
    while not game.is_over(state):
        actors = sorted(game.actors(state))
        if 0 in actors:
            legal = game.legal_actions(state, 0)
            if game.forced(state, 0) is not None:
                count.forced += 1
            else:
                where = source(state, 0)
                count.prompts += 1
                count.sources[where] += 1
                if len(legal) == 1:
                    count.single += 1
                    count.singles[f"{where}: {legal[0].kind}"] += 1
        player = actors[0]
        state = game.apply(state, policies[player].choose(state, player)).state
    count.turns = int(game.view(state, None)["turn"])
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--players", default="3,5")
    parser.add_argument("--turns", type=int, default=0, help="turn limit (0: whole games)")
    parser.add_argument("--sources", action="store_true", help="where seat 0's prompts come from")
    args = parser.parse_args()
    print(f"{'players':>7} {'seed':>4} {'turns':>5} {'decisions/turn':>14} {'prompts/turn':>12} "
          f"{'single':>7} {'played for it':>13}")
    totals: dict[int, Count] = {}
    for players in map(int, args.players.split(",")):
        total = totals.setdefault(players, Count())
        for seed in map(int, args.seeds.split(",")):
            count = play(players, seed, args.turns)
            total.add(count)
            print(count.row(players, str(seed)))
        print(total.row(players, "all"))
    if not args.sources:
        return
    for players, total in totals.items():
        print(f"\n{players} players: seat 0's {total.prompts} prompts, by source")
        for where, n in total.sources.most_common(TOP):
            print(f"{n:>6}  {where}")
        print(f"{players} players: its {total.single} single-choice prompts, by source and the one move")
        for where, n in total.singles.most_common(TOP):
            print(f"{n:>6}  {where}")


if __name__ == "__main__":
    main()
