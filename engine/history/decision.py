"""A classic player's current decision: a heading and one labelled choice per legal move.

Built from the player's view and the static rules data only (card and empire
names, the map), never from the state, so no label can carry hidden
information. Seats are named as the platform names them ("alice (Blue)").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def clip(text: str) -> str:
    return shorten(text, MAX_LABEL)


def _holder(view: Mapping[str, Any], land: str, names: Names) -> str:
    stack = view["board"]["armies"].get(land)
    return f" (held by {SPEC.name_in(names, stack[0][0])})" if stack else ""


def decision(
    view: Mapping[str, Any], player: PlayerId, legal: Sequence[Action], rules: RulesData, names: Names
) -> Decision:
    if view["phase"] == "draw":
        return _draw(view, player, legal, rules, names)
    turn = view["turn"]
    step = turn["step"]
    if step == "events":
        return _events(view, player, legal, rules)
    if step == "card":
        return _card(view, player, legal, rules, names)
    if step == "pick":
        return _pick(view, player, legal, names)
    if step == "reallocate":
        heading = "Reallocation: turn fleets into coins"
        return Decision(player, heading, tuple(_simple(a, {
            "choose": lambda a: f"Turn the fleet in the {a.target} into a coin",
            "done": lambda a: "Keep the remaining fleets",
        }) for a in legal))
    if step == "naval":
        heading = f"{turn['name']}, Naval Control: fleet battles come before any expansion"
        return Decision(player, heading, tuple(_naval(a) or _simple(a, {
            "done": lambda a: "Go on to expansion",
        }) for a in legal))
    return _expand(view, player, legal, rules)


def _simple(action: Action, labels: Mapping[str, Any]) -> Choice:
    return Choice(action, clip(labels[action.kind](action)))


def _draw(view: Mapping[str, Any], player: int, legal: Sequence[Action], rules: RulesData,
          names: Names) -> Decision:
    you = view["you"] or {}
    drawn = rules.empires[you["drawn"]].name if you.get("drawn") else "an empire"
    may_keep = any(isinstance(a, Keep) for a in legal)
    heading = (f"Keep or give the drawn card {drawn}" if may_keep
               else f"Give the drawn card {drawn} to a player who has no empire card")
    choices = []
    for a in legal:
        if isinstance(a, Keep):
            choices.append(Choice(a, clip(f"Keep {drawn}")))
        elif isinstance(a, Give):
            choices.append(Choice(a, clip(f"Give {drawn} to {SPEC.name_in(names, a.to)}")))
    return Decision(player, heading, tuple(choices))


def _events(view: Mapping[str, Any], player: int, legal: Sequence[Action], rules: RulesData) -> Decision:
    turn = view["turn"]
    played = len(turn["played"])
    heading = f"{turn['name']}: play an event card ({played} of 2 played) or start the empire"
    choices = []
    for a in legal:
        if isinstance(a, PlayCard):
            card = rules.cards[a.card]
            if a.pieces:
                choices.append(Choice(a, clip(f"Play {card.name} with epoch {roman(a.pieces)} pieces"),
                                      group=clip(f"Play {card.name}")))
            else:
                choices.append(Choice(a, clip(f"Play {card.name}: {card.text}")))
        elif isinstance(a, Done):
            choices.append(Choice(a, clip(f"Play no more events: start {turn['name']}")))
    return Decision(player, heading, tuple(choices))


def _card(view: Mapping[str, Any], player: int, legal: Sequence[Action], rules: RulesData,
          names: Names) -> Decision:
    turn = view["turn"]
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
    choices = []
    for a in legal:
        if isinstance(a, Choose):
            choices.append(Choice(a, clip(f"{a.target}{_holder(view, a.target, names)}")))
        elif isinstance(a, Done):
            label = ("Take the card back into your hand" if not chosen
                     else f"Stop here with {plural(len(chosen), 'target')}")
            choices.append(Choice(a, label))
    return Decision(player, heading, tuple(choices))


def _pick(view: Mapping[str, Any], player: int, legal: Sequence[Action], names: Names) -> Decision:
    pick = view["turn"]["pick"]
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
    choices = []
    for a in legal:
        assert isinstance(a, Choose)
        if what == "monument":
            kind = structures.get(a.target)
            label = f"Build it in {a.target}" + (f" ({kind})" if kind else "")
        elif what == "unman":
            owner = manned.get(a.target)
            whose = SPEC.name_in(names, owner[0]) if owner else "nobody"
            label = f"Take off the fleet of {whose} in the {a.target}"
        else:
            label = f"Keep the fleet in the {a.target}"
        choices.append(Choice(a, clip(label)))
    return Decision(player, heading, tuple(choices))


def _naval(a: Action) -> Choice | None:
    if isinstance(a, AttackFleet):
        return Choice(a, clip(f"Attack the fleet in the {a.sea}"), group="Naval Control")
    if isinstance(a, ManFleet):
        return Choice(a, clip(f"Put an army on your fleet in the {a.sea}"), group="Naval Control")
    return None


def _expand(view: Mapping[str, Any], player: int, legal: Sequence[Action], rules: RulesData) -> Decision:
    turn = view["turn"]
    pool, restricted = turn["pool"], turn["restricted"]
    left = plural(pool, "army", "armies") + (f" and {restricted} Allies armies" if restricted else "")
    coins = turn["coins"] + turn["allies_coins"]
    heading = f"{turn['force']}: expand, {left} left" + (f", {plural(coins, 'coin')}" if coins else "")
    unspent = pool + restricted
    confirm = (f"You still have {plural(unspent, 'army', 'armies')} in your pool. End anyway?"
               if unspent else "")
    targets = turn["targets"]
    choices = []
    for a in legal:
        if isinstance(a, Expand):
            dice = targets.get(a.land, 0)
            battle = f" (battle: the defender rolls {plural(dice, 'die', 'dice')})" if dice else ""
            # Grouped by area: a two-step pick (area, then land) keeps long lists short.
            area = rules.map.lands[a.land].area or "the barren lands"
            choices.append(Choice(a, clip(f"Expand into {a.land}{battle}"), group=f"Expand in {area}"))
        elif isinstance(a, BuildFort):
            choices.append(Choice(a, clip(f"Build a fort in {a.land}"), group="Build a fort"))
        elif isinstance(a, BuyBack):
            choices.append(Choice(a, "Spend a coin to bring a lost army back to the pool"))
        elif isinstance(a, EndTurn):
            choices.append(Choice(a, "End the turn: build monuments and score", confirm=confirm))
        elif isinstance(a, Done):
            choices.append(Choice(a, clip(f"Finish {turn['force']}"), confirm=confirm))
        else:
            naval = _naval(a)
            assert naval is not None, a
            choices.append(naval)
    return Decision(player, heading, tuple(choices))
