"""A player's current decision in the 5-epoch rules: a heading and one labelled choice per legal move.

Built from the player's view (and the public card and map data) only. The
invasion labels carry what the engine computed for the view: the route
(border, caravan, fleet, beside a battle won) and, for a battle, the chance to
win the first roll. Moves that end something with pieces unused (stopping with
armies on the card, skipping a kingdom that cannot be saved, leaving targets
unchosen) ask to confirm.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.core import Action, Choice, Decision, Names, PlayerId
from engine.history.epochs5 import text
from engine.history.epochs5.actions import (
    Accept,
    Choose,
    Done,
    Draft,
    Fortify,
    Give,
    Invade,
    Keep,
    PlayEvent,
    Reroll,
    Retreat,
    Siege,
    Stop,
    Track,
)
from engine.history.epochs5.battle import CATAPULT_SPACES
from engine.history.epochs5.data import Rules
from engine.history.epochs5.reach import SEA
from engine.history.epochs5.spec import SPEC
from engine.history.epochs5.state import Phase, TurnStep
from engine.history.epochs5.track import space
from engine.history.epochs5.view import BattleView, Choosing, Epochs5View, Invasion, TurnView
from engine.words import join_words, plural, pronoun, shorten, the, verb

MAX_LABEL = 100
INVADE, FORTIFY, ENHANCE = "Invade", "Fortify", "Play an enhancement"
TARGET_WORDS = {
    "fortify": "A fort in {}",
    "fortify_per_resource": "A fort in {}",
    "monument": "A monument in {}",
    "city": "A city in {}",
    "fleet": "A fleet in {}",
    "caravan": "A caravan in {}",
    "diplomacy": "Replace the army in {}",
    "revolution": "Overthrow the army in {}",
    "barbarians": "Barbarians into {}",
    "disaster": "Disaster strikes {}",
}


Labels = Mapping[type[Action], Callable[[Any], Choice]]
"""How each class of move is offered (``Any``: each function takes the class it is filed under)."""


def clip(label: str, limit: int = MAX_LABEL) -> str:
    return shorten(label, limit)


def _choices(legal: Sequence[Action], labels: Labels) -> list[Choice]:
    """Each legal move, labelled by the function of its class."""
    return [labels[type(a)](a) for a in legal]


A = TypeVar("A", bound=Action)


def _moves(legal: Sequence[Action], cls: type[A]) -> list[A]:
    """The legal moves of one class (what a heading counts or names)."""
    return [a for a in legal if isinstance(a, cls)]


def unique(choices: list[Choice]) -> tuple[Choice, ...]:
    """Labels clipped to 100 characters and made unique (a repeat gets " (2)", " (3)"...)."""
    seen: dict[str, int] = {}
    out = []
    for choice in choices:
        label = clip(choice.label)
        if label in seen:
            seen[label] += 1
            suffix = f" ({seen[label]})"
            label = clip(choice.label, MAX_LABEL - len(suffix)) + suffix
        seen.setdefault(label, 1)
        out.append(Choice(choice.action, label, choice.group, choice.confirm))
    return tuple(out)


def decision(rules: Rules, view: Epochs5View, player: PlayerId, legal: Sequence[Action],
             names: Names) -> Decision:
    """``player``'s decision: ``legal`` headed and labelled from ``view``."""
    # the phase converted at the door: a view that went through JSON holds its string
    if Phase(view["phase"]) is Phase.DRAFT:
        heading, choices = _draft(rules, view, legal, names)
    else:
        heading, choices = _turn(rules, view, _turn_of(view), legal)
    return Decision(player, heading, unique(choices))


# -- choosing cards ----------------------------------------------------------------------------------
def _turn_of(view: Epochs5View) -> TurnView:
    """The turn under way, which a view of the turn phase always holds."""
    tn = view["turn"]
    if tn is None:
        raise ValueError("a view of the turn phase holds the turn under way")
    return tn


