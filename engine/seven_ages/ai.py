"""Computer players for 7 Ages: the random baseline and a first greedy player.

The greedy player keeps simple habits, each a rule of thumb rather than a search: it bids its
lowest-value card (keeping the better ones); it places Production on every empire and Start empire
in front of itself; it turns every marker over it can; it starts the eligible empire that lands
highest on the progress track; it sets up a named leader; it builds the cheapest units while it
keeps a reserve for maintenance (up to 12 units), fortifies its capital and buys an elite marker
when rich; otherwise it takes the first legal move (the step's own order).
"""

from __future__ import annotations

from engine import policy, rng
from engine.core import Action, PlayerId
from engine.policy import Policy, PolicyRng, legal
from engine.seven_ages.actions import (
    Bid,
    Build,
    BuildElite,
    ChooseLeader,
    Done,
    Fortify,
    Pass,
    PlaceMarker,
    StartCard,
    TurnMarker,
)
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.production import unit_cost
from engine.seven_ages.start import progress_options
from engine.seven_ages.state import EXTRA, SevenState

POLICIES: tuple[str, ...] = ("greedy", "random")
RESERVE = 4  # money kept back beyond a unit's price, for next production's maintenance


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions, but never a Pass while a marker can still be turned (a random
    player that skips half its actions teaches nothing about the rules)."""

    game = GAME

    def choose(self, state: SevenState, player: PlayerId) -> Action:
        actions = legal(self.game, state, player)
        turning = [a for a in actions if not isinstance(a, Pass)]
        pool = turning if any(isinstance(a, TurnMarker) for a in actions) else actions
        return pool[rng.below(self._rng, len(pool))]


class GreedyPolicy:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    def choose(self, state: SevenState, player: PlayerId) -> Action:
        actions = legal(GAME, state, player)
        deck = load_deck().cards
        bids = [a for a in actions if isinstance(a, Bid)]
        if bids:
            return min(bids, key=lambda a: (deck[a.card].value if a.card in deck else 0, a.card))
        places = [a for a in actions if isinstance(a, PlaceMarker)]
        if places:
            wanted = "start" if places[0].empire == EXTRA else "production"
            return next((a for a in places if a.marker == wanted), places[0])
        turns = [a for a in actions if isinstance(a, TurnMarker)]
        if turns:
            return turns[0]
        starts = [a for a in actions if isinstance(a, StartCard)]
        if starts:
            return max(starts, key=lambda a: (max(progress_options(state, deck[a.card].empire).values()),
                                              -a.card))
        leaders = [a for a in actions if isinstance(a, ChooseLeader) and a.name]
        if leaders:
            return leaders[0]
        go = state.go_of(player)
        if go is not None and go.stage == "build":
            card = int(go.data.get("card", go.empire))
            e = state.empire(card)
            builds = [a for a in actions if isinstance(a, Build)
                      and unit_cost(e, a.unit, a.area, initial=go.action == "start") + RESERVE <= e.money]
            if builds and e.count() < 12:
                return min(builds, key=lambda a: (unit_cost(e, a.unit, a.area), -e.count(a.area),
                                                  rng.below(self._rng, 1000)))
            forts = [a for a in actions if isinstance(a, Fortify) and a.area == e.capital]
            if forts and e.money > 20:
                return forts[0]
            elite = [a for a in actions if isinstance(a, BuildElite)]
            if elite and e.money > 30:
                return elite[0]
        done = [a for a in actions if isinstance(a, Done)]
        if done:
            return done[0]
        return actions[0]


def make_policy(name: str, seed: int) -> Policy:
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
