"""History of the World, 5-epoch edition, as an Annals game (id ``history``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import rng
from engine.core import Action, Decision, Ending, Event, Names, PlayerId, StepGame
from engine.history.epochs5 import battle, card_text, draft, text, track, turn
from engine.history.epochs5.actions import CODEC
from engine.history.epochs5.board import Ctx, score_breakdown
from engine.history.epochs5.data import Rules, check_data, load_rules
from engine.history.epochs5.decision import decision
from engine.history.epochs5.spec import SPEC
from engine.history.epochs5.state import Phase, State, TurnStep
from engine.history.epochs5.steps import ANYTIME, Key, steps
from engine.history.epochs5.view import BattleView, DraftView, Epochs5View, Invasion, TurnView, YouView
from engine.history.hands import other_hands, unseen_cards
from engine.history.state import copy_json
from engine.words import roman

DEFAULT_PREFS = {"reroll": "if_losing", "track": "ask"}


class Epochs5Game(StepGame[State, Ctx, Key, Epochs5View]):
    """The :class:`engine.core.Game` implementation of the 5-epoch rules, run by its steps
    (:data:`engine.history.epochs5.steps.STEPS`: who acts, the legal moves, the timeout move and the
    rules of each move, by phase and step of a turn; a preference is made at any time)."""

    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules
        super().__init__(steps(lambda: self.rules), over=Phase.OVER, anytime=ANYTIME)

    @property
    def rules(self) -> Rules:
        return self._rules if self._rules is not None else load_rules()

    # -- setup ------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        opts = SPEC.checked_options(players, options)
        rules = self.rules
        state = State(
            players=players,
            options=opts,
            seed=int(seed),
        )
        # Score markers are drawn blindly onto spaces 1, 2, 3...
        order = list(range(players))
        rng.shuffle(state, order)
        state.scores = [0] * players
        for space, p in enumerate(order, start=1):
            state.scores[p] = space
        state.prefs = [dict(DEFAULT_PREFS) for _ in range(players)]
        state.hands = [[] for _ in range(players)]
        state.played_empires = [[] for _ in range(players)]
        state.empire_of = [None] * players
        state.revealed = [False] * players
        # Each epoch's piles are shuffled and trimmed, unseen, to the number of players.
        for epoch in range(1, 6):
            events = rules.events_of(epoch)
            rng.shuffle(state, events)
            state.event_piles[str(epoch)] = events[:players]
            empires = [e.key for e in rules.epochs[epoch]]
            rng.shuffle(state, empires)
            state.empire_piles[str(epoch)] = empires[:players]
        draft.start_epoch(Ctx(state, rules))
        return state

    # -- whose move (the steps say who acts, which moves they have and the timeout move) ------------
    def step(self, state: State) -> Key:
        """The draft and the end by their phase; in a turn, the turn's step."""
        if state.phase is Phase.TURN:
            assert state.turn is not None  # between two turns only inside a move
            return state.turn.step
        return state.phase

    def up_next(self, state: State) -> PlayerId | None:
        """In a turn, the one seat whose empire is still to be revealed this epoch (of several, who holds
        the next one called is hidden); None in the draft, where the sets are with two seats at once."""
        if state.phase is Phase.TURN and state.turn is not None:
            waiting = [p for p in range(state.players) if p != state.turn.player
                       and state.empire_of[p] is not None and not state.revealed[p]]
            return waiting[0] if len(waiting) == 1 else None
        return None

    # -- applying (StepGame.apply checks the actor and hands the move to its step's handler) -------
    def hidden_draws(self, state: State) -> tuple[int, ...]:
        # a card drawn from an epoch's event or empire pile
        return tuple(len(pile) for piles in (state.event_piles, state.empire_piles)
                     for _, pile in sorted(piles.items()))

    def private_variants(self, state: State, seat: PlayerId) -> list[State]:
        """``state`` with ``seat``'s event cards swapped for cards of the same epoch nobody can see (those
        trimmed from its pile): the others know a hand's size and the epoch each card was drafted in.
        A card taken in keeps the epoch it was chosen in (``chosen_epoch``), as the card it stands for."""
        if not 0 <= seat < state.players or not state.hands[seat]:
            return []
        events = self.rules.events
        played = state.turn.played if state.turn is not None else []
        unseen = unseen_cards(events, *state.hands, *state.event_piles.values(), state.event_set,
                              state.drawn.values(), played)
        hand = state.hands[seat]
        out = []
        for other in other_hands(hand, unseen, lambda c: events[c].epoch):
            variant = state.clone()
            variant.hands[seat] = other
            gone = sorted(set(hand) - set(other))
            came = sorted(set(other) - set(hand))
            for old, new in zip(gone, came, strict=False):
                if old in variant.chosen_epoch:
                    variant.chosen_epoch[new] = variant.chosen_epoch.pop(old)
            out.append(variant)
        return out

    def begin(self, state: State) -> Ctx:
        return Ctx(state.clone(), self.rules)

    def finish(self, ctx: Ctx) -> State:
        state = ctx.state
        # a turn that ended calls the next empire (or ends the epoch)
        if state.phase is Phase.TURN and state.turn is None:
            draft.call_next(ctx)
        state.seq += 1
        return state


    # -- what players see ------------------------------------------------------------------------
    def view(self, state: State, viewer: PlayerId | None) -> Epochs5View:
        """Everything ``viewer`` may see (None: a spectator)."""
        rules = self.rules
        ctx = Ctx(state, rules)
        view = Epochs5View(
            game=self.id,
            seq=state.seq,
            players=state.players,
            options=dict(state.options),
            epoch=state.epoch,
            epoch_name=f"Epoch {roman(state.epoch)}",
            phase=state.phase,
            actors=sorted(self.actors(state)),
            scores=list(state.scores),
            epoch_scores=[list(e) for e in state.epoch_scores],
            track=[{"space": track.space(s), "flipped": s >= track.TRACK_SPACES} for s in state.scores],
            ranking=self.ranking(state) if state.phase is Phase.OVER else None,
            places=self.places(state) if state.phase is Phase.OVER else None,
            hand_sizes=[len(h) for h in state.hands],
            played_empires=[list(p) for p in state.played_empires],
            empires_this_epoch={
                str(p): state.empire_of[p] for p in range(state.players) if state.revealed[p]
            },
            region_tokens={
                t.region: {"value": t.value, "first": t.first, "last": t.last}
                for t in rules.tokens
                if t.first <= state.epoch <= t.last
            },
            board={
                "armies": {land: list(a) for land, a in state.armies.items()},
                "forts": list(state.forts),
                "structures": dict(state.structures),
                "monuments": list(state.monuments),
            },
            draft=self._draft_view(state) if state.phase is Phase.DRAFT else None,
            turn=self._turn_view(ctx) if state.turn is not None else None,
            you=None,
        )
        if viewer is not None and 0 <= viewer < state.players:
            you = YouView(
                player=viewer,
                hand=list(state.hands[viewer]),
                empire=state.empire_of[viewer] if state.phase is not Phase.OVER else None,
                prefs=dict(state.prefs[viewer]),
                score_now=score_breakdown(state, rules, viewer),
            )
            seen = draft.looking_at(ctx, viewer)
            if seen is not None:
                you["choosing"] = {"pile": seen[0], "cards": sorted(seen[1])}
            view["you"] = you
        return view

    @staticmethod
    def _draft_view(state: State) -> DraftView:
        ev, em = draft.holders(state.draft_order, state.draft_step)
        return DraftView(
            order=list(state.draft_order),
            step=state.draft_step,
            event_holder=ev,
            empire_holder=em,
            event_cards_left=len(state.event_set) + (1 if "event" in state.drawn else 0),
            empire_cards_left=len(state.empire_set) + (1 if "empire" in state.drawn else 0),
            has_empire=[e is not None for e in state.empire_of],
        )

    def _turn_view(self, ctx: Ctx) -> TurnView:
        tn = ctx.turn
        rules = ctx.rules
        fight: BattleView | None = None
        if tn.battle:
            b = tn.battle
            fight = BattleView(
                land=b["land"],
                defender=b["defender"],
                route=b["route"],
                fortified=b["fortified"],
                terrain=b["terrain"],
                att=list(b["att"]),
                dfd=list(b["dfd"]),
                totals=list(battle.totals(ctx, b)),
                rerolls_left=int(b.get("inv_left", 0)),
            )
        return TurnView(
            player=tn.player,
            empire=tn.empire,
            name=rules.empires[tn.empire].name,
            step=tn.step,
            force=tn.force,
            force_name=rules.empires[tn.force].name if tn.force else rules.empires[tn.empire].name,
            force_kind=tn.force_kind,
            armies=tn.pool,
            siege_tokens=tn.siege_tokens,
            fleets=list(tn.fleets),
            caravans=list(tn.caravans),
            catapult=min(tn.catapult, battle.CATAPULT_SPACES),
            effects=list(tn.effects),
            played=list(tn.played),
            battle=fight,
            pending=copy_json(tn.pending),
            track=copy_json(tn.track),
            invasions=self._invasions(ctx) if tn.step is TurnStep.INVADE else [],
        )

    @staticmethod
    def _invasions(ctx: Ctx) -> list[Invasion]:
        """The territories open to the active force now, how they are reached and the battle odds."""
        state = ctx.state
        tn = ctx.turn
        wmap = ctx.rules.map
        found = turn.current_reach(ctx)
        near = {n for land in state.force_lands(tn.force) for n in wmap.neighbours(land)}
        out: list[Invasion] = []
        for land, routes in turn.invasion_targets(ctx).items():
            ways = []
            if land in near:
                ways.append("border")
            elif land in found.by_land:
                won = {n for t in tn.free_invasions for n in wmap.neighbours(t)}
                ways.append("a battle won" if land in won else "caravan")
            if land in found.by_sea:
                ways.append("fleet")
            holder = state.occupant(land)
            fight = holder is not None and holder != tn.player
            odds = {r: round(100 * battle.odds(ctx, land, r)) for r in routes} if fight else {}
            out.append(
                Invasion(land=land, routes=list(routes), ways=ways, holder=holder, battle=fight, odds=odds)
            )
        return out

    # -- the end ------------------------------------------------------------------------------------
    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def compared(self, state: State, seat: PlayerId) -> tuple[int]:
        # Markers never share a space, so scores never tie (up to 100 points apart).
        return (-state.scores[seat],)

    def ending(self, state: State) -> tuple[Ending, str]:
        # the game has one end: the last epoch's empires played and its hands discarded
        return Ending.LAST_ROUND, f"The game ends: Epoch {roman(state.epoch)}, the last, has been played."

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: State) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    def check_data(self) -> list[str]:
        """Every problem in the 5-epoch data (empty when all is well)."""
        return check_data()

    # -- words, from a view ---------------------------------------------------------------------
    def decision(self, view: Epochs5View, player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        return decision(self.rules, view, player, legal, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return text.describe_event(self.rules, event, names)

    def stage(self, view: Epochs5View) -> str:
        return text.stage(view)

    def status_text(self, view: Epochs5View, names: Names) -> str:
        return text.status_text(self.rules, view, names)

    def hand_text(self, view: Epochs5View, player: PlayerId, names: Names) -> str:
        return text.hand_text(self.rules, view, player, names)

    def board_text(self, view: Epochs5View, names: Names) -> str:
        return text.board_text(self.rules, view, names)

    def place_text(self, view: Epochs5View, place: str, names: Names) -> str | None:
        return text.place_text(self.rules, view, place, names)

    def card_text(self, view: Epochs5View, wanted: str, names: Names) -> str | None:
        return card_text.answer(view, wanted, self.rules)

    def summary_text(self, view: Epochs5View, names: Names) -> str:
        return text.summary_text(view, names)


GAME = Epochs5Game()
