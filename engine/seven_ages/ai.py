"""Computer players for 7 Ages: the random baseline and a greedy player that plays a game to its end.

The greedy player keeps simple habits, each a rule of thumb rather than a search, aimed at progress
(the game ends when an empire passes level 49) and glory:

- preparing to play: it bids and puts out (option 2) its lowest-value card and is happy with the
  sifted cards;
- markers (:mod:`engine.seven_ages.marker_ai`, the players' notes): each empire's by where its glory
  comes from (production for money and units, trade for progress, civilise for cities, artefacts and
  religion, manoeuvre for areas when it has room), Production for a sparse or poor one and Trade in a
  dark age without a Scientist (free progress stops, L1026); the additional marker is Start empire only
  while it holds a card the rules let it start now, else Destiny, where it throws out the cards it can
  no longer start (all but one when it can start none, L2305); it discards an empire that earned under 3
  glory at its last two harvests when it is at its most empires and holds a card to start instead (L2353);
- it turns every marker over it can; it starts the eligible empire with the most glory categories to
  harvest for the most levels before the end (:func:`_start_score`: an empire started in age 7 on an
  empty map would end the game within a few turns); it sets up a named leader, and builds the
  cheapest units while it keeps a reserve for upkeep;
- trading, it picks the partner of the notes (:mod:`engine.seven_ages.trade_ai`: a lower trade number
  than its own, then higher on the track, L2337-2343), plays its highest card when its own empire
  trades (the higher card wins the levels, L569) and its lowest as a partner, takes every level it may
  and keeps the best card drawn;
- in its own Production, Trade or Destiny go it plays, as the go begins, the events that only gain its
  empire (money, a higher income, cheaper units, a trade bonus, Oracle bones' better hand, discarding
  its lowest card) and keeps those that cost it (:func:`event_ai.own_go_event`);
- civilising, it plays artefacts, then events that hurt the glory leader or help itself, or give it
  glory on the empire of the player with the least (Non-violence) (:mod:`engine.seven_ages.event_ai`,
  which also answers the events' questions), adopts religions and governments and builds cities (each
  earns glory or glory categories), and keeps leaders drawn;
- at any move it arms each card timed for another empire's go (the raids, Corrupt administration,
  Closed country) on the glory leader's empire it costs most (:func:`armed_ai.greedy_order`);
- at the end of a turn it buys glory with money beyond a reserve;
- every other turn an empire that can expand takes Manoeuvre (in a dark age it trades instead), and
  moves one unit at a time into the vacant land areas next to its stacks, the richest first; it
  removes every disorder its units can (:func:`_manoeuvre`); as its go begins it plays a manoeuvre
  event that ends the disorder of one of its areas (Long march), the richest, and Cataract on an area
  of its next to the glory leader's units, and Conquistadors when it means to attack this go (its +1
  counts in the attack's first round); it keeps the plain movement bonuses (a card in hand is a
  future empire, bid or trade card, worth more than a point of movement to a player moving one area at
  a time); it lets other empires' ships through its canals for a toll;
- at a border (an area next to another player's units) it shows the unit with the best front value on
  top of its stack (fog of war, L791: the strongest-looking unit deters); elsewhere it keeps the
  default top (:func:`_top_unit`);
- it plays for its cards' glory (:mod:`engine.seven_ages.glory_ai`, L2309, L2331): land toward the areas its
  categories count, ships to sea and built first for a card paying for seas, money kept (an army of
  :data:`MONEY_ARMY`) for a card paying for money, artefacts and religions on its own empire that pays for
  them, the religion its card pays for adopted first, and a new empire away from crowded start areas
  (:data:`CROWD`);
- otherwise it takes the first legal move (the step's own order).

The random player now and then (one move in :data:`RESTACK_ODDS`) shows another unit on top of one of
its stacks, arms a standing order on a card it holds (one move in :data:`ARM_ODDS`,
:func:`armed_ai.random_order`), and plays one of the events a decision offers (one such decision in
:data:`EVENT_ODDS`). The greedy player arms orders against the glory leader (:func:`armed_ai.greedy_order`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import policy, rng
from engine.core import Action, PlayerId
from engine.policy import Policy, PolicyRng, legal
from engine.seven_ages import (
    armed_ai,
    cancel_ai,
    cancels,
    event_ai,
    fog,
    glory_ai,
    harvest_ai,
    harvest_events,
    marker_ai,
    pacify,
    trade_ai,
    voter_ai,
)
from engine.seven_ages.actions import (
    Bid,
    Build,
    BuildElite,
    ChooseLeader,
    DiscardCard,
    Done,
    Fortify,
    Pass,
    PlaceMarker,
    SiftVote,
    StartCard,
    TurnMarker,
)
from engine.seven_ages.ballots import BALLOT
from engine.seven_ages.battle import COMMIT, FIGHT, LOSSES, NOMINATE, RAZE, RETREAT, SCATTER
from engine.seven_ages.battle_ai import (
    attack_into,
    attack_plan,
    commit_choice,
    event_choice,
    may_attack,
    retreat_choice,
)
from engine.seven_ages.battle_ai import pending_passive as conflict_passive
from engine.seven_ages.cards import load_deck
from engine.seven_ages.civilisation_moves import (
    Adopt,
    BuyGlory,
    KeepLeader,
    PlayArtefact,
    PlayEvent,
    TradeCard,
    TradeKeep,
    TradeLevels,
    TradeWith,
    Urbanise,
)
from engine.seven_ages.data import load_tables
from engine.seven_ages.game import GAME
from engine.seven_ages.groups import expansions
from engine.seven_ages.manoeuvre_moves import (
    LAND,
    SHIPS,
    CanalAnswer,
    EndMovement,
    MoveAll,
    MoveBack,
    MoveFrom,
    MoveTo,
    MoveUnits,
    StopHere,
    TopUnit,
)
from engine.seven_ages.map import load_map
from engine.seven_ages.movement import mode_of, terrain_of
from engine.seven_ages.pacify import PACIFY
from engine.seven_ages.production import empire_age, unit_cost
from engine.seven_ages.start import progress_options
from engine.seven_ages.state import CIVILISE, EXTRA, PAST_THE_END, Empire, Go, SevenState
from engine.seven_ages.window import EVENT

ARMY = 12  # units an empire builds up to before it saves for forts and elite markers
MONEY_ARMY = 6  # ... and one whose card pays for money, which ranks the money it keeps (L1032, L1046)
RESERVE = 4  # money kept back beyond a unit's price, for next production's maintenance
GLORY_RESERVE = 20  # money an empire keeps when it buys glory at the end of a turn
CANAL_TOLL = 10  # what it asks of other empires' ships to pass its canal
RESTACK_ODDS = 20  # the random player shows another unit on top about once in this many moves
ARM_ODDS = 20  # ... and arms an order on a card it holds about once in this many moves (when it can)
CROWD = 3  # other empires' units around a start area that cost a new empire one glory a turn (ours)
EVENT_ODDS = 4  # ... and plays an event about once in this many decisions that offer one


class RandomPolicy(policy.RandomPolicy):
    """Uniform over the legal actions, but never a Pass while a marker can still be turned (a random
    player that skips half its actions teaches nothing about the rules)."""

    game = GAME

    def choose(self, state: SevenState, player: PlayerId) -> Action:
        restacks = fog.restacks(state, player)
        if restacks and rng.below(self._rng, RESTACK_ODDS) == 0:
            return restacks[rng.below(self._rng, len(restacks))]
        # drawn only while it holds a card to arm, so games without one play as they did
        if armed_ai.unarmed(state, player) and rng.below(self._rng, ARM_ODDS) == 0 and \
                (order := armed_ai.random_order(state, player, self._rng)) is not None:
            return order
        actions = legal(self.game, state, player)
        # an event is one choice among dozens in Civilise: drawn alone now and then, so every card is played
        plays = [a for a in actions if isinstance(a, PlayEvent)]
        if plays and rng.below(self._rng, EVENT_ODDS) == 0:
            return plays[rng.below(self._rng, len(plays))]
        turning = [a for a in actions if not isinstance(a, Pass)]
        pool = turning if any(isinstance(a, TurnMarker) for a in actions) else actions
        return pool[rng.below(self._rng, len(pool))]


def _value(card: int) -> tuple[int, int]:
    deck = load_deck().cards
    return (deck[card].value if card in deck else 0, card)


def _marker(state: SevenState, player: PlayerId, places: Sequence[PlaceMarker]) -> Action:
    where = places[0].empire
    room = where != EXTRA and _may_expand(state, state.empire(where))
    return marker_ai.choose(state, player, places, room)


def _may_expand(state: SevenState, e: Empire) -> bool:
    """Every other turn, an empire out of the dark ages with a stack of two or more land units next to a
    vacant land area manoeuvres (the area is income and glory it does not hold yet)."""
    if state.turn % 2 or (e.progress in load_tables().dark_ages and not e.has_leader("Scientist")):
        return False
    if glory_ai.sea_room(state, e):  # a ship next to a vacant sea, for a card that pays for seas
        return True
    wmap = load_map()
    return any(e.count(a) >= 2 and wmap.areas[a].land and any(
        wmap.areas[n].land and (not state.occupants(n) or may_attack(state, e, a, n))
        for n in wmap.adjacency[a]) for a in e.areas())


def _area_worth(state: SevenState, e: Empire, area: str) -> tuple[int, int, str]:
    """What holding ``area`` is worth to ``e``: the glory categories of its card it adds to (L2331), then
    its income and city."""
    tables = load_tables()
    income = tables.terrains[terrain_of(area, empire_age(e))].income if load_map().areas[area].land else 0
    return glory_ai.area_glory(state, e, area), income + state.area(area).city, area


def _manoeuvre(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> Action | None:
    """The greedy player's move in its Manoeuvre go: expand one unit at a time into the richest vacant
    land area next to a stack, then end movement; remove every disorder it can."""
    go = state.go_of(player)
    if go is None or go.action != "manoeuvre":
        return None
    if go.stage == PACIFY:  # every disorder it can, the cheapest unit going with each
        return pacify.computer_move(state, go)
    if go.stage in (FIGHT, NOMINATE, RAZE):
        return None  # the areas in the order offered; the next seat defends; a city taken is kept
    e = state.empire(go.empire)
    group = go.data.get("group")
    deck = load_deck().cards
    marches: list[PlayEvent] = [
        a for a in actions if isinstance(a, PlayEvent) and a.area and state.area(a.area).disorder
        and any(x["code"] == "remove_disorder" for x in deck[a.card].event.effects)]
    if marches:  # an event ending the disorder of one of its areas, as the go begins
        return max(marches, key=lambda a: _area_worth(state, e, a.area))
    if dams := _cataracts(state, player, actions):  # the leader's way into its land made dearer
        return max(dams, key=lambda a: _area_worth(state, e, a.area))
    charges = [a for a in actions if isinstance(a, PlayEvent)
               and any(x["code"] == "conflict_bonus" for x in deck[a.card].event.effects)]
    if charges and attack_plan(state, go) is not None:  # Conquistadors: its +1 counts in the attack's round
        return charges[0]
    if not group and not go.data.get("second") and (plan := attack_plan(state, go)) is not None:
        return next(a for a in actions if isinstance(a, MoveFrom) and a.area == plan[0])
    if group and not group["units"] and (plan := attack_plan(state, go)) is not None and \
            plan[0] == group["from"]:
        # every land unit that may leave (the cheapest stays, L668), as attack_plan weighed them; never a
        # ship alone: it cannot enter the land area attacked, and stopping it where it stands began the go
        # over, picking the same stack again without end (seed 15 of the census)
        whole: list[Action] = [a for a in actions if isinstance(a, MoveAll) and a.mode == LAND]
        land = [a for a in actions if isinstance(a, MoveUnits) and mode_of(a.unit) == LAND]
        if whole or land:
            return whole[0] if whole else max(land, key=lambda a: a.count)
    if group and group["units"] and not group["path"]:
        target = attack_into(state, go, group, [a.area for a in actions if isinstance(a, MoveTo)])
        if target is not None:
            return MoveTo(player, target)
    if not group:
        targets = _targets(state, go)
        if not targets:
            return next(a for a in actions if isinstance(a, EndMovement))
        origin = max(targets, key=lambda t: _area_worth(state, e, t[2]))[0]
        return next(a for a in actions if isinstance(a, MoveFrom) and a.area == origin)
    if group["path"]:
        return next((a for a in actions if isinstance(a, (StopHere, MoveBack))), None) or actions[0]
    if not group["units"]:
        here = [t for t in _targets(state, go) if t[0] == group["from"]]
        unit = max(here, key=lambda t: _area_worth(state, e, t[2]))[1] if here else ""
        return next((a for a in actions if isinstance(a, MoveUnits) and a.unit == unit and a.count == 1),
                    actions[0])
    wmap = load_map()
    onto_land = mode_of(next(iter(group["units"]))) != SHIPS  # a ship goes to sea, a land unit onto land
    into = [a for a in actions if isinstance(a, MoveTo) and wmap.areas[a.area].land == onto_land
            and not state.occupants(a.area)]
    if into:
        return max(into, key=lambda a: _area_worth(state, e, a.area) if isinstance(a, MoveTo) else (0, 0, ""))
    return next(a for a in actions if isinstance(a, StopHere))


def _targets(state: SevenState, go: Go) -> list[tuple[str, str, str]]:
    """``(from, unit, to)``: a land unit into vacant land next to it, and, for a card that pays for seas, a
    ship into a vacant sea (L1104)."""
    return expansions(state, go) + glory_ai.sea_targets(state, go)


def _cataracts(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> list[PlayEvent]:
    """Plays of an event that makes entering an area dearer for the rest of the turn (Cataract) on one of
    its areas next to the glory leader's units: the leader's attack or expansion into it costs more (the
    opponent's loss); next to anyone else's, the card is kept."""
    deck, wmap = load_deck().cards, load_map()
    leader = event_ai.glory_leader(state, player)
    return [a for a in actions if isinstance(a, PlayEvent) and a.area and not a.target
            and {x["code"] for x in deck[a.card].event.effects} == {"move_cost"}
            and any(o.owner == leader for n in wmap.adjacency[a.area] for o in state.occupants(n))]


def _top_unit(state: SevenState, player: PlayerId) -> TopUnit | None:
    """The greedy player's fog of war: in each of its stacks of several types next to another player's
    units, the unit with the best front value (then the first by name) shown on top; None when every such
    stack shows it."""
    mine = state.empires_of(player)
    mixed = [(e, area) for e in mine for area in e.areas()
             if len({s.unit for s in e.units if s.area == area}) > 1]
    if not mixed:
        return None
    theirs = {s.area for o in state.empires if o.owner != player for s in o.units}
    wmap = load_map()
    for e, area in mixed:
        if theirs.isdisjoint(wmap.adjacency[area]):
            continue
        best = fog.strongest(e, {s.unit for s in e.units if s.area == area})
        if fog.top_unit(state, e, area) != best:
            return TopUnit(player, e.card, area, best)
    return None


def _start_score(state: SevenState, card: int) -> tuple[int, int, int]:
    """How much glory starting ``card`` promises: its glory categories (a category without a number,
    one a turn), less one for each :data:`CROWD` units of other empires in and next to its start areas
    (L2309: "an area with little competition"), times the levels it has left to harvest before the game's
    end; then the higher start."""
    empire = load_deck().cards[card].empire
    level = max(progress_options(state, empire).values())
    potential = sum(int(g.get("value", 1)) for g in empire.glory) - glory_ai.crowding(state, empire) // CROWD
    return max(1, potential) * max(1, PAST_THE_END - level), level, -card


def _trade_card(state: SevenState, player: PlayerId, cards: Sequence[TradeCard]) -> Action:
    go = state.go_of(player)
    mine = go is not None and go.action == "trade"  # its own empire's trade, not a partner's card
    pick = max if mine else min
    return pick(cards, key=lambda a: _value(a.card))


def _build(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> Action | None:
    go = state.go_of(player)
    if go is None or go.stage != "build":
        return None
    card = int(go.data.get("card", go.empire))
    e = state.empire(card)
    initial = go.action == "start"
    # a new empire with no unit is discarded at once (L1012): its first units need no reserve kept back
    reserve = RESERVE if e.count() else 0
    army = MONEY_ARMY if load_deck().cards[e.card].empire.category("money") is not None else ARMY
    affordable = [a for a in actions if isinstance(a, Build)
                  and unit_cost(e, a.unit, a.area, initial=initial) * a.count + reserve <= e.money]
    builds = [a for a in affordable if e.count() + a.count <= army]
    # a card paying for seas or ships needs ships before more spears (L1066, L1104), whatever its army
    fleet = glory_ai.ship_builds(e, affordable) if e.count() >= marker_ai.FEW_UNITS else []
    if fleet:
        return min(fleet, key=lambda a: (unit_cost(e, a.unit, a.area), a.count, a.area, a.unit))
    if builds:
        # the cheapest unit, where the empire is strongest, as many as it can keep up
        return min(builds, key=lambda a: (unit_cost(e, a.unit, a.area), -e.count(a.area), a.area, a.unit,
                                          -a.count))
    if army == MONEY_ARMY:
        return None  # its money is its glory: no fort or elite marker either
    forts = [a for a in actions if isinstance(a, Fortify) and a.area == e.capital]
    if forts and e.money > 20:
        return forts[0]
    elite = [a for a in actions if isinstance(a, BuildElite)]
    if elite and e.money > 30:
        return elite[0]
    return None


def _artefact(state: SevenState, player: PlayerId, plays: Sequence[PlayArtefact]) -> Action | None:
    """An artefact that gains glory: a red one (which costs its empire glory, L911) on another player's
    empire, any other on one's own, where it pays (:func:`_artefact_worth`)."""
    deck = load_deck()
    fit = [a for a in plays if state.has_empire(a.target) and (state.empire(a.target).owner != player) == (
        deck.artefacts[deck.cards[a.card].artefact].colour == "red")]
    return max(fit, key=lambda a: _artefact_worth(state, player, a)) if fit else None


def _artefact_worth(state: SevenState, player: PlayerId, play: PlayArtefact) -> tuple[int, int]:
    """How much an artefact on its target pays at the harvests (L1072, L2015): on one's own empire, its card's
    artefact value (each Artist adds 1) and a marker counted (on the card, or on an ordered area it holds,
    doubled by an Artist there); a red one on another player's empire, that empire's artefact value (what
    the marker takes from it). A religion adds what the empire's card pays for it (L1116)."""
    e = state.empire(play.target)
    deck = load_deck()
    value = (deck.cards[e.card].empire.category("artefacts") or 0) + sum(
        1 for ld in e.leaders if "Artist" in ld.abilities)
    artefact = deck.artefacts[deck.cards[play.card].artefact]
    if artefact.kind == "religion":
        value += glory_ai.religion_worth(e, artefact.name)
    if e.owner != player:
        return value, 0
    counted = not play.area or (play.area in e.areas() and not state.area(play.area).disorder)
    doubled = bool(play.area) and counted and e.has_leader("Artist", play.area)
    return value, int(counted) + int(doubled)


def _adopt_or_build(state: SevenState, player: PlayerId, actions: Sequence[Action]) -> Action | None:
    """In Civilise: the religion its card pays for most (L1116; any religion's sites pay, L1118), before a
    government; then a city where it counts (an ordered area, L1042), in the area adding most to its glory
    categories, then the richest."""
    go = state.go_of(player)
    adopts = [a for a in actions if isinstance(a, Adopt)]
    cities = [a for a in actions if isinstance(a, Urbanise)]
    if go is None or not state.has_empire(go.empire) or not (adopts or cities):
        return adopts[0] if adopts else (cities[0] if cities else None)
    e = state.empire(go.empire)
    if adopts:
        return max(adopts, key=lambda a: glory_ai.religion_worth(e, a.name))
    return max(cities, key=lambda a: (not state.area(a.area).disorder, *_area_worth(state, e, a.area)[:2]))


def _buy_glory(state: SevenState, buys: Sequence[BuyGlory]) -> Action | None:
    """The most glory an empire can buy keeping :data:`GLORY_RESERVE` money."""
    affordable = [a for a in buys if state.has_empire(a.empire)
                  and state.empire(a.empire).money - 50 * a.points >= GLORY_RESERVE]
    return max(affordable, key=lambda a: (a.points, -a.empire)) if affordable else None


class GreedyPolicy:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = PolicyRng(seed)

    def choose(self, state: SevenState, player: PlayerId) -> Action:
        if player in state.choosing_colours():  # a newcomer's first move, whatever the step asks (L337)
            return legal(GAME, state, player)[0]
        if top := _top_unit(state, player):
            return top
        if order := armed_ai.greedy_order(state, player):  # a raid on the glory leader, armed ahead
            return order
        actions = legal(GAME, state, player)
        asked = next((p for p in state.pending if p.seat == player), None)
        if asked is not None and (chain := cancels.asked_in(state, asked)) is not None:
            return cancel_ai.choice(state, asked, chain)  # a cancel window (L871-877)
        if asked is not None and asked.kind == BALLOT:
            return voter_ai.choose(state, asked)  # an option 16 vote
        if heresy := voter_ai.vote_action(state, player, actions):
            return heresy  # a Heresy vote action (option 16)
        if asked is not None and harvest_events.asked_in(state, asked) is not None:
            return harvest_ai.choice(state, asked)  # the harvest's window (L879-881)
        if answer := event_ai.answer(state, player, actions):
            return answer
        own_plays = [a for a in actions if isinstance(a, PlayEvent)] if state.phase != CIVILISE else []
        if own := event_ai.own_go_event(state, player, own_plays):  # its own go's events, first
            return own

        def of(kind: type[Action]) -> list[Action]:
            return [a for a in actions if isinstance(a, kind)]

        if votes := of(SiftVote):
            return next(a for a in votes if isinstance(a, SiftVote) and a.happy)
        if bids := [a for a in actions if isinstance(a, Bid)]:
            return min(bids, key=lambda a: _value(a.card))
        if dig := marker_ai.destiny(state, player, actions):  # digging for a card it may start (L2303)
            return dig
        if (discards := [a for a in actions if isinstance(a, DiscardCard)]) and not of(Done):
            return min(discards, key=lambda a: _value(a.card))
        if places := [a for a in actions if isinstance(a, PlaceMarker)]:
            return _marker(state, player, places)
        if turns := of(TurnMarker):
            return turns[0]
        if starts := [a for a in actions if isinstance(a, StartCard)]:
            return max(starts, key=lambda a: _start_score(state, a.card))
        if leaders := [a for a in actions if isinstance(a, ChooseLeader) and a.name]:
            return leaders[0]
        if partner := trade_ai.choose(state, player, [a for a in actions if isinstance(a, TradeWith)]):
            return partner  # the notes' partner (L2337-2343)
        if cards := [a for a in actions if isinstance(a, TradeCard)]:
            return _trade_card(state, player, cards)
        if levels := [a for a in actions if isinstance(a, TradeLevels)]:
            return max(levels, key=lambda a: a.levels)
        if keeps := [a for a in actions if isinstance(a, TradeKeep)]:
            return max(keeps, key=lambda a: _value(a.card))
        if buys := _buy_glory(state, [a for a in actions if isinstance(a, BuyGlory)]):
            return buys
        if arts := _artefact(state, player, [a for a in actions if isinstance(a, PlayArtefact)]):
            return arts
        if state.phase == CIVILISE and (
                play := event_ai.civ_event(state, player, [a for a in actions if isinstance(a, PlayEvent)])):
            return play
        if civ := _adopt_or_build(state, player, actions):
            return civ
        if keep := [a for a in actions if isinstance(a, KeepLeader) and a.area]:
            return keep[0]
        pending = next((p for p in state.pending if p.seat == player), None)
        if pending is not None and pending.kind == COMMIT:
            return commit_choice(state, pending)  # by the odds (battle_ai)
        if pending is not None and pending.kind == EVENT:
            return event_choice(state, pending)
        if pending is not None and pending.kind == RETREAT:
            return retreat_choice(state, pending)
        if pending is not None and pending.kind in (LOSSES, SCATTER):
            return conflict_passive(state, pending) or actions[0]  # the cheapest losses; one area
        if answers := [a for a in actions if isinstance(a, CanalAnswer) and a.answer == CANAL_TOLL]:
            return answers[0]  # another empire's ships may pass its canal, for a toll
        if move := _manoeuvre(state, player, actions):
            return move
        if build := _build(state, player, actions):
            return build
        if done := of(Done):
            return done[0]
        return actions[0]


def make_policy(name: str, seed: int) -> Policy:
    return policy.make(name, seed, {"random": RandomPolicy, "greedy": GreedyPolicy})
