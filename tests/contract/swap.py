"""The hidden-swap test of issue 24, written from the outside: which moves showed others a secret.

For a move whose player alone acts before and after, the move is applied again to each of the game's
private variants of the state before it (:meth:`engine.core.Game.private_variants`: states the other
seats cannot tell from it). When it is refused there, or another seat (or a spectator) reads other
events or another view after it, the move showed something hidden. This reads the game only through
the contract, compares JSON texts (not the engine's own comparison), and never names a game, so the
contract suite and ``bench/bench_undo_reveals.py`` can count reveals per game with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import JSON, PUBLIC, Action, Game, IllegalAction, LogReplay, Result
from engine.spec import GameSpec
from tests.contract.checks import canonical


def alone(game: Game, before: Any, action: Action, result: Result) -> bool:
    """The move's player was the only one to act before and after it, no die moved, nothing was
    told in private: the moves the swap is about (the others are final for other reasons)."""
    mover = {action.player}
    return (game.actors(before) == mover and game.actors(result.state) == mover
            and getattr(before, "rng_counter", None) == getattr(result.state, "rng_counter", None)
            and all(e.audience == PUBLIC for e in result.events))


def told(game: Game, result: Result, viewer: int | None) -> str:
    """Everything ``viewer`` learns from a move, as one text: the events it may see and its view."""
    events = [e.to_json() for e in result.events if e.audience == PUBLIC or viewer in e.audience]
    return canonical({"events": events, "view": game.view(result.state, viewer)})


def swap_reveals(game: Game, before: Any, action: Action, result: Result) -> bool:
    """Whether the swap shows ``action`` to reveal what its player alone knew."""
    seats = len(game.scores(before))
    others: list[int | None] = [p for p in range(seats) if p != action.player]
    others.append(None)
    real = {viewer: told(game, result, viewer) for viewer in others}
    for variant in game.private_variants(before, action.player):
        try:
            twin = game.apply(variant, action)
        except IllegalAction:
            return True
        if any(told(game, twin, viewer) != real[viewer] for viewer in others):
            return True
    return False


def draws(game: Game, before: Any, after: Any) -> bool:
    """Whether a move drew from a pile nobody sees, by the sizes the game declares
    (``hidden_draws``, which :class:`engine.core.BaseGame` games keep beside the swap)."""
    sizes = getattr(game, "hidden_draws", None)
    return sizes is not None and bool(sizes(before) != sizes(after))


@dataclass
class Survey:
    """What a seeded random playout found, over the moves its player alone made."""

    reveals: int = 0  # the swap shows a secret: undo must be refused
    plain: int = 0  # the swap shows nothing and nothing was drawn: undo must be allowed
    drawn: int = 0  # a hidden pile changed size: refused by the game's draws
    problems: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)  # a few revealing moves, for the report


def survey(spec: GameSpec, players: int, seed: int, steps: int) -> Survey:
    """Play ``steps`` random moves and check the engine's undo against the swap after each lone move."""
    game = spec.load()
    options: Mapping[str, JSON] = spec.checked_options(players, {})
    policy = spec.make_policy("random", seed)
    pick = random.Random(seed)
    live = LogReplay(game, game.setup(players, options, seed))
    out = Survey()
    for _ in range(steps):
        state = live.state
        if game.is_over(state):
            break
        player = pick.choice(sorted(game.actors(state)))
        action = policy.choose(state, player)
        result = live.play(action)
        if not alone(game, state, action, result):
            continue
        allowed = live.undoable(player) is not None
        if swap_reveals(game, state, action, result):
            out.reveals += 1
            if len(out.examples) < 3:
                out.examples.append(canonical(action.to_json()))
            if allowed:
                out.problems.append(f"{action} showed a secret and may be taken back")
        elif draws(game, state, result.state):
            out.drawn += 1
        else:
            out.plain += 1
            if not allowed:
                out.problems.append(f"{action} showed nothing and may not be taken back")
    return out
