"""How often does a classic empire or event start with fewer armies than its strength?

Plays all-greedy classic games and reads only the engine's public events, so it
runs unchanged on older and newer engines (to compare a rules change):

* an empire (or a Minor Empire) is short when its ``supply_out`` event says it
  got fewer armies than it wanted (its army pieces were still on the board);
* an army event (Civil War, Barbarians, Jewish Revolt, Migrants, Crusade,
  Kingdoms) is short when it reports a missing army piece, or the Crusade
  gathers fewer than its printed armies.

Run by hand from the repository root::

    PYTHONPATH=. python bench/bench_armies.py --games 60 --seed 0

The component limits of the box (5 Egyptian pieces, 16 British...) force some
shortfalls whatever the players do; the figure to watch is the share that
comes from event armies taking pieces an empire needs later.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

from engine.history.ai import make_policy
from engine.history.game import GAME

ARMY_EFFECTS = frozenset({"civil_war", "barbarians", "jewish_revolt", "migrants", "crusade", "kingdom"})


@dataclass
class Tally:
    empires: int = 0
    empires_short: int = 0
    events: int = 0
    events_short: int = 0
    short_by_name: Counter[str] = field(default_factory=Counter)
    played_by_name: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.empires += other.empires
        self.empires_short += other.empires_short
        self.events += other.events
        self.events_short += other.events_short
        self.short_by_name.update(other.short_by_name)
        self.played_by_name.update(other.played_by_name)


def play(players: int, seed: int, options: dict[str, bool]) -> Tally:
    """One all-greedy game, tallied from its events."""
    rules = GAME.rules
    state = GAME.setup(players, options, seed)
    policies = [make_policy("greedy", seed * 101 + seat) for seat in range(players)]
    tally = Tally()
    force = empire = ""  # what a shortfall belongs to: the empire, or the army event being played
    while not GAME.is_over(state):
        player = min(GAME.actors(state))
        result = GAME.apply(state, policies[player].choose(state, player))
        state = result.state
        short_event = False  # at most one shortfall per army event and action
        for event in result.events:
            d = event.data
            if event.type == "turn":
                tally.empires += 1
                force = empire = str(d["name"])
                tally.played_by_name[force] += 1
            elif event.type == "force_done":
                force = empire
            elif event.type == "card_played":
                effect = rules.cards[d["card"]].effect
                if effect in ARMY_EFFECTS or effect == "minor_empire":
                    tally.events += effect in ARMY_EFFECTS
                    tally.empires += effect == "minor_empire"
                    force = str(d["name"]) if effect == "minor_empire" else f"event: {d['name']}"
                    tally.played_by_name[force] += 1
            elif event.type == "supply_out" and "army" in str(d.get("piece", "")):
                if "wanted" in d:  # an empire or Minor Empire established with too few armies
                    tally.empires_short += 1
                    tally.short_by_name[force] += 1
                elif not short_event:
                    short_event = True
                    tally.events_short += 1
                    tally.short_by_name[force] += 1
            elif event.type == "crusade" and int(d["armies"]) < 3 and not short_event:
                short_event = True
                tally.events_short += 1
                tally.short_by_name[force] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = Tally()
    for i in range(args.games):
        seed = args.seed + i
        total.add(play(3 + i % 4, seed, {}))

    def share(part: int, whole: int) -> str:
        return f"{part}/{whole} ({100.0 * part / max(1, whole):.1f}%)"

    last = args.seed + args.games - 1
    print(f"{args.games} all-greedy classic games, 3 to 6 players, seeds {args.seed}..{last}")
    print(f"empires (incl. Minor Empires) starting short: {share(total.empires_short, total.empires)}")
    print(f"army events starting short:                   {share(total.events_short, total.events)}")
    print(f"all together:                                 "
          f"{share(total.empires_short + total.events_short, total.empires + total.events)}")
    for name, count in total.short_by_name.most_common():
        print(f"  {name}: short in {count} of {total.played_by_name[name]} plays")


if __name__ == "__main__":
    main()
