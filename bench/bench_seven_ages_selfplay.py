"""7 Ages self-play: what the computer players make of the game, for balance and for the AI's worth.

Run by hand (never from the tests):
    .venv/bin/python bench/bench_seven_ages_selfplay.py [--seeds 1-10] [--players 3,5] [--turns 12]
        [--mix greedy,greedy-random]

Each game is driven through ``GAME.apply`` with one policy per seat: ``greedy`` puts the greedy player in
every seat, ``greedy-random`` the greedy player in the even seats and the random one in the odd seats
(seat 0 is greedy: the First player's bid decides who starts, so the seats are not favoured by number).
Printed per mix and player count:

- glory per category-turn for each glory category of the cards in play (a category-turn: an empire in
  play at a harvest whose card has that category), and how many of them scored;
- glory per empire-turn by the empire's age at the harvest (the players' notes: about 3-5 a turn, later
  empires richer, L2355), and the same for the Early Finns (card 94, at most 3, L2355);
- wins by seat (a shared top score counts for each), and by policy in the mixed games;
- turns per game and moves per turn (every move of every seat);
- the share of seat-turns (a seat at a turn's marker placement) with no empire in play, and with 3 or
  more (also from turn 2 on: at turn 1 every seat has none);
- each policy's time per decision (wall time of ``choose``: mean, p99 and max).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.policy import Policy
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.production import empire_age
from engine.seven_ages.spec import SPEC
from engine.seven_ages.state import MARKERS, SevenState

EARLY_FINNS = 94  # the notes' example of a modest empire: at most 3 glory a turn (L2355)


@dataclass
class Tally:
    """What a set of games showed."""

    games: int = 0
    turns: int = 0
    moves: int = 0
    seat_turns: int = 0
    empty: int = 0
    empty_by_turn: Counter[int] = field(default_factory=Counter)
    empty_by_policy: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    three_plus: int = 0
    glory_by_age: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    finns: list[int] = field(default_factory=lambda: [0, 0])
    by_category: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_policy: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    thinking: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def _harvest(tally: Tally, before: SevenState, awards: list[dict[str, object]]) -> None:
    """One harvest: every empire in play earns an empire-turn, with what it gained (0 counts too)."""
    gained: Counter[int] = Counter()
    earned: Counter[tuple[int, str]] = Counter()
    for a in awards:
        gained[int(str(a["empire"]))] += int(str(a["glory"]))
        earned[(int(str(a["empire"])), str(a["category"]))] += int(str(a["glory"]))
    deck = load_deck().cards
    for e in before.empires:
        for category in {str(g["category"]) for g in deck[e.card].empire.glory}:
            cell = tally.by_category[category]
            cell[0] += earned[(e.card, category)]
            cell[1] += 1
            cell[2] += earned[(e.card, category)] > 0
        cell = tally.glory_by_age[empire_age(e)]
        cell[0] += gained[e.card]
        cell[1] += 1
        if e.card == EARLY_FINNS:
            tally.finns[0] += gained[e.card]
            tally.finns[1] += 1


def play(tally: Tally, players: int, seed: int, turns: int, kinds: list[str]) -> None:
    """One game, added to ``tally``."""
    options = SPEC.checked_options(players, {"turn_limit": turns})
    state = GAME.setup(players, options, seed)
    policies: list[Policy] = [make_policy(kinds[p], seed * 31 + p) for p in range(players)]
    seen_turn = -1
    started = time.perf_counter()
    while not GAME.is_over(state):
        if state.phase == MARKERS and state.turn != seen_turn:
            seen_turn = state.turn
            for seat in range(players):
                n = len(state.empires_of(seat))
                tally.seat_turns += 1
                tally.empty += n == 0
                tally.empty_by_turn[state.turn] += n == 0
                if state.turn > 1:
                    tally.empty_by_policy[kinds[seat]][0] += n == 0
                    tally.empty_by_policy[kinds[seat]][1] += 1
                tally.three_plus += n >= 3
        player = min(GAME.actors(state))
        before = time.perf_counter()
        action = policies[player].choose(state, player)
        tally.thinking[kinds[player]].append(time.perf_counter() - before)
        result = GAME.apply(state, action)
        for event in result.events:
            if event.type == "harvest":
                awards = event.data["awards"]
                assert isinstance(awards, list)
                _harvest(tally, state, [a for a in awards if isinstance(a, dict)])
        state = result.state
        tally.moves += 1
    tally.seconds += time.perf_counter() - started
    tally.games += 1
    tally.turns += state.turn
    scores = GAME.scores(state)
    for seat, score in enumerate(scores):
        if score == max(scores):
            tally.wins_by_seat[seat] += 1
            tally.wins_by_policy[kinds[seat]] += 1


def report(name: str, players: int, tally: Tally) -> None:
    print(f"\n== {name}, {players} players: {tally.games} games, {tally.seconds:.1f} s")
    print(f"turns per game {tally.turns / tally.games:.1f}; "
          f"moves per turn {tally.moves / max(tally.turns, 1):.0f}")
    print(f"seat-turns {tally.seat_turns}: with no empire {tally.empty} "
          f"({tally.empty / tally.seat_turns:.1%}), with 3 or more {tally.three_plus} "
          f"({tally.three_plus / tally.seat_turns:.1%})")
    later, empty = tally.seat_turns - tally.games * players, tally.empty - tally.empty_by_turn[1]
    print(f"from turn 2 on (turn 1 always starts empty): with no empire {empty} of {later} "
          f"({empty / max(later, 1):.1%}); by turn: "
          + " ".join(f"{t}:{n}" for t, n in sorted(tally.empty_by_turn.items())))
    if len(tally.empty_by_policy) > 1:
        print("from turn 2 on, by policy: " + ", ".join(
            f"{k} {e} of {n} ({e / n:.1%})" for k, (e, n) in sorted(tally.empty_by_policy.items())))
    print("glory per empire-turn by age: " + ", ".join(
        f"age {age} {g / n:.2f} ({n})" for age, (g, n) in sorted(tally.glory_by_age.items())))
    total = sum(g for g, _ in tally.glory_by_age.values())
    count = sum(n for _, n in tally.glory_by_age.values())
    finns = f"{tally.finns[0] / tally.finns[1]:.2f} ({tally.finns[1]})" if tally.finns[1] else "never in play"
    print(f"all ages {total / max(count, 1):.2f} ({count}); harvested per seat-turn "
          f"{total / max(tally.seat_turns, 1):.2f}; the Early Finns {finns}")
    print("by glory category (glory per category-turn; category-turns that scored of all): " + ", ".join(
        f"{c} {g / n:.2f} ({k} of {n})" for c, (g, n, k) in sorted(tally.by_category.items())))
    print("wins by seat: " + ", ".join(f"seat {s} {tally.wins_by_seat[s]}" for s in range(players)))
    for kind, times in sorted(tally.thinking.items()):
        times.sort()
        print(f"{kind} AI per decision: mean {sum(times) / len(times) * 1000:.2f} ms, "
              f"p99 {times[len(times) * 99 // 100] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms "
              f"({len(times)} decisions)")
    if len(set(tally.wins_by_policy)) > 1 or name != "greedy":
        print("wins by policy: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.wins_by_policy.items())))


def _seeds(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--players", default="3,5")
    parser.add_argument("--turns", type=int, default=12, help="turn limit (0: whole games)")
    parser.add_argument("--mix", default="greedy,greedy-random")
    args = parser.parse_args()
    load_deck()
    for mix in args.mix.split(","):
        for players in map(int, args.players.split(",")):
            kinds = ["greedy" if mix == "greedy" or p % 2 == 0 else "random" for p in range(players)]
            tally = Tally()
            for seed in _seeds(args.seeds):
                play(tally, players, seed, args.turns, kinds)
            report(mix, players, tally)


if __name__ == "__main__":
    main()
