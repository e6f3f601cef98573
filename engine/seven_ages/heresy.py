"""Option 16's Heresy (L1654-1664): an empire's action converted into a Vote action.

While *Heresy* tops the dominant religion on an empire's card, every action any empire of that dominant
religion takes becomes a Vote action as its marker is turned over (Socialists ignore Heresy, L1940). An empire
with a religious leader may remove the heresy instead (L1662, L2051). Otherwise the top card of the deck is
picked: its value is how many progress levels the empires of that religion lose between them; the active
player proposes the losses one level at a time (as far as their levels allow: an empire never goes below
level 1, nor back from beyond level 49, L594), and the empires vote on the proposal in secret
(:mod:`engine.seven_ages.ballots`, weights in :mod:`engine.seven_ages.ballot_weights`). Carried, the levels
are lost and the heresy is discarded; failed, it stays. The go is over once the vote is counted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import Action, Choice, Event, IllegalAction, Names
from engine.seven_ages import ballots, markers
from engine.seven_ages.actions import HeresyLoss, LiftHeresy
from engine.seven_ages.answers import Answers
from engine.seven_ages.artefact_powers import powers_on
from engine.seven_ages.ballot_weights import HERESY, RULES, heresy_bound, heresy_voters, may_lift_heresy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.decision import register_go_heading, register_label
from engine.seven_ages.endturn import advance
from engine.seven_ages.setup import refill
from engine.seven_ages.state import PAST_THE_END, Empire, Go, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, seat, the_empire
from engine.seven_ages.view import GoView, SevenView
from engine.words import join_words, plural

ARTEFACT = "Heresy"
LIFT, LOSSES, VOTE, OVER = "heresy_lift", "heresy_losses", "heresy_vote", "heresy_over"
"""The vote action's stages: remove the heresy or vote; propose the losses; the vote; counted."""
STAGES = (LIFT, LOSSES, VOTE, OVER)


def holder(state: SevenState, religion: str) -> Empire | None:
    """The empire whose card has *Heresy* on its dominant religion ``religion``, if any."""
    held = (e for e in state.empires if ARTEFACT in e.artefacts and e.religions[:1] == (religion,))
    return next(held, None)


def room(state: SevenState, card: int) -> int:
    """How many levels the empire of ``card`` can lose (never below level 1, never back from past 49)."""
    e = state.empire(card)
    return 0 if e.progress >= PAST_THE_END else e.progress - 1


class HeresyVote:
    """The vote action (:class:`engine.seven_ages.markers.VoteAction`)."""

    def binds(self, state: SevenState, go: Go) -> bool:
        if not powers_on(state) or not state.has_empire(go.empire):
            return False
        e = state.empire(go.empire)
        return bool(e.religions) and holder(state, e.religions[0]) is not None and \
            any(b.card == e.card for b in heresy_bound(state, e.religions[0]))

    def holds(self, go: Go) -> bool:
        return go.stage in STAGES

    def finished(self, go: Go) -> bool:
        return go.stage == OVER

    def begin(self, ctx: Ctx, go: Go) -> None:
        e = ctx.state.empire(go.empire)
        religion = e.religions[0]
        ctx.emit("vote_action", seat=go.seat, empire=go.empire, religion=religion, action=go.action)
        go = replace(go, data={**go.data, "religion": religion})
        if may_lift_heresy(e):
            ctx.state = ctx.state.with_go(replace(go, stage=LIFT))
        else:
            _pick(ctx, go)

    def legal(self, state: SevenState, go: Go) -> list[Action]:
        if go.stage == LIFT:
            return [LiftHeresy(go.seat, True), LiftHeresy(go.seat, False)]
        if go.stage == LOSSES:
            taken = {int(c): int(n) for c, n in go.data["losses"].items()}
            return [HeresyLoss(go.seat, b.card) for b in heresy_bound(state, str(go.data["religion"]))
                    if room(state, b.card) > taken.get(b.card, 0)]
        return []

    def apply(self, ctx: Ctx, go: Go, action: Action) -> None:
        # A go past its proposals (the vote, counted) takes no move: refused as the proposals are.
        moves = STAGE_MOVES.get(go.stage, STAGE_MOVES[LOSSES])
        if action not in self.legal(ctx.state, go):
            raise IllegalAction(moves.code, moves.sentence)
        moves.of(action)(ctx, go, action)

    def passive(self, state: SevenState, go: Go) -> Action:
        return self.legal(state, go)[-1] if go.stage == LIFT else self.legal(state, go)[0]


def _pick(ctx: Ctx, go: Go) -> None:
    """The card picked: its value in levels to lose between the religion's empires (L1662)."""
    refill(ctx, 1)
    s = ctx.state
    value = 0
    if s.deck:
        card = s.deck[0]
        value = load_deck().cards[card].value
        ctx.state = replace(s, deck=s.deck[1:], discard=(*s.discard, card))
        ctx.emit("heresy_card", seat=go.seat, empire=go.empire, card=card, value=value)
    bound = heresy_bound(ctx.state, str(go.data["religion"]))
    levels = min(value, sum(room(ctx.state, b.card) for b in bound))
    go = replace(go, stage=LOSSES, data={**go.data, "levels": levels, "losses": {}})
    ctx.state = ctx.state.with_go(go)
    _vote_when_proposed(ctx, go)


