"""You're next (issue 30): :meth:`engine.core.Game.up_next`, one suite for every registered game; no test
here names a game.

"An opt-in DM when the player before you starts their move": the platform does not know whose move
follows whose, each game says it. Whenever one seat ``a`` acts alone and the game names ``s``, the next
seats asked once ``a`` is done are ``s`` alone, or the game is over; and the answer comes from what
every seat sees (the same for states that differ only in one seat's secrets).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

import tests.toy.spec  # noqa: F401  (the toy game registers itself and must keep the contract too)
from engine import registry
from engine.core import PlayerId
from engine.spec import GameSpec

SPECS = registry.specs()
SEEDS = (1, 2)
LIMIT = 3_000  # moves per playout: enough for many turns of every game, and each answer is checked
SECRET_EVERY = 5  # the private variants (a hand swapped) are checked at every fifth lone actor


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def cases() -> list[tuple[GameSpec, int, int]]:
    return [(spec, players, seed) for spec in SPECS
            for players in sorted({spec.min_players, spec.max_players}) for seed in SEEDS]


@dataclass
class Run:
    """What one playout saw: the broken promises, and how many answers were checked."""

    problems: list[str] = field(default_factory=list)
    named: int = 0  # answers naming a seat that the playout saw come true (or the game end)
    handovers: int = 0  # one seat acting alone, then another alone: a turn the game could announce
    unknown: int = 0  # answers None while one seat acted

    def fail(self, step: int, problem: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(f"move {step}: {problem}")


def playout(spec: GameSpec, players: int, seed: int) -> Run:
    """Random players from ``seed``; every lone actor's answer is held until the seats asked next show."""
    game = spec.load()
    state = game.setup(players, spec.default_options(), seed)
    ais = [spec.make_policy("random", seed * 7 + p) for p in range(players)]
    pick = random.Random(seed)
    run = Run()
    waiting: list[tuple[int, PlayerId, PlayerId]] = []  # (move, a, s): a acts alone, s is named next
    lone = 0
    last: frozenset[PlayerId] = frozenset()
    for step in range(LIMIT):
        if game.is_over(state):
            run.named += len(waiting)  # the game ending first keeps the promise
            return run
        actors = game.actors(state)
        if len(actors) == 1 and len(last) == 1 and actors != last:
            run.handovers += 1
        last = actors
        if waiting and actors != frozenset({waiting[0][1]}):
            for said, a, s in waiting:
                if actors != frozenset({s}):
                    run.fail(step, f"at move {said} seat {a} acted alone and the game named seat {s} next, "
                                   f"but then seats {sorted(actors)} were asked")
                else:
                    run.named += 1
            waiting = []
        answer = game.up_next(state)
        if len(actors) != 1:
            if answer is not None:
                run.fail(step, f"seats {sorted(actors)} act at once, yet seat {answer} is named next")
        else:
            (a,) = actors
            lone += 1
            if answer is None:
                run.unknown += 1
            elif answer == a or not 0 <= answer < players:
                run.fail(step, f"seat {a} acts alone and seat {answer} is named next: not another seat")
            else:
                waiting.append((step, a, answer))
            if lone % SECRET_EVERY == 0:
                for seat in range(players):
                    for variant in game.private_variants(state, seat):
                        if game.up_next(variant) != answer:
                            run.fail(step, f"the seat named next ({answer}) changes with seat {seat}'s "
                                           f"secrets (to {game.up_next(variant)})")
        player = pick.choice(sorted(actors))
        state = game.apply(state, ais[player].choose(state, player)).state
    return run  # a promise still waiting at the limit is neither kept nor broken


@pytest.mark.parametrize(("spec", "players", "seed"), cases(),
                         ids=[f"{s.id}-{n}p-{seed}" for s, n, seed in cases()])
def test_the_seat_named_next_is_the_next_asked(spec: GameSpec, players: int, seed: int) -> None:
    run = playout(spec, players, seed)
    assert not run.problems, "\n".join(run.problems)
    print(f"\n{spec.id}, {players} players, seed {seed}: {run.named} answers naming the next seat kept, "
          f"{run.unknown} not known")


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_game_that_hands_turns_on_names_the_next_seat_somewhere(spec: GameSpec) -> None:
    """A game whose play passes from one seat acting alone to another implements the hook: answering
    None everywhere is the default that keeps the contract, and tells nobody they are next. (A game
    whose every lone seat is followed by seats acting at once, as sealed bids are, has no turn to
    announce.)"""
    runs = [playout(spec, players, 1) for players in sorted({spec.min_players, spec.max_players})]
    handovers, named = sum(r.handovers for r in runs), sum(r.named for r in runs)
    assert handovers == 0 or named > 0, (f"{spec.title} hands the turn from one seat to another "
                                         f"{handovers} times and never names the seat that moves next")
