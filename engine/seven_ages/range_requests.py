"""Asking to count Range through other empires' areas before a play (L2233), one empire after another.

"Your empire can't count range *through* (it may count into) another empire's area unless ... that empire
gives its permission. In return it may demand cards and/or money from your empire, which you must supply
immediately if you accept" (L2233). Where Range decides whether a card may be played (option 8's targets,
L1222; an assassin's "within Range", L885), the play's route
(:func:`engine.seven_ages.range_permission.route`) names the empires it counts through; before the play
happens each of them is asked in turn, lowest card first, with the canal's answers
(:class:`~engine.seven_ages.manoeuvre_moves.CanalAnswer`): no, yes or a price in money, answered by the
keeper's player as a pending decision or ahead by its standing ``range`` preference. A price goes to the
player as a pending decision of its own (:class:`~engine.seven_ages.manoeuvre_moves.PayToll`)
and is paid at once by the empire whose Range counts. When every keeper has let it through, the play goes on
through the resume its place registered (:func:`register`); a refusal or an unpaid price ends the request,
nothing is played, the card stays in the hand, and its player alone is told which card, in one sentence.

The request is public ("the Romans ask the Carthaginians to count range through their areas, to play a card
on the Etruscans"), the card is not: a card kept in the hand after a refusal must stay secret.
The request lives in ``Go.data["range_request"]`` of the go the play is made in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, IllegalAction, Names
from engine.seven_ages.answers import Answers
from engine.seven_ages.decision import register_pending_heading
from engine.seven_ages.manoeuvre_moves import REFUSE, TOLLS, CanalAnswer, PayToll
from engine.seven_ages.production import add_money
from engine.seven_ages.range_permission import Route, standing
from engine.seven_ages.state import Go, Pending, SevenState
from engine.seven_ages.steps import Ctx
from engine.seven_ages.text import empire_name, register_event, the_empire
from engine.seven_ages.text import seat as seat_name
from engine.seven_ages.view import PendingView, SevenView
from engine.words import join_words

ASK, PAY = "range_ask", "range_pay"
"""The pending decisions: a keeper's player answers; the player pays the price asked, or not."""
KINDS = (ASK, PAY)
REQUEST = "range_request"
"""Where the request under way is kept: ``Go.data["range_request"]``."""
REFUSED = "range_refused"
"""Go data: ``[seat, target]`` of each request refused this go (public: requests and answers are announced):
that route stays closed for the rest of the go, so no player (nor a computer one) asks over and over."""

Resume = Callable[[Ctx, Go, Mapping[str, Any]], None]
"""What carries the play out once every keeper has let it through (or, for a refusal, what goes on instead):
the go the request was made in and what its player chose."""
_RESUMES: dict[str, Resume] = {}
_REFUSALS: dict[str, Resume] = {}


def register(key: str, resume: Resume, refused: Resume | None = None) -> None:
    """Let a granted request hand its play back to ``resume`` (one key per place plays are made); with
    ``refused``, what goes on after a refusal (an event window asks the same seat again)."""
    _RESUMES[key] = resume
    if refused is not None:
        _REFUSALS[key] = refused


def asking(go: Go) -> bool:
    """Whether a request is under way in ``go``."""
    return bool(go.data.get(REQUEST))


def start(ctx: Ctx, go: Go, route: Route, key: str, chosen: Mapping[str, Any], target: int,
          what: str, asker: int | None = None) -> None:
    """Ask each of ``route``'s keepers in turn before the play ``chosen`` (its ``card`` among them) on the
    empire ``target`` (0: none) goes on through the resume registered as ``key``; ``what``: the play's name
    for its player alone (Earthquake); ``asker``: that player's seat when not the go's (an event window's)."""
    request = {"start": route.start, "keepers": list(route.keepers), "next": 0, "key": key,
               "chosen": dict(chosen), "target": target, "what": what,
               "asker": go.seat if asker is None else asker}
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, REQUEST: request}))
    _next(ctx, go.seat)


def _request(ctx: Ctx, seat: int) -> tuple[Go, dict[str, Any]]:
    go = ctx.state.go_of(seat)
    assert go is not None and asking(go)
    return go, dict(go.data[REQUEST])


def _store(ctx: Ctx, go: Go, request: dict[str, Any] | None) -> Go:
    new = replace(go, data={**go.data, REQUEST: request})
    ctx.state = ctx.state.with_go(new)
    return new


