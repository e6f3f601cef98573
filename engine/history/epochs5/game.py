"""History of the World, 5-epoch edition, as an Annals game (id ``history``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine import rng
from engine.core import Action, BaseGame, Decision, Event, IllegalAction, Names, PlayerId, Result
from engine.history.epochs5 import battle, card_text, cards, draft, text, track, turn
from engine.history.epochs5.actions import (
    CODEC,
    Accept,
    Choose,
    Done,
    Draft,
    Fortify,
    Give,
    Invade,
    Keep,
    PlayEvent,
    Prefer,
    Reroll,
    Retreat,
    Siege,
    Stop,
    Track,
)
from engine.history.epochs5.board import Ctx, score_breakdown
from engine.history.epochs5.data import Rules, check_data, load_rules
from engine.history.epochs5.decision import decision
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.spec import SPEC
from engine.history.epochs5.state import State
from engine.history.epochs5.view import BattleView, DraftView, Epochs5View, Invasion, TurnView, YouView
from engine.history.hands import other_hands, unseen_cards
from engine.history.state import copy_json
from engine.words import roman

PREFS: dict[str, tuple[str, ...]] = {"reroll": battle.REROLL_PREFS, "track": ("ask", "up", "down")}
DEFAULT_PREFS = {"reroll": "if_losing", "track": "ask"}


class Epochs5Game(BaseGame[State, Ctx]):
    """The :class:`engine.core.Game` implementation of the 5-epoch rules."""

    id = SPEC.id
    title = SPEC.title
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    codec = CODEC

    #: The moves each step allows (a draft, or a step of the active turn).
    STEPS: ClassVar[Mapping[str, tuple[type[Action], ...]]] = {
        "draft": (Draft, Keep, Give),
        "kingdom": (PlayEvent, Done),
        "invade": (Invade, Fortify, PlayEvent, Stop),
        "target": (Choose, Done),
        # PlayEvent is refused in a battle with its own reason (not during an invasion).
        "reroll": (Reroll, Accept, PlayEvent),
        "siege": (Siege, Retreat, PlayEvent),
        "track": (Track,),
    }

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules

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

    # -- whose move, and which moves ---------------------------------------------------------
    def actors(self, state: State) -> frozenset[PlayerId]:
        if state.phase == "draft":
            return frozenset(draft.actors(Ctx(state, self.rules)))
        if state.phase == "turn" and state.turn is not None:
            return frozenset({state.turn.player})
        return frozenset()

    def up_next(self, state: State) -> PlayerId | None:
        """In a turn, the one seat whose empire is still to be revealed this epoch (of several, who holds
        the next one called is hidden); None in the draft, where the sets are with two seats at once."""
        if state.phase == "turn" and state.turn is not None:
            waiting = [p for p in range(state.players) if p != state.turn.player
                       and state.empire_of[p] is not None and not state.revealed[p]]
            return waiting[0] if len(waiting) == 1 else None
        return None

    def legal_actions(self, state: State, player: PlayerId) -> list[Action]:
        if player not in self.actors(state):
            return []
        ctx = Ctx(state, self.rules)
        if state.phase == "draft":
            seen = draft.looking_at(ctx, player)
            assert seen is not None
            pile, offered = seen
            if not draft.classic(ctx):
                return [Draft(player, c) for c in sorted(offered)]
            may_keep, give_to = draft.give_choices(ctx, pile, player)
            out: list[Action] = [Keep(player, pile)] if may_keep else []
            return out + [Give(player, pile, p) for p in give_to]
        tn = ctx.turn
        step = tn.step
        if step == "kingdom":
            return [*(PlayEvent(player, c) for c in turn.kingdoms_in_hand(ctx)), Done(player)]
        if step == "target":
            assert tn.pending is not None
            if tn.pending["source"] == "event":
                acts: list[Action] = [Choose(player, t) for t in cards.pending_candidates(ctx)]
                done = cards.may_finish(ctx)
            else:
                acts = [Choose(player, t) for t in turn.end_candidates(ctx)]
                done = turn.may_finish_end_targets(ctx)
            return acts + ([Done(player)] if done else [])
        if step == "reroll":
            return [Reroll(player, 0), Reroll(player, 1), Accept(player)]
        if step == "siege":
            return [Siege(player), Retreat(player)]
        if step == "track":
            return [Track(player, "up"), Track(player, "down")]
        acts = []
        for land, routes in turn.invasion_targets(ctx).items():
            acts.append(Invade(player, land))
            if SEA in routes and len(routes) > 1:
                acts.append(Invade(player, land, SEA))
        if tn.pool > 0:
            acts.extend(Fortify(player, land) for land in turn.fort_sites(ctx))
        if tn.force_kind == "empire":
            acts.extend(PlayEvent(player, c) for c in cards.playable(ctx))
        acts.append(Stop(player))
        return acts

    def timeout_action(self, state: State, player: PlayerId) -> Action:
        """The most passive move: skip, stop, keep the dice, retreat, place no more; a draft or a
        forced target takes the first card or place offered."""
        legal = self.legal_actions(state, player)
        if not legal:
            raise IllegalAction("not_your_turn", "It is not your move.", player=player)
        for kind in (Stop, Accept, Retreat, Done, Keep):
            found = next((a for a in legal if isinstance(a, kind)), None)
            if found is not None:
                return found
        return legal[0]

    # -- applying (the template is BaseGame.apply) ----------------------------------------------
    def apply(self, state: State, action: Action) -> Result:
        if isinstance(action, Prefer):
            return self._prefer(state, action)
        return super().apply(state, action)

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

    def step(self, state: State) -> str:
        if state.phase == "turn" and state.turn is not None:
            return state.turn.step
        return state.phase

    def refusal(self, state: State, player: PlayerId) -> IllegalAction:
        if state.phase == "over":
            return IllegalAction("game_over", "The game is over.")
        return IllegalAction("not_your_turn", "It is not your move.", player=player)

    def begin(self, state: State) -> Ctx:
        return Ctx(state.clone(), self.rules)

    def finish(self, ctx: Ctx) -> State:
        ctx.state.seq += 1
        return ctx.state

    def _prefer(self, state: State, action: Prefer) -> Result:
        if not 0 <= action.player < state.players:
            raise IllegalAction("not_seated", "Only seated players have preferences.")
        allowed = PREFS.get(action.key)
        if allowed is None or action.value not in allowed:
            raise IllegalAction(
                "bad_preference",
                f"Unknown preference {action.key}={action.value}.",
                key=action.key,
                value=action.value,
            )
        ctx = self.begin(state)
        ctx.state.prefs[action.player][action.key] = action.value
        ctx.emit("preference", (action.player,), player=action.player, key=action.key, value=action.value)
        return Result(self.finish(ctx), tuple(ctx.events))

    def handle(self, ctx: Ctx, action: Action) -> None:
        state = ctx.state
        if state.phase == "draft":
            if isinstance(action, Draft):
                draft.draft(ctx, action.player, action.card)
            elif isinstance(action, Keep):
                draft.decide(ctx, action.player, action.pile, None)
            elif isinstance(action, Give):
                draft.decide(ctx, action.player, action.pile, int(action.to))
            return
        self._turn_action(ctx, action)
        # A turn that ended calls the next empire (or ends the epoch).
        if state.phase == "turn" and state.turn is None:
            draft.call_next(ctx)

    def _turn_action(self, ctx: Ctx, action: Action) -> None:
        tn = ctx.turn
        if isinstance(action, PlayEvent):
            if tn.step == "kingdom":
                if action.card not in turn.kingdoms_in_hand(ctx):
                    raise IllegalAction(
                        "not_a_kingdom",
                        "Play a kingdom of this epoch from your hand, or skip.",
                        card=action.card,
                    )
                turn.play_kingdom(ctx, action.card)
            elif tn.step != "invade":
                raise IllegalAction("during_invasion", cards.during_invasion_refusal(ctx), card=action.card)
            else:
                cards.play(ctx, action.card)
        elif isinstance(action, Done):
            if tn.step == "kingdom":
                turn.skip_kingdom(ctx)
            elif tn.pending is not None and tn.pending["source"] != "event":
                turn.finish_end_targets(ctx)
            else:
                cards.finish(ctx)
        elif isinstance(action, Choose):
            if tn.pending is not None and tn.pending["source"] != "event":
                turn.choose_end_target(ctx, action.target)
            else:
                cards.choose(ctx, action.target)
        elif isinstance(action, Invade):
            turn.invade(ctx, action.land, action.route)
        elif isinstance(action, Fortify):
            turn.fortify(ctx, action.land)
        elif isinstance(action, Stop):
            turn.stop(ctx)
        elif isinstance(action, Reroll):
            battle.reroll(ctx, int(action.die))
        elif isinstance(action, Accept):
            battle.accept(ctx)
        elif isinstance(action, Siege):
            battle.siege(ctx)
        elif isinstance(action, Retreat):
            battle.retreat(ctx)
        elif isinstance(action, Track) and track.move(ctx, action.direction) == "end":
            turn.end_turn(ctx)

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
            ranking=self.ranking(state) if state.phase == "over" else None,
            places=self.places(state) if state.phase == "over" else None,
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
            draft=self._draft_view(state) if state.phase == "draft" else None,
            turn=self._turn_view(ctx) if state.turn is not None else None,
            you=None,
        )
        if viewer is not None and 0 <= viewer < state.players:
            you = YouView(
                player=viewer,
                hand=list(state.hands[viewer]),
                empire=state.empire_of[viewer] if state.phase != "over" else None,
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
            invasions=self._invasions(ctx) if tn.step == "invade" else [],
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
    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def compared(self, state: State, seat: PlayerId) -> tuple[int]:
        # Markers never share a space, so scores never tie (up to 100 points apart).
        return (-state.scores[seat],)

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
    def decision(self, view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action],
                 names: Names) -> Decision:
        return decision(self.rules, view, player, legal, names)

    def describe_event(self, event: Event, names: Names) -> str | None:
        return text.describe_event(self.rules, event, names)

    def stage(self, view: Mapping[str, Any]) -> str:
        return text.stage(view)

    def status_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.status_text(self.rules, view, names)

    def hand_text(self, view: Mapping[str, Any], player: PlayerId, names: Names) -> str:
        return text.hand_text(self.rules, view, player, names)

    def board_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.board_text(self.rules, view, names)

    def place_text(self, view: Mapping[str, Any], place: str, names: Names) -> str | None:
        return text.place_text(self.rules, view, place, names)

    def card_text(self, view: Mapping[str, Any], wanted: str, names: Names) -> str | None:
        return card_text.answer(view, wanted, self.rules)

    def summary_text(self, view: Mapping[str, Any], names: Names) -> str:
        return text.summary_text(view, names)


GAME = Epochs5Game()