def _draft(rules: Rules, view: Epochs5View, legal: Sequence[Action],
           names: Names) -> tuple[str, list[Choice]]:
    you = view["you"]
    choosing = (you.get("choosing") if you is not None else None) or Choosing(pile="", cards=[])
    pile = choosing["pile"]
    epoch = view["epoch_name"]
    if not view["options"].get("classic_drafting"):
        # every move is a card of the set to keep
        drafts = len(legal)
        heading = (f"{epoch}: keep one of the {drafts} {pile} cards in front of you; the rest pass on"
                   if drafts > 1 else f"{epoch}: keep the last {pile} card in front of you")
        return heading, _choices(legal, {
            Draft: lambda a: Choice(a, f"{text.card_name(rules, a.card)}: {_short(rules, a.card)}"),
        })
    drawn = choosing["cards"][0] if choosing["cards"] else ""
    name = text.card_name(rules, drawn)
    heading = (
        f"{epoch}: you drew the {pile} card {name} ({text.card_line(rules, drawn)}): keep it or give it "
        "to a player without one"
    )
    return heading, _choices(legal, {
        Keep: lambda a: Choice(a, f"Keep {name}"),
        Give: lambda a: Choice(a, f"Give {name} to {SPEC.name_in(names, a.to)}"),
    })


def _short(rules: Rules, key: str) -> str:
    """A card's gist for a label: an empire's armies, start and icon; an event's text."""
    if key in rules.events and rules.events[key].kingdom is None:
        return rules.events[key].text
    emp = rules.empires[key] if key in rules.empires else rules.events[key].kingdom
    assert emp is not None
    icon = "marauder" if emp.marauder else emp.structure or "no capitol"
    kind = "kingdom, " if key in rules.events else ""
    effect = f", {emp.effect_name}" if emp.effect_name else ""
    return f"{kind}{plural(emp.armies, 'army', 'armies')}, {' and '.join(emp.starts)}, {icon}{effect}"