def _next(ctx: Ctx, seat: int) -> None:
    """Ask the next keeper; with none left, the play goes on."""
    go, request = _request(ctx, seat)
    keepers, i = list(request["keepers"]), int(request["next"])
    if i >= len(keepers):
        go = _store(ctx, go, None)
        _RESUMES[str(request["key"])](ctx, go, request["chosen"])
        return
    keeper = int(keepers[i])
    start_ = int(request["start"])
    if not ctx.state.has_empire(keeper):  # gone from play: its areas no longer stand in the way
        _store(ctx, go, {**request, "next": i + 1})
        _next(ctx, seat)
        return
    k = ctx.state.empire(keeper)
    ctx.emit("range_requested", seat=int(request["asker"]), empire=start_, keeper=keeper,
             target=int(request["target"]))
    rule = standing(ctx.state, k)
    if rule == "ask":
        ask = {"empire": start_, "keeper": keeper, "target": int(request["target"])}
        ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(ASK, k.owner, go.empire,
                                                                            {"ask": ask})))
        return
    answer = REFUSE if rule == "no" else 0 if rule == "yes" else int(rule)
    ctx.emit("range_request_answered", seat=k.owner, empire=keeper, asker=start_, answer=answer)
    _answered(ctx, seat, answer)


def _answered(ctx: Ctx, seat: int, answer: int) -> None:
    go, request = _request(ctx, seat)
    keeper = int(request["keepers"][int(request["next"])])
    if answer == REFUSE:
        asker = empire_name(int(request["start"]))
        _refused(ctx, go, request, f"{empire_name(keeper)} refused to let {asker} count range through their "
                 "areas")
    elif answer == 0:
        _store(ctx, go, {**request, "next": int(request["next"]) + 1})
        _next(ctx, seat)
    else:
        ask = {"empire": int(request["start"]), "keeper": keeper, "money": answer}
        _store(ctx, go, {**request, "price": answer})
        ctx.state = replace(ctx.state, pending=(*ctx.state.pending, Pending(PAY, int(request["asker"]),
                                                                            go.empire, {"ask": ask})))


def refused(go: Go, seat: int, target: int) -> bool:
    """Whether ``seat``'s request to reach ``target`` was refused in ``go`` (its plays there not offered)."""
    return [seat, target] in go.data.get(REFUSED, [])


def not_again(go: Go, seat: int, target: int) -> None:
    """Refuse, in one sentence, a play on a target whose request was refused in ``go``."""
    if refused(go, seat, target):
        raise IllegalAction("refused_this_go", "Your request to count Range through another empire's "
                            f"areas to {empire_name(target)} was refused this go (or its price not paid): no "
                            "card goes there before the go ends.")


def _refused(ctx: Ctx, go: Go, request: Mapping[str, Any], why: str) -> None:
    """The request ends: nothing is played, the card stays in the hand; its player alone reads which."""
    go = _store(ctx, go, None)
    asker = int(request["asker"])
    done = [asker, int(request["target"])]
    ctx.state = ctx.state.with_go(replace(go, data={**go.data, REFUSED: [*go.data.get(REFUSED, []), done]}))
    if request["what"]:  # a window's play names its card in its own words (its go is another seat's)
        ctx.emit("range_play_refused", (asker,), seat=asker, card=int(request["chosen"]["card"]),
                 what=str(request["what"]), target=int(request["target"]), why=why)
    then = _REFUSALS.get(str(request["key"]))
    if then is not None:
        then(ctx, ctx.state.go_of(go.seat) or go, request["chosen"])


def pending_legal(state: SevenState, pending: Pending) -> list[Action]:
    """A keeper's answers (no, yes, a price), or the player's: pay the price if the empire can, or not."""
    if pending.kind == ASK:
        return [CanalAnswer(pending.seat, REFUSE), CanalAnswer(pending.seat, 0),
                *(CanalAnswer(pending.seat, t) for t in TOLLS)]
    ask = pending.data["ask"]
    money = state.empire(int(ask["empire"])).money if state.has_empire(int(ask["empire"])) else 0
    pay = [PayToll(pending.seat, True)] if money >= int(ask["money"]) else []
    return [*pay, PayToll(pending.seat, False)]


def passive(pending: Pending) -> Action:
    """A request not answered in time is refused, as at a canal; a price not answered is not paid."""
    return CanalAnswer(pending.seat, REFUSE) if pending.kind == ASK else PayToll(pending.seat, False)


