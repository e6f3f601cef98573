"""A classic player's current decision: a heading and one labelled choice per legal move.

Built from the player's view and the static rules data only (card and empire
names, the map), never from the state, so no label can carry hidden
information. Seats are named as the platform names them ("alice (Blue)").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Action, Choice, Decision, Names, PlayerId
from engine.history.actions import (
    AttackFleet,
    BuildFort,
    BuyBack,
    Choose,
    Done,
    EndTurn,
    Expand,
    Give,
    Keep,
    ManFleet,
    PlayCard,
)
from engine.history.data import RulesData
from engine.history.spec import SPEC
from engine.history.state import Phase, TurnStep
from engine.history.view import ClassicView, TurnView
from engine.words import plural, roman, shorten

MAX_LABEL = 100

#: What each pending card asks for next (first target, later ones).
_CARD_ASKS: dict[str, tuple[str, str]] = {
    "migrants": ("an empty land for the migrants", "another empty land for the migrants"),
    "civil_war": ("the first land of the enemy empire", "another land of the same empire"),
    "barbarians": ("the barren land they come from", "the next land they attack"),
    "black_death": ("the first area it strikes", "an adjacent area"),
    "famine": ("the area it strikes", "the area it strikes"),
    "treachery": ("the land to betray", "the land to betray"),
    "plague": ("the land it strikes first", "the land it strikes first"),
    "plague_spread": ("the next land it spreads to", "the next land it spreads to"),
    "pestilence": ("the land at its centre", "the land at its centre"),
    "disaster": ("a monument to destroy", "another monument to destroy"),
    "astronomy": ("the sea for the extra fleet", "the sea for the extra fleet"),
}


Labels = Mapping[type[Action], Callable[[Any], Choice]]
"""How each class of move is offered (``Any``: each function takes the class it is filed under)."""


def clip(text: str) -> str:
    return shorten(text, MAX_LABEL)


def _choices(legal: Sequence[Action], labels: Labels) -> tuple[Choice, ...]:
    """Each legal move, labelled by the function of its class."""
    return tuple(labels[type(a)](a) for a in legal)


def _turn(view: ClassicView) -> TurnView:
    """The turn under way, which a view of the turn phase always holds."""
    turn = view["turn"]
    if turn is None:
        raise ValueError("a view of the turn phase holds the turn under way")
    return turn


def _holder(view: ClassicView, land: str, names: Names) -> str:
    stack = view["board"]["armies"].get(land)
    return f" (held by {SPEC.name_in(names, stack[0][0])})" if stack else ""


def decision(
    view: ClassicView, player: PlayerId, legal: Sequence[Action], rules: RulesData, names: Names
) -> Decision:
    # the phase and the step converted at the door: a view that went through JSON holds their strings
    if Phase(view["phase"]) is Phase.DRAW:
        return _draw(view, player, legal, rules, names)
    turn = _turn(view)
    step = TurnStep(turn["step"])
    if step is TurnStep.EVENTS:
        return _events(view, player, legal, rules)
    if step is TurnStep.CARD:
        return _card(view, player, legal, rules, names)
    if step is TurnStep.PICK:
        return _pick(view, player, legal, names)
    if step is TurnStep.REALLOCATE:
        heading = "Reallocation: turn fleets into coins"
        return Decision(player, heading, _choices(legal, {
            Choose: lambda a: Choice(a, clip(f"Turn the fleet in the {a.target} into a coin")),
            Done: lambda a: Choice(a, "Keep the remaining fleets"),
        }))
    if step is TurnStep.NAVAL:
        heading = f"{turn['name']}, Naval Control: fleet battles come before any expansion"
        return Decision(player, heading, _choices(legal, {
            **_NAVAL, Done: lambda a: Choice(a, "Go on to expansion"),
        }))
    return _expand(view, player, legal, rules)


def _draw(view: ClassicView, player: int, legal: Sequence[Action], rules: RulesData,
          names: Names) -> Decision:
    you = view["you"]
    key = you.get("drawn") if you is not None else None
    drawn = rules.empires[key].name if key else "an empire"
    may_keep = Keep(player) in legal
    heading = (f"Keep or give the drawn card {drawn}" if may_keep
               else f"Give the drawn card {drawn} to a player who has no empire card")
    return Decision(player, heading, _choices(legal, {
        Keep: lambda a: Choice(a, clip(f"Keep {drawn}")),
        Give: lambda a: Choice(a, clip(f"Give {drawn} to {SPEC.name_in(names, a.to)}")),
    }))


def _events(view: ClassicView, player: int, legal: Sequence[Action], rules: RulesData) -> Decision:
    turn = _turn(view)
    played = len(turn["played"])
    heading = f"{turn['name']}: play an event card ({played} of 2 played) or start the empire"

    def play(a: PlayCard) -> Choice:
        card = rules.cards[a.card]
        if a.pieces:
            return Choice(a, clip(f"Play {card.name} with epoch {roman(a.pieces)} pieces"),
                          group=clip(f"Play {card.name}"))
        return Choice(a, clip(f"Play {card.name}: {card.text}"))

    return Decision(player, heading, _choices(legal, {
        PlayCard: play,
        Done: lambda a: Choice(a, clip(f"Play no more events: start {turn['name']}")),
    }))


def _card(view: ClassicView, player: int, legal: Sequence[Action], rules: RulesData,
          names: Names) -> Decision:
    turn = _turn(view)
    pending = turn["pending"] or {}
    card = rules.cards[pending["card"]].name if pending.get("card") else "The card"
    chosen = list(pending.get("chosen") or [])
    effect = str(pending.get("effect", ""))
    first, later = _CARD_ASKS.get(effect, ("a target", "another target"))
    most = (turn["needs"] or [1, 1])[1]
    if effect == "barbarians" and chosen:
        heading = f"{card}: choose {later} (from {chosen[0]})"
    elif effect == "plague_spread":
        heading = f"{card}: choose {later}"
    elif most > 1:
        heading = f"{card}: choose {first if not chosen else later}, {len(chosen) + 1} of {most}"
    else:
        heading = f"{card}: choose {first}"
    stop = ("Take the card back into your hand" if not chosen
            else f"Stop here with {plural(len(chosen), 'target')}")
    return Decision(player, heading, _choices(legal, {
        Choose: lambda a: Choice(a, clip(f"{a.target}{_holder(view, a.target, names)}")),
        Done: lambda a: Choice(a, stop),
    }))


def _pick(view: ClassicView, player: int, legal: Sequence[Action], names: Names) -> Decision:
    pick = _turn(view)["pick"]
    if pick is None:
        raise ValueError("a view of the pick step holds the pick under way")
    what, left = pick["what"], pick["left"]
    manned = view["board"]["manned"]
    if what == "monument":
        number = len(pick["chosen"]) + 1
        heading = f"Monument {number} of {number + left - 1}: choose the land where it rises"
    elif what == "unman":
        heading = (f"Fleet markers run short: choose the manned fleets that leave the board, "
                   f"{left} left to choose")
    else:
        heading = f"Fleet markers run short: choose the fleets to keep, {left} left to choose"
    structures = view["board"]["structures"]

    def label(a: Choose) -> Choice:
        if what == "monument":
            kind = structures.get(a.target)
            return Choice(a, clip(f"Build it in {a.target}" + (f" ({kind})" if kind else "")))
        if what == "unman":
            owner = manned.get(a.target)
            whose = SPEC.name_in(names, owner[0]) if owner else "nobody"
            return Choice(a, clip(f"Take off the fleet of {whose} in the {a.target}"))
        return Choice(a, clip(f"Keep the fleet in the {a.target}"))

    return Decision(player, heading, _choices(legal, {Choose: label}))


_NAVAL: Labels = {
    AttackFleet: lambda a: Choice(a, clip(f"Attack the fleet in the {a.sea}"), group="Naval Control"),
    ManFleet: lambda a: Choice(a, clip(f"Put an army on your fleet in the {a.sea}"), group="Naval Control"),
}
"""The Naval Control moves, in the naval step and while expanding."""


def _expand(view: ClassicView, player: int, legal: Sequence[Action], rules: RulesData) -> Decision:
    turn = _turn(view)
    pool, restricted = turn["pool"], turn["restricted"]
    left = plural(pool, "army", "armies") + (f" and {restricted} Allies armies" if restricted else "")
    coins = turn["coins"] + turn["allies_coins"]
    heading = f"{turn['force']}: expand, {left} left" + (f", {plural(coins, 'coin')}" if coins else "")
    unspent = pool + restricted
    confirm = (f"You still have {plural(unspent, 'army', 'armies')} in your pool. End anyway?"
               if unspent else "")
    targets = turn["targets"]

    def expand(a: Expand) -> Choice:
        dice = targets.get(a.land, 0)
        battle = f" (battle: the defender rolls {plural(dice, 'die', 'dice')})" if dice else ""
        # Grouped by area: a two-step pick (area, then land) keeps long lists short.
        area = rules.map.lands[a.land].area or "the barren lands"
        return Choice(a, clip(f"Expand into {a.land}{battle}"), group=f"Expand in {area}")

    return Decision(player, heading, _choices(legal, {
        Expand: expand,
        BuildFort: lambda a: Choice(a, clip(f"Build a fort in {a.land}"), group="Build a fort"),
        BuyBack: lambda a: Choice(a, "Spend a coin to bring a lost army back to the pool"),
        EndTurn: lambda a: Choice(a, "End the turn: build monuments and score", confirm=confirm),
        Done: lambda a: Choice(a, clip(f"Finish {turn['force']}"), confirm=confirm),
        **_NAVAL,
    }))
