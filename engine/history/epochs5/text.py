"""The 5-epoch rules in words: one sentence per event, the status, a hand, the board and the final summary.

Every function reads a player's view (or an event) and the public rules data
(card names and texts, the map); players are named only through ``names``,
the platform's name for each seat ("alice (Blue)").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, Names
from engine.history.epochs5.data import Rules
from engine.history.epochs5.state import Phase, TurnStep
from engine.history.epochs5.view import BoardView, Epochs5View, TurnView
from engine.words import article, dice, first_place, join_words, plural, pronoun, roman, the, verb, winners

STRUCTURE_WORDS = {"capitol": "a capitol", "city": "a city", "monument": "a monument"}
#: Why an army left the board, as the events say it.
WHY_WORDS = {
    "battle": "lost in battle",
    "replaced by your active army": "replaced by its owner's active army",
    "diplomacy": "replaced by Diplomacy",
    "revolution": "overthrown by a revolution",
    "barbarians": "overrun by barbarians",
}
PREF_WORDS = {
    ("reroll", "if_losing"): "as defender against a fleet, reroll your die when it is losing",
    ("reroll", "if_not_winning"): "as defender against a fleet, reroll your die when it is losing or tied",
    ("reroll", "never"): "as defender against a fleet, never reroll",
    ("track", "ask"): "when your score marker lands on another, ask you",
    ("track", "up"): "when your score marker lands on another, gain points until it stands alone",
    ("track", "down"): "when your score marker lands on another, lose points until it stands alone",
}


# -- cards ------------------------------------------------------------------------------------
def card_name(rules: Rules, key: str) -> str:
    """The name of an event card or an empire (the key itself if neither)."""
    if key in rules.events:
        return rules.events[key].name
    if key in rules.empires:
        return rules.empires[key].name
    return key


def empire_line(rules: Rules, key: str) -> str:
    """An empire (or a kingdom's front) in a line: armies, start, capitol or torch, aids, effect."""
    emp = rules.empires[key]
    parts = [plural(emp.armies, "army", "armies"), "starting in " + join_words(list(emp.starts))]
    if emp.marauder:
        parts.append("marauder (torch, no capitol)")
    elif emp.structure:
        parts.append(emp.structure)
    if emp.fleets:
        parts.append("fleets in " + join_words([f"the {w}" for w in emp.fleets]))
    if emp.caravans:
        parts.append("caravans in " + join_words(list(emp.caravans)))
    line = ", ".join(parts)
    if emp.effect_name:
        line += f"; {emp.effect_name}: {emp.effect_text}"
    return line


def kingdom(name: str) -> str:
    """A kingdom card's name in a sentence: "the Kingdom of Kush", "the Ghana Empire", but "the
    kingdom Srivijaya" (never "the kingdom Kingdom of Kush")."""
    return the(name) if any(w in name for w in ("Kingdom", "Empire", "Republic")) else f"the kingdom {name}"


def card_line(rules: Rules, key: str) -> str:
    """What a card is and does, in a line."""
    if key in rules.events:
        card = rules.events[key]
        if card.kingdom is not None:
            front = empire_line(rules, card.kingdom.key)
            return f"kingdom of Epoch {roman(card.epoch)}: {card.text} ({front})"
        saved = " (may be saved for a later epoch)" if card.savable else ""
        return f"enhancement of Epoch {roman(card.epoch)}{saved}: {card.text}"
    if key in rules.empires:
        emp = rules.empires[key]
        return f"empire of Epoch {roman(emp.epoch)}, called {emp.order} of 8: {empire_line(rules, key)}"
    return key


# -- events -------------------------------------------------------------------------------------
def _structures(d: Mapping[str, Any]) -> str:
    parts = []
    for kind, word in (("capitols", "capitol"), ("cities", "city"), ("monuments", "monument")):
        if d.get(kind):
            parts.append(plural(len(d[kind]), word, "cities" if word == "city" else None))
    return join_words(parts)


def _scored(rules: Rules, d: Mapping[str, Any], names: Names) -> str:
    regions = [f"{level_word(r['level'])} in {region} ({r['points']})" for region, r in d["regions"].items()]
    parts = regions + ([f"{_structures(d)} held"] if _structures(d) != "nothing" else [])
    what = join_words(parts) if parts else "no region and no structure"
    return f"{names[d['player']]} scores {plural(int(d['total']), 'point')}: {what}."


def level_word(level: str) -> str:
    return {"presence": "presence", "dominance": "dominance", "supremacy": "supremacy"}.get(level, level)


def _established(d: Mapping[str, Any]) -> str:
    name = str(d["name"])
    line = (
        f"{the(name, start=True)} {verb(name, 'rises', 'rise')} in {join_words(list(d['starts']))} with "
        f"{plural(d['armies'], 'army', 'armies')} more on the card"
    )
    extras = []
    if d.get("siege_tokens"):
        extras.append(plural(d["siege_tokens"], "siege token") + " (the supply ran short)")
    if d.get("fleets"):
        extras.append("fleets in " + join_words([f"the {w}" for w in d["fleets"]]))
    if d.get("caravans"):
        extras.append("caravans in " + join_words(list(d["caravans"])))
    if extras:
        line += ", " + join_words(extras)
    return line + ("; marauders, with no capitol." if d.get("marauder") else ".")


def _battle(rules: Rules, d: Mapping[str, Any], names: Names) -> str:
    """Who invades, both rolls with every bonus named, and the totals as the dice fell: "Battle for
    Volga: alice (Red) rolls 5 and 3 (+1 from the catapult); bob (Blue) defends with 6 (+1 for the
    forest): 6 to 7 as rolled."."""
    bonus = int(d.get("attacker_bonus") or 0)
    catapult = min(int(d.get("catapult") or 0), bonus)
    parts = ([f"{catapult} from the catapult"] if catapult else []) + (
        [f"{bonus - catapult} from the empire and its cards"] if bonus > catapult else [])
    att_bonus = (f" (+{bonus}: {join_words(parts)})" if len(parts) > 1
                 else f" (+{parts[0]})" if parts else "")
    terrain = rules.map.lands[d["land"]].terrain if d["land"] in rules.map.lands else "terrain"
    def_bonus = f" (+1 for the {terrain})" if d.get("terrain") else ""
    att = max(d["attacker_dice"]) + bonus
    dfd = max(d["defender_dice"]) + (1 if d.get("terrain") else 0)
    notes = (["the fort gives the defender two dice"] if d.get("fortified") else []) + (
        ["from the sea, the defender may reroll"] if d.get("naval") else [])
    tail = f" ({'; '.join(notes)})" if notes else ""
    return (
        f"Battle for {d['land']}{tail}: {names[d['attacker']]} rolls {dice(d['attacker_dice'])}{att_bonus}; "
        f"{names[d['defender']]} defends with {dice(d['defender_dice'])}{def_bonus}: "
        f"{att} to {dfd} as rolled."
    )


def _battle_result(d: Mapping[str, Any], names: Names) -> str:
    score = f"{d['attacker_total']} to {d['defender_total']}"
    if d["outcome"] == "win":
        return f"{names[d['player']]} wins the battle for {d['land']} ({score})."
    if d["outcome"] == "loss":
        return f"{names[d['defender']]} holds {d['land']} ({score}): the invader must siege or retreat."
    return f"Tie at {d['land']} ({score}): both armies fall and the territory is empty."


def _reduced(d: Mapping[str, Any]) -> str:
    if d["structure"] == "capitol":
        return f"The capitol in {d['land']} is reduced to a city."
    return f"The {d['structure']} in {d['land']} is destroyed."


def _occupied(d: Mapping[str, Any], names: Names) -> str:
    how = {"diplomacy": " by diplomacy", "revolution": " by revolution", "barbarians": " with barbarians"}
    tail = " (a resigned army)" if d.get("resigned") else ""
    return f"{names[d['player']]} now holds {d['land']}{how.get(str(d.get('why')), '')}{tail}."


def _removed(d: Mapping[str, Any], names: Names) -> str:
    why = str(d.get("why", ""))
    if why.startswith("start of "):
        words = f"cleared for {the(why[len('start of ') :])}"
    else:
        words = WHY_WORDS.get(why, why or "removed")
    return f"{names[d['owner']]}'s army in {d['land']} goes back to the supply ({words})."


def _epoch(d: Mapping[str, Any], names: Names) -> str:
    order = [names[p] for p in d["order"]]
    line = (
        f"{d['name']} begins: event cards go from the most points down ({join_words(order)}), "
        "empire cards from the fewest up."
    )
    tokens = [f"{t['region']} {t['value']}" for t in d.get("region_tokens", [])]
    return line + (f" New region tokens: {', '.join(tokens)}." if tokens else "")


def _points(d: Mapping[str, Any], names: Names) -> str:
    why = {"turn": " for the turn", "marauder": " as a marauder, for a structure reduced"}.get(
        str(d["why"]), ""
    )
    return f"{names[d['player']]} gains {plural(int(d['points']), 'point')}{why}."


def _track(d: Mapping[str, Any], names: Names) -> str:
    verb = "gains" if d["direction"] == "up" else "loses"
    standing = " (standing preference)" if d.get("standing") else ""
    return (
        f"{names[d['player']]}'s score marker shared a space: {names[d['player']]} {verb} points to stand "
        f"alone on {d['score']}{standing}."
    )


def _pref(d: Mapping[str, Any]) -> str:
    return f"Your preference is set: {PREF_WORDS.get((d['key'], d['value']), d['key'] + ' ' + d['value'])}."


Wording = Callable[[Rules, Mapping[str, Any], Names], str | None]

#: One wording per event type the engine emits (a test checks every emitted type is here).
EVENTS: dict[str, Wording] = {
    "epoch": lambda r, d, n: _epoch(d, n),
    "drew": lambda r, d, n: f"{n[d['player']]} draws the top {d['pile']} card.",
    "your_draw": lambda r, d, n: (
        f"You drew the {d['pile']} card {card_name(r, d['card'])}: keep it or give it "
        "to a player without one."
    ),
    "drafted": lambda r, d, n: f"{n[d['player']]} keeps one of the {d['pile']} cards and passes the rest.",
    "you_drafted": lambda r, d, n: f"You keep {card_name(r, d['card'])}.",
    "sets_passed": lambda r, d, n: "Both sets of cards are passed on.",
    "kept": lambda r, d, n: (
        f"{n[d['player']]} keeps the {d['pile']} card drawn"
        + (" (nobody else may take it)." if d.get("forced") else ".")
    ),
    "given": lambda r, d, n: (
        f"{n[d['player']]} gives the {d['pile']} card drawn to {n[d['to']]}"
        + (" (the only one who may take it)." if d.get("forced") else ".")
    ),
    "you_received": lambda r, d, n: (
        f"You keep {card_name(r, d['card'])}."
        if d["giver"] == d["player"]
        else f"{n[d['giver']]} gives you {card_name(r, d['card'])}."
    ),
    "your_empire": lambda r, d, n: f"Your empire this epoch: {the(card_name(r, d['empire']))}.",
    "turn": lambda r, d, n: f"{n[d['player']]} reveals {the(d['name'])} and takes the catapult.",
    "empire_not_chosen": lambda r, d, n: (
        f"Nobody chose {the(d['name'])}: {pronoun(d['name'])} {verb(d['name'], 'is', 'are')} not called."
    ),
    "kingdom": lambda r, d, n: f"{n[d['player']]} plays {kingdom(d['name'])} before the empire.",
    "kingdom_skipped": lambda r, d, n: f"{n[d['player']]} does not play a kingdom.",
    "siege_tokens": lambda r, d, n: f"{n[d['player']]} takes {plural(d['count'], 'siege token')}.",
    "army_removed": lambda r, d, n: _removed(d, n),
    "fort_removed": lambda r, d, n: f"The fort in {d['land']} is removed.",
    "structure_removed": lambda r, d, n: f"The {d['structure']} in {d['land']} is removed.",
    "structure_placed": lambda r, d, n: (
        f"{STRUCTURE_WORDS[d['structure']].capitalize()} is placed in {d['land']}."
    ),
    "supply_out": lambda r, d, n: f"The supply has no {d['piece']} left: {d['land']} gets no {d['piece']}.",
    "established": lambda r, d, n: _established(d),
    "invaded": lambda r, d, n: (
        f"{n[d['player']]} invades {d['land']}"
        + (" by fleet" if d.get("route") == "sea" else "")
        + (f", held by {n[d['defender']]}: battle." if d.get("battle") else ".")
    ),
    "battle": lambda r, d, n: _battle(r, d, n),
    "rerolled": lambda r, d, n: f"{n[d['player']]} rerolls a {d['old']} and gets a {d['new']}.",
    "reroll_passed": lambda r, d, n: f"{n[d['player']]} lets the dice stand.",
    "battle_result": lambda r, d, n: _battle_result(d, n),
    "must_retreat": lambda r, d, n: f"{n[d['player']]} has no army or siege token left to siege {d['land']}.",
    "retreat": lambda r, d, n: f"{n[d['player']]} retreats from {d['land']}.",
    "siege": lambda r, d, n: (
        f"Siege of {d['land']}: {article(d['piece']) if d.get('piece') else 'a piece'} goes "
        f"on the catapult (+{d['catapult']})."
    ),
    "catapult_emptied": lambda r, d, n: "The siege ends: the catapult is emptied.",
    "occupied": lambda r, d, n: _occupied(d, n),
    "reduced": lambda r, d, n: _reduced(d),
    "fort_built": lambda r, d, n: f"A fort is built in {d['land']}.",
    "monument_built": lambda r, d, n: f"A monument is built in {d['land']}.",
    "monument_unbuilt": lambda r, d, n: (
        f"No territory of {n[d['player']]}'s active armies can take a monument: it is not built."
    ),
    "points": lambda r, d, n: _points(d, n),
    "track_moved": lambda r, d, n: _track(d, n),
    "armies_returned": lambda r, d, n: (
        f"{n[d['player']]} stops invading: "
        f"{plural(d['armies'], 'army', 'armies')} on the card go back to the supply"
        + (f" and {plural(d['siege_tokens'], 'siege token')} are removed." if d.get("siege_tokens") else ".")
    ),
    "empire_stood_down": lambda r, d, n: (
        f"{the(d['name'], start=True)} {verb(d['name'], 'falls', 'fall')} into decline: "
        f"{n[d['player']]}'s armies are resigned."
    ),
    "card_returned": lambda r, d, n: f"{card_name(r, d['card'])} goes back to the box.",
    "scored": lambda r, d, n: _scored(r, d, n),
    "turn_over": lambda r, d, n: f"{n[d['player']]}'s turn is over, with {plural(d['score'], 'point')}.",
    "card_discarded": lambda r, d, n: (
        f"{card_name(r, d['card'])} is discarded: it cannot be kept past its epoch."
    ),
    "hand_size": lambda r, d, n: f"{n[d['player']]} holds {plural(d['cards'], 'event card')}.",
    "event_played": lambda r, d, n: f"{n[d['player']]} plays {card_name(r, d['card'])}.",
    "reinforced": lambda r, d, n: (
        f"{n[d['player']]} puts {plural(d['armies'], 'army', 'armies')} more on the card."
    ),
    "fleet_placed": lambda r, d, n: f"A fleet is placed in {d['water']}.",
    "caravan_placed": lambda r, d, n: f"A caravan is placed in {d['land']}.",
    "preference": lambda r, d, n: _pref(d),
    # The platform tells the end of the game itself, with summary_text.
    "game_over": lambda r, d, n: None,
}


def describe_event(rules: Rules, event: Event, names: Names) -> str | None:
    """One sentence for an event, or None for the end of the game (the platform tells it)."""
    wording = EVENTS.get(event.type)
    return None if wording is None else wording(rules, event.data, names)  # None: unknown (the contract)


# -- the status, a hand, the board, the end --------------------------------------------------------
def stage(view: Epochs5View) -> str:
    # the phase converted at the door: a view that went through JSON holds its string
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        return "Game over"
    if phase is Phase.DRAFT:
        return f"{view['epoch_name']}, choosing cards"
    return view["epoch_name"]


def _scores(view: Epochs5View, names: Names) -> str:
    order = sorted(range(view["players"]), key=lambda p: -view["scores"][p])
    return ", ".join(f"{names[p]} {view['scores'][p]}" for p in order)


def _winner(view: Epochs5View, names: Names) -> str:
    ranking = view["ranking"] or sorted(range(view["players"]), key=lambda p: -view["scores"][p])
    first = first_place(view["places"], ranking)
    each = " each" if len(first) > 1 else ""
    return f"{winners(first, names)}, with {plural(view['scores'][first[0]], 'point')}{each}."


def _step_words(tn: TurnView, names: Names) -> str:
    """Whose turn it is and what they are doing, as a clause: "alice (Red)'s Assyrians invade, ..."."""
    who = f"{names[tn['player']]}'s {tn['name']}"
    are = verb(tn["name"], "is", "are")
    step = TurnStep(tn["step"])
    b = tn["battle"]
    if step is TurnStep.KINGDOM:
        return f"{who} {are} called; {names[tn['player']]} decides whether to play a kingdom first"
    if step in (TurnStep.REROLL, TurnStep.SIEGE) and b:
        totals = f"{b['totals'][0]} to {b['totals'][1]}"
        return f"{who} {are} fighting for {b['land']} ({totals} as the dice stand)"
    if step is TurnStep.TARGET:
        source = str((tn["pending"] or {}).get("source"))
        what = {"monument": "a monument goes", "empire": "their forts go"}.get(source, "a card takes effect")
        return f"{who}: {names[tn['player']]} chooses where {what}"
    if step is TurnStep.TRACK:
        return f"{who}: {names[tn['player']]} moves the score marker off an occupied space"
    tokens = f" and {plural(tn['siege_tokens'], 'siege token')}" if tn["siege_tokens"] else ""
    left = f"{plural(tn['armies'], 'army', 'armies')}{tokens} left on the card"
    if tn["force_kind"] == "kingdom":
        force = kingdom(str(tn["force_name"])).removeprefix("the ")
        return f"{names[tn['player']]}'s {force} invades before {the(tn['name'])}, {left}"
    return f"{who} {verb(tn['name'], 'invades', 'invade')}, {left}"


def status_text(rules: Rules, view: Epochs5View, names: Names) -> str:
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        return f"Game over after Epoch V. Final scores: {_scores(view, names)}. {_winner(view, names)}"
    d = view["draft"]
    if phase is Phase.DRAFT and d is not None:
        waiting = []
        if d["event_holder"] in view["actors"]:
            waiting.append(f"{names[d['event_holder']]} to keep an event card")
        if d["empire_holder"] in view["actors"]:
            waiting.append(f"{names[d['empire_holder']]} to keep an empire card")
        now = f"waiting for {join_words(waiting)}" if waiting else "the cards are being dealt"
        return f"{stage(view)}: {now}. Scores: {_scores(view, names)}."
    tn = view["turn"]
    if tn is None:
        return f"{stage(view)}. Scores: {_scores(view, names)}."
    return f"{stage(view)}: {_step_words(tn, names)}. Scores: {_scores(view, names)}."


def hand_text(rules: Rules, view: Epochs5View, player: int, names: Names) -> str:
    you = view["you"]
    if you is None or you["player"] != player:
        return f"{names[player]}'s cards are hidden."
    lines = []
    if you["hand"]:
        lines.append("You hold " + plural(len(you["hand"]), "event card") + ":")
        lines += [f"- {card_name(rules, c)} ({card_line(rules, c)})" for c in you["hand"]]
    else:
        lines.append("You hold no event cards.")
    empire = you["empire"]
    if empire:
        lines.append(
            f"Your empire this epoch: {the(card_name(rules, empire))} ({empire_line(rules, empire)})."
        )
    choosing = you.get("choosing")
    if choosing:
        lines.append(f"In front of you, {choosing['pile']} cards to choose from:")
        lines += [f"- {card_name(rules, c)} ({card_line(rules, c)})" for c in choosing["cards"]]
    prefs = [PREF_WORDS.get((k, v), f"{k} {v}") for k, v in sorted(you["prefs"].items())]
    if prefs:
        lines.append("Your standing preferences: " + "; ".join(prefs) + ".")
    return "\n".join(lines)


def _marks(board: BoardView, land: str) -> list[str]:
    """The pieces in a territory besides its army: capitol or city, monument, fort."""
    marks = [board["structures"][land]] if land in board["structures"] else []
    return marks + [m for m, where in (("monument", board["monuments"]), ("fort", board["forts"]))
                    if land in where]


def board_text(rules: Rules, view: Epochs5View, names: Names) -> str:
    board = view["board"]
    tn = view["turn"]
    active = tn["force"] if tn else None
    held: dict[int, list[str]] = {}
    for land in sorted(board["armies"]):
        owner, force = board["armies"][land]
        marks = _marks(board, land)
        if force and force == active:
            marks.insert(0, f"active {card_name(rules, force)}")
        held.setdefault(owner, []).append(land + (f" ({', '.join(marks)})" if marks else ""))
    lines = [f"{view['epoch_name']}."]
    tokens = [f"{region} {t['value']}" for region, t in sorted(view["region_tokens"].items())]
    lines.append("Region values this epoch: " + (", ".join(tokens) if tokens else "none") + ".")
    for p in range(view["players"]):
        lands = held.get(p, [])
        lines.append(
            f"{names[p]} holds {plural(len(lands), 'territory', 'territories')}"
            + (": " + "; ".join(lands) if lands else "")
            + "."
        )
    empty = sorted(set(board["structures"]) | set(board["monuments"]) | set(board["forts"]))
    empty = [land for land in empty if land not in board["armies"]]
    if empty:
        lines.append(
            "Unoccupied: " + "; ".join(f"{land} ({', '.join(_marks(board, land))})" for land in empty) + "."
        )
    if tn and (tn["fleets"] or tn["caravans"]):
        aids = [f"fleets in {join_words(tn['fleets'])}"] if tn["fleets"] else []
        aids += [f"caravans in {join_words(tn['caravans'])}"] if tn["caravans"] else []
        force = str(tn["force_name"])
        lines.append(f"{the(force, start=True)} {verb(force, 'has', 'have')} {join_words(aids)}.")
    return "\n".join(lines)


def summary_text(view: Epochs5View, names: Names) -> str:
    """Final scores with what each is made of (the start space and each epoch's gains), and the winner."""
    history: Sequence[Sequence[int]] = view["epoch_scores"]
    lines = ["Final scores (the Epoch I figure includes the starting space):"]
    order = view["ranking"] or sorted(range(view["players"]), key=lambda p: -view["scores"][p])
    for p in order:
        parts, before = [], None
        for epoch, scores in enumerate(history, start=1):
            gained = scores[p] - before if before is not None else scores[p]
            parts.append(f"{'+' if before is not None else ''}{gained} in Epoch {roman(epoch)}")
            before = scores[p]
        made = f" ({', '.join(parts)})" if parts else ""
        lines.append(f"- {names[p]}: {view['scores'][p]}{made}")
    lines.append(_winner(view, names))
    return "\n".join(lines)


def place_text(rules: Rules, view: Epochs5View, place: str, names: Names) -> str | None:
    """One territory from the public board: its region and the region's token this epoch, terrain
    and resource, the army standing there and whose it is, what is built, its waters and its
    neighbours. None when no territory is called ``place``."""
    wmap = rules.map
    name = wmap.land_named(place)
    if name is None:
        return None
    info = wmap.lands[name]
    board = view["board"]
    if info.area is None:
        head = f"{name}: a barren territory (in no region)."
    else:
        token = view["region_tokens"].get(info.area)
        worth = (f"its token is worth {token['value']} this epoch" if token
                 else "it has no token this epoch")
        head = f"{name}: a territory of {info.area} ({worth})."
    lines = [head, f"Terrain: {info.terrain}; resource: {'yes' if info.resource else 'no'}."]
    army = board["armies"].get(name)
    if army:
        owner, force = army
        whose = f" of {the(card_name(rules, force))}" if force else ""
        lines.append(f"Held by {names[int(owner)]}: an army{whose}.")
    else:
        lines.append("Held by nobody: no army stands here.")
    marks = _marks(board, name)
    lines.append("Built here: " + (join_words([f"a {m}" for m in marks]) if marks else "nothing") + ".")
    lines.append("Waters: " + (join_words(sorted(info.waters)) if info.waters else "none (inland)") + ".")
    near = []
    for other in sorted(wmap.neighbours(name)):
        kind = wmap.border(name, other)
        near.append(other + (f" ({kind.replace('_', ' ')})" if kind else ""))
    lines.append("Neighbours: " + (join_words(near) if near else "none") + ".")
    return "\n".join(lines)