def move(ctx: Ctx, go: Go, pending: Pending, action: Action) -> None:
    """A keeper's answer or the player's payment, for the request under way in ``go``, by the handler its
    pending's kind files its class under (:data:`ANSWERS`)."""
    ANSWERS[pending.kind].of(action)(ctx, go, pending, action)


def _answer(ctx: Ctx, go: Go, pending: Pending, action: CanalAnswer) -> None:
    if action.answer != REFUSE and action.answer != 0 and action.answer not in TOLLS:
        raise IllegalAction("bad_answer", "Answer no, yes, or a price of "
                            f"{', '.join(str(t) for t in TOLLS[:-1])} or {TOLLS[-1]} money.")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    ask = pending.data["ask"]
    ctx.emit("range_request_answered", seat=action.player, empire=int(ask["keeper"]),
             asker=int(ask["empire"]), answer=action.answer)
    _answered(ctx, go.seat, action.answer)


def _pay(ctx: Ctx, go: Go, pending: Pending, action: PayToll) -> None:
    """Pay at once (L2233: "which you must supply immediately if you accept") and go on, or not and stop."""
    ask = pending.data["ask"]
    payer, keeper, money = int(ask["empire"]), int(ask["keeper"]), int(ask["money"])
    go, request = _request(ctx, go.seat)
    if not action.accept:
        ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
        _refused(ctx, go, request, f"you did not pay the {money} money {empire_name(keeper)} asked")
        return
    e = ctx.state.empire(payer)
    if e.money < money:
        raise IllegalAction("too_poor", f"{the_empire(e.card)} have {e.money} money: the price is {money}.")
    ctx.state = replace(ctx.state, pending=tuple(p for p in ctx.state.pending if p is not pending))
    ctx.state = ctx.state.with_empire(add_money(e, -money))
    if ctx.state.has_empire(keeper):
        ctx.state = ctx.state.with_empire(add_money(ctx.state.empire(keeper), money))
    ctx.emit("range_paid", seat=pending.seat, empire=payer, keeper=keeper, money=money)
    _store(ctx, go, {**request, "next": int(request["next"]) + 1, "price": None})
    _next(ctx, go.seat)


ANSWERS: Mapping[str, Answers[Callable[[Ctx, Go, Pending, Any], None]]] = {
    ASK: Answers({CanalAnswer: _answer}, "answer_first",
                 "Answer the request to count range through your areas first."),
    PAY: Answers({PayToll: _pay}, "pay_first", "Pay the price for counting range, or refuse it, first."),
}
"""The answers each kind of request takes, by class: the keeper's (no, yes, a price), the player's (pay)."""


# -- words ------------------------------------------------------------------------------------------

def asking_words(keepers: Sequence[int]) -> str:
    """The note on a play whose route needs permissions: "asking the Carthaginians"."""
    return f"asking {join_words([empire_name(k) for k in keepers])}"


def _on(target: int) -> str:
    return f"on {empire_name(target)}" if target else "here"


def _words(event: Event, names: Names) -> str | None:
    d = event.data
    if event.type == "range_requested":
        return (f"{the_empire(int(d['empire']))} ask {empire_name(int(d['keeper']))} to count range through "
                f"their areas, to play a card {_on(int(d['target']))}.")
    if event.type == "range_request_answered":
        answer = int(d["answer"])
        if answer == REFUSE:
            what = "refuse"
        elif answer == 0:
            what = "agree"
        else:
            what = f"ask {answer} money"
        return (f"{the_empire(int(d['empire']))} {what} when {empire_name(int(d['asker']))} ask to count "
                "range through their areas.")
    if event.type == "range_play_refused":
        return (f"{seat_name(names, int(d['seat']))}: {d['what']} is not played, for {d['why']}; the card "
                "stays in your hand.")
    return None


def _heading(view: SevenView, pending: PendingView, who: str) -> str:
    ask = pending["ask"]
    if pending["kind"] == ASK:
        return (f"{who}: {empire_name(int(ask['empire']))} ask {empire_name(int(ask['keeper']))} to count "
                f"range through their areas, to play a card {_on(int(ask['target']))}: answer no, yes or a "
                "price")
    return (f"{who}: {empire_name(int(ask['keeper']))} ask {ask['money']} money of "
            f"{empire_name(int(ask['empire']))} to count range through their areas: pay it and play, or not")


for _type in ("range_requested", "range_request_answered", "range_play_refused"):
    register_event(_type, _words)
for _kind in KINDS:
    register_pending_heading(_kind, _heading)