def _vote_when_proposed(ctx: Ctx, go: Go) -> None:
    losses = {int(c): int(n) for c, n in go.data["losses"].items()}
    if sum(losses.values()) < int(go.data["levels"]):
        return
    religion = str(go.data["religion"])
    voters = heresy_voters(ctx.state, go.empire, religion, sum(losses.values()), losses)
    ctx.state = ctx.state.with_go(replace(go, stage=VOTE))
    ballots.open_vote(ctx, HERESY, RULES[HERESY], voters,
                      {"proposer": go.seat, "empire": go.empire, "religion": religion,
                       "losses": {str(c): n for c, n in losses.items() if n}})


def _lift_or_vote(ctx: Ctx, go: Go, action: LiftHeresy) -> None:
    if action.lift:
        lift(ctx, str(go.data["religion"]), go.empire)
        ctx.state = ctx.state.with_go(replace(go, stage=OVER))
    else:
        _pick(ctx, go)


def _one_more_level(ctx: Ctx, go: Go, action: HeresyLoss) -> None:
    key = str(action.empire)
    losses = {**go.data["losses"], key: int(go.data["losses"].get(key, 0)) + 1}
    go = replace(go, data={**go.data, "losses": losses})
    ctx.state = ctx.state.with_go(go)
    _vote_when_proposed(ctx, go)


STAGE_MOVES: Mapping[str, Answers[Callable[[Ctx, Go, Any], None]]] = {
    LIFT: Answers({LiftHeresy: _lift_or_vote}, "vote_action",
                  "Your action is a Heresy vote: remove the heresy or carry out the vote."),
    LOSSES: Answers({HeresyLoss: _one_more_level}, "vote_action", "Your action is a Heresy vote: propose a "
                    "level lost by an empire of that religion with a level to lose."),
}
"""The moves of the vote action's stages, by class: remove the heresy or vote; one more level lost."""


def lift(ctx: Ctx, religion: str, by: int) -> None:
    """The heresy on ``religion`` is discarded (removed by ``by``'s religious leader, or by a vote)."""
    e = holder(ctx.state, religion)
    if e is None:
        return
    arts = list(e.artefacts)
    arts.remove(ARTEFACT)
    ctx.state = ctx.state.with_empire(replace(e, artefacts=tuple(arts)))
    ctx.emit("heresy_removed", empire=e.card, religion=religion, by=by)


def settle(ctx: Ctx, count: ballots.Count) -> None:
    """The proposal counted: carried, the levels are lost and the heresy discarded; failed, it stays."""
    about: dict[str, Any] = dict(count.data)
    if count.carried:
        for card, n in sorted(about["losses"].items()):
            if ctx.state.has_empire(int(card)):
                advance(ctx, int(card), -int(n))
        lift(ctx, str(about["religion"]), int(about["empire"]))
    else:
        ctx.emit("heresy_stays", religion=about["religion"])
    go = ctx.state.go_of(int(about["proposer"]))
    if go is not None and go.stage == VOTE:
        ctx.state = ctx.state.with_go(replace(go, stage=OVER))


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "vote_action":
        who, empire = seat(names, int(d["seat"])), empire_name(int(d["empire"]))
        return f"Heresy: {who}'s {d['action']} action for {empire} is a Vote action ({d['religion']})."
    if event.type == "heresy_card":
        return f"The card picked for the heresy is worth {plural(int(d['value']), 'progress level')}."
    if event.type == "heresy_removed":
        return f"The heresy on {d['religion']} is removed from {empire_name(int(d['empire']))}'s card."
    if event.type == "heresy_stays":
        return f"The heresy on {d['religion']} remains."
    return None


def _lift_label(view: SevenView, action: LiftHeresy) -> Choice:
    return Choice(action, "Remove the heresy (religious leader)" if action.lift else "Carry out the vote")


def _loss_label(view: SevenView, action: HeresyLoss) -> Choice:
    return Choice(action, f"One more level lost by {empire_name(action.empire)}")


LABELS: Mapping[type[Action], Callable[[SevenView, Any], Choice]] = {
    LiftHeresy: _lift_label, HeresyLoss: _loss_label,
}
"""The words of the vote action's moves, by class."""


def _heading(go: GoView) -> str:
    if go["stage"] == LIFT:
        return "your action is a Heresy vote: remove the heresy with your religious leader, or vote"
    losses = go["data"].get("losses", {})
    said = join_words([f"{the_empire(int(c))} {n}" for c, n in sorted(losses.items())]) or "none yet"
    return f"Heresy vote: propose who loses {go['data'].get('levels')} progress levels (so far: {said})"


def register() -> None:
    """Plug the vote action into the actions, its settling into the votes and its words into the game's
    (:mod:`engine.seven_ages.game` calls it once)."""
    for type_ in ("vote_action", "heresy_card", "heresy_removed", "heresy_stays"):
        register_event(type_, _words)
    for cls, label in LABELS.items():
        register_label(cls.kind, label)
    for stage in (LIFT, LOSSES):
        register_go_heading(stage, _heading)
    ballots.on_count(HERESY, settle)
    markers.use_vote_action(HeresyVote())