# -- the turn ------------------------------------------------------------------------------------------
def _turn(rules: Rules, view: Epochs5View, tn: TurnView,
          legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    step = TurnStep(tn["step"])
    if step is TurnStep.KINGDOM:
        return _kingdom(rules, tn, legal)
    if step is TurnStep.TARGET:
        return _target(rules, tn, legal)
    if step is TurnStep.REROLL:
        return _reroll(tn, _battle(tn), legal)
    if step is TurnStep.SIEGE:
        return _siege(tn, _battle(tn), legal)
    if step is TurnStep.TRACK:
        return _track(view, tn, legal)
    return _invade(rules, tn, legal)


def _kingdom(rules: Rules, tn: TurnView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    names = join_words([text.card_name(rules, a.card) for a in _moves(legal, PlayEvent)])
    empire = str(tn["name"])
    them = "them" if pronoun(empire) == "they" else "it"
    heading = (f"{the(empire, start=True)} {verb(empire, 'is', 'are')} called: play your kingdom {names} "
               f"before {them}, or skip it")
    return heading, _choices(legal, {
        PlayEvent: lambda a: Choice(
            a, f"Play {text.kingdom(text.card_name(rules, a.card))} ({_short(rules, a.card)})"),
        Done: lambda a: Choice(
            a, "Skip the kingdom", confirm=f"Skip {names}? A kingdom cannot be saved for a later epoch."),
    })


def _invade(rules: Rules, tn: TurnView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    kingdom = tn["force_kind"] == "kingdom"
    tokens = f" and {plural(tn['siege_tokens'], 'siege token')}" if tn["siege_tokens"] else ""
    heading = (
        f"{the(str(tn['force_name']), start=True)}{' (your kingdom)' if kingdom else ''}: "
        f"{plural(tn['armies'], 'army', 'armies')}{tokens} on the card. Invade, "
        + ("fortify or stop" if kingdom else "fortify, play an enhancement or stop")
    )
    invasions = {i["land"]: i for i in tn["invasions"]}
    stop = (
        "Stop: the kingdom resigns, then your empire begins"
        if kingdom
        else "Stop invading: build monuments, resign, score"
    )
    left = [plural(tn["armies"], "army", "armies")] if tn["armies"] else []
    left += [plural(tn["siege_tokens"], "siege token")] if tn["siege_tokens"] else []
    confirm = f"Stop with {join_words(left)} still on the card? They go back to the supply." if left else ""
    return heading, _choices(legal, {
        Invade: lambda a: Choice(a, _invade_label(invasions.get(a.land), a), group=INVADE),
        Fortify: lambda a: Choice(a, f"Fortify {a.land} (costs an army from the card)", group=FORTIFY),
        PlayEvent: lambda a: Choice(
            a, f"Play {text.card_name(rules, a.card)}: {rules.events[a.card].text}", group=ENHANCE),
        Stop: lambda a: Choice(a, stop, confirm=confirm),
    })


def _invade_label(inv: Invasion | None, action: Invade) -> str:
    if inv is None:
        return f"Invade {action.land}"
    route = action.route if action.route != "auto" else inv["routes"][0]
    if action.route == SEA or (route == SEA and len(inv["routes"]) == 1):
        how = "by fleet"
    else:
        ways = [w for w in inv["ways"] if w != "fleet"] or inv["ways"]
        how = "by " + " or ".join(ways)
    if inv["battle"]:
        naval = " (naval: the defender may reroll)" if route == SEA else ""
        what = f"battle, {inv['odds'].get(route, 0)}% to win the first roll{naval}"
    elif inv["holder"] is not None:
        what = "your resigned army returns to the supply"
    else:
        what = "empty"
    return f"Invade {action.land} {how}: {what}"


def _target(rules: Rules, tn: TurnView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    pending = tn["pending"] or {}
    effect = str(pending.get("effect", ""))
    left = int(pending.get("left", 0))
    if pending.get("source") == "monument":
        heading = (
            f"Build {plural(left, 'monument')}: choose the territory (the best sites of your active armies, "
            "capitol first, then city, then resource)"
        )
        what = "monument"
    elif pending.get("source") == "empire":
        emp = rules.empires[tn["empire"]]
        heading = f"{emp.effect_name or emp.name}: a fort for each resource territory, {left} left to place"
        what = "fort"
    else:
        heading = f"{text.card_name(rules, str(pending.get('card')))}: choose a target, {left} left"
        what = "target"
    words = TARGET_WORDS.get(effect, "{}")
    done = "Done: place no more" if what == "fort" else "Done: no more targets"
    unused = f"Leave {plural(left, what)} unused?" if left else ""
    return heading, _choices(legal, {
        Choose: lambda a: Choice(a, words.format(a.target)),
        Done: lambda a: Choice(a, done, confirm=unused),
    })


def _battle(tn: TurnView) -> BattleView:
    """The battle under way, which a view of the reroll and siege steps always holds."""
    b = tn["battle"]
    if b is None:
        raise ValueError("a view of the reroll or siege step holds the battle under way")
    return b


def _battle_words(b: BattleView) -> str:
    terrain = " (+1 terrain)" if b["terrain"] else ""
    return (
        f"your dice {join_words([str(v) for v in b['att']])} against "
        f"{join_words([str(v) for v in b['dfd']])}{terrain}: {b['totals'][0]} to {b['totals'][1]}"
    )


def _reroll(tn: TurnView, b: BattleView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    heading = f"Battle for {b['land']}, {_battle_words(b)}. Reroll one of your dice, or let them stand"
    return heading, _choices(legal, {
        Reroll: lambda a: Choice(a, f"Reroll die {a.die + 1} (a {b['att'][a.die]})"),
        Accept: lambda a: Choice(a, "Let the dice stand"),
    })


def _siege(tn: TurnView, b: BattleView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    piece = "a siege token" if tn["siege_tokens"] else "an army"
    bonus = min(tn["catapult"] + 1, CATAPULT_SPACES)
    left = [plural(tn["armies"], "army", "armies"), plural(tn["siege_tokens"], "siege token")]
    heading = (
        f"You lost the battle for {b['land']} ({_battle_words(b)}). Siege or retreat? "
        f"({join_words(left)} on the card)"
    )
    return heading, _choices(legal, {
        Siege: lambda a: Choice(a, f"Siege: {piece} on the catapult, fight again at +{bonus}"),
        Retreat: lambda a: Choice(a, f"Retreat from {b['land']}"),
    })


def _track(view: Epochs5View, tn: TurnView, legal: Sequence[Action]) -> tuple[str, list[Choice]]:
    at = int((tn["track"] or {}).get("at", 0))
    player = tn["player"]
    taken = {space(s) for p, s in enumerate(view["scores"]) if p != player}
    heading = (
        f"Your score marker would land on {at}, where another marker stands: gain or lose points until alone"
    )

    def move(a: Track) -> Choice:
        step = 1 if a.direction == "up" else -1
        end = at
        while space(end) in taken:
            end += step
        word = "Gain" if step > 0 else "Lose"
        return Choice(a, f"{word} {plural(abs(end - at), 'point')}: stand on {end}")

    return heading, _choices(legal, {Track: move})
