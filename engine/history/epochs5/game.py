"""History of the World, 5-epoch edition, as an Annals game (id ``history``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import rng
from engine.core import Action, Event, IllegalAction, PlayerId, Result
from engine.history.epochs5 import battle, cards, draft, track, turn
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
from engine.history.epochs5.data import ROMAN, Rules, load_rules
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.spec import SPEC
from engine.history.epochs5.state import State

OPTIONS: dict[str, str] = {
    "classic_drafting": "Optional rule: draw the top card of each set and keep it or give it away.",
}
PREFS: dict[str, tuple[str, ...]] = {"reroll": battle.REROLL_PREFS, "track": ("ask", "up", "down")}
DEFAULT_PREFS = {"reroll": "if_losing", "track": "ask"}

STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "kingdom": (PlayEvent, Done),
    "invade": (Invade, Fortify, PlayEvent, Stop),
    "target": (Choose, Done),
    "reroll": (Reroll, Accept),
    "siege": (Siege, Retreat),
    "track": (Track,),
}


class Epochs5Game:
    """The :class:`engine.core.Game` implementation of the 5-epoch rules."""

    id = "history"
    title = "History of the World (5-epoch edition)"
    min_players = 3
    max_players = 6
    codec = CODEC
    #: Actions any seated player may take at any moment (standing preferences).
    anytime_kinds = frozenset({"prefer"})

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules

    @property
    def rules(self) -> Rules:
        return self._rules if self._rules is not None else load_rules()

    def default_options(self) -> dict[str, Any]:
        return {name: False for name in OPTIONS}

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
            acts: list[Action] = [Choose(player, t) for t in cards.pending_candidates(ctx)]
            if cards.may_finish(ctx):
                acts.append(Done(player))
            return acts
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

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> Result:
        if isinstance(action, Prefer):
            return self._prefer(state, action)
        if action.player not in self.actors(state):
            if state.phase == "over":
                raise IllegalAction("game_over", "The game is over.")
            raise IllegalAction("not_your_turn", "It is not your move.", player=action.player)
        new = state.clone()
        ctx = Ctx(new, self.rules)
        self._dispatch(ctx, action)
        new.seq += 1
        return Result(new, tuple(ctx.events))

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
        new = state.clone()
        new.prefs[action.player][action.key] = action.value
        new.seq += 1
        ctx = Ctx(new, self.rules)
        ctx.emit("preference", (action.player,), player=action.player, key=action.key, value=action.value)
        return Result(new, tuple(ctx.events))

    def _dispatch(self, ctx: Ctx, action: Action) -> None:
        state = ctx.state
        if state.phase == "draft":
            if isinstance(action, Draft):
                draft.draft(ctx, action.player, action.card)
            elif isinstance(action, Keep):
                draft.decide(ctx, action.player, action.pile, None)
            elif isinstance(action, Give):
                draft.decide(ctx, action.player, action.pile, int(action.to))
            else:
                raise IllegalAction("drafting", "Cards are being chosen now.")
            return
        tn = ctx.turn
        allowed = STEP_ACTIONS.get(tn.step, ())
        if not isinstance(action, allowed):
            names = ", ".join(cls.kind for cls in allowed)
            raise IllegalAction("wrong_step", f"That is not possible now; you may: {names}.", step=tn.step)
        if isinstance(action, PlayEvent):
            if tn.step == "kingdom":
                if action.card not in turn.kingdoms_in_hand(ctx):
                    raise IllegalAction(
                        "not_a_kingdom",
                        "Play a kingdom of this epoch from your hand, or skip.",
                        card=action.card,
                    )
                turn.play_kingdom(ctx, action.card)
            else:
                cards.play(ctx, action.card)
        elif isinstance(action, Done):
            if tn.step == "kingdom":
                turn.skip_kingdom(ctx)
            else:
                cards.finish(ctx)
        elif isinstance(action, Choose):
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
    def view(self, state: State, viewer: PlayerId | None) -> dict[str, Any]:
        """Everything ``viewer`` may see (None: a spectator)."""
        rules = self.rules
        ctx = Ctx(state, rules)
        tn = state.turn
        view: dict[str, Any] = {
            "game": self.id,
            "seq": state.seq,
            "players": state.players,
            "options": dict(state.options),
            "epoch": state.epoch,
            "epoch_name": f"Epoch {ROMAN[state.epoch]}",
            "phase": state.phase,
            "actors": sorted(self.actors(state)),
            "scores": list(state.scores),
            "track": [{"space": track.space(s), "flipped": s >= track.TRACK_SPACES} for s in state.scores],
            "ranking": self.ranking(state) if state.phase == "over" else None,
            "hand_sizes": [len(h) for h in state.hands],
            "played_empires": [list(p) for p in state.played_empires],
            "empires_this_epoch": {
                str(p): state.empire_of[p] for p in range(state.players) if state.revealed[p]
            },
            "region_tokens": {
                t.region: {"value": t.value, "first": t.first, "last": t.last}
                for t in rules.tokens
                if t.first <= state.epoch <= t.last
            },
            "board": {
                "armies": {land: list(a) for land, a in state.armies.items()},
                "forts": list(state.forts),
                "structures": dict(state.structures),
                "monuments": list(state.monuments),
            },
            "draft": None,
            "turn": None,
            "you": None,
        }
        if state.phase == "draft":
            ev, em = draft.holders(state.draft_order, state.draft_step)
            view["draft"] = {
                "order": list(state.draft_order),
                "step": state.draft_step,
                "event_holder": ev,
                "empire_holder": em,
                "event_cards_left": len(state.event_set) + (1 if "event" in state.drawn else 0),
                "empire_cards_left": len(state.empire_set) + (1 if "empire" in state.drawn else 0),
                "has_empire": [e is not None for e in state.empire_of],
            }
        if tn is not None:
            view["turn"] = {
                "player": tn.player,
                "empire": tn.empire,
                "name": rules.empires[tn.empire].name,
                "step": tn.step,
                "force": tn.force,
                "force_kind": tn.force_kind,
                "armies": tn.pool,
                "siege_tokens": tn.siege_tokens,
                "fleets": list(tn.fleets),
                "caravans": list(tn.caravans),
                "catapult": min(tn.catapult, battle.CATAPULT_SPACES),
                "effects": list(tn.effects),
                "played": list(tn.played),
                "battle": dict(tn.battle) if tn.battle else None,
                "pending": dict(tn.pending) if tn.pending else None,
                "track": dict(tn.track) if tn.track else None,
            }
        if viewer is not None and 0 <= viewer < state.players:
            you: dict[str, Any] = {
                "player": viewer,
                "hand": list(state.hands[viewer]),
                "empire": state.empire_of[viewer] if state.phase != "over" else None,
                "prefs": dict(state.prefs[viewer]),
                "score_now": score_breakdown(state, rules, viewer),
            }
            seen = draft.looking_at(ctx, viewer)
            if seen is not None:
                you["choosing"] = {"pile": seen[0], "cards": sorted(seen[1])}
            view["you"] = you
        return view

    # -- the end ------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def ranking(self, state: State) -> list[PlayerId]:
        # Markers never share a space, so scores never tie (up to 100 points apart).
        return sorted(range(state.players), key=lambda p: (-state.scores[p], p))

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def dumps(self, state: State) -> str:
        return state.dumps()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    def check_data(self) -> list[str]:
        """Every problem in the 5-epoch data (empty when all is well)."""
        from engine.history.epochs5.data import check_data

        return check_data()

    def describe_event(self, event: Event) -> str | None:
        from engine.history.epochs5.text import describe_event

        return describe_event(event, self.rules)

    def action_label(self, state: State, action: Action) -> str:
        from engine.history.epochs5.text import action_label

        return action_label(self.rules, action)

    def describe_action(self, action: Action) -> str:
        data = action.to_json()
        args = " ".join(f"{k}={v}" for k, v in data.items() if k not in ("kind", "player"))
        return f"{data['kind']} {args}".strip()


GAME = Epochs5Game()
