"""The course of play: setup, neutral armies, the secret bid, turns, card actions, the end.

Each function works on a :class:`Ctx` (the state being built by one ``apply``,
the data, and the events so far). Functions that check a move raise
:class:`~engine.core.IllegalAction` before changing anything, and ``apply``
works on a copy, so a refused move leaves the caller's state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import rng
from engine.core import Context, IllegalAction
from engine.eight_minute.data import EMData
from engine.eight_minute.scoring import breakdown, totals
from engine.eight_minute.state import NEUTRAL, EMState, Phase


@dataclass
class Ctx(Context[EMState]):
    """The generic context with the game's data beside the state."""

    data: EMData


# -- setup -------------------------------------------------------------------------


def new_game(ctx: Ctx) -> None:
    """Set up the board for (the next) game: deck, face-up row, armies, coins, tokens."""
    state, data = ctx.state, ctx.data
    n = state.players
    deck = [c.id for c in data.cards.values() if n == 5 or not c.five]
    rng.shuffle(state, deck)
    state.row = deck[: data.face_up]
    state.deck = deck[data.face_up:]
    state.coins = [data.coins[n]] * n
    state.hands = [[] for _ in range(n)]
    state.armies = {data.start: [data.start_armies] * n}
    state.neutral = {}
    state.cities = {}
    state.tokens = {}
    if state.options.get("goods_tokens"):
        tokens = [g for g, count in sorted(data.goods_tokens.items()) for _ in range(count)]
        rng.shuffle(state, tokens)
        triangles = [r.id for r in data.regions.values() if r.goods_token]
        state.tokens = dict(zip(triangles, tokens, strict=True))
    state.bids = [None] * n
    state.revealed_bids = None
    state.bid_winner = None
    state.bid_rolls = []
    state.first_player = None
    state.current = None
    state.turns_taken = 0
    state.task = None
    if n == 2:
        state.phase = Phase.NEUTRAL
        state.neutral_left = data.neutral_armies
        # Who places the first neutral army is not said: the first seat in game 1,
        # the next seat in the next game of a Full Game.
        state.neutral_next = (state.game_no - 1) % n
    else:
        state.phase = Phase.BID
        state.neutral_left = 0
    ctx.emit("game_started", game_no=state.game_no, row=list(state.row), coins=list(state.coins),
             tokens=dict(state.tokens))


# -- the two-player neutral armies -----------------------------------------------------


def place_neutral(ctx: Ctx, region: str) -> None:
    state, data = ctx.state, ctx.data
    if region not in data.regions:
        raise IllegalAction("unknown_region", f"There is no region called {region!r}.", region=region)
    state.add_army(region, NEUTRAL)
    state.neutral_left -= 1
    ctx.emit("neutral_placed", player=state.neutral_next, region=region, left=state.neutral_left)
    state.neutral_next = (state.neutral_next + 1) % state.players
    if state.neutral_left == 0:
        state.phase = Phase.BID


# -- the bid -------------------------------------------------------------------------------


def bid(ctx: Ctx, player: int, amount: int) -> None:
    state = ctx.state
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise IllegalAction("bad_bid", "A bid is a whole number of coins, 0 or more.", amount=amount)
    if amount > state.coins[player]:
        raise IllegalAction("too_much", f"You have only {state.coins[player]} coins to bid.",
                            amount=amount, coins=state.coins[player])
    state.bids[player] = amount
    ctx.emit("bid_made", player=player)
    ctx.emit("your_bid", (player,), player=player, amount=amount)
    if all(b is not None for b in state.bids):
        _reveal(ctx)


def youngest_seat(state: EMState) -> int | None:
    """The seat the lobby named as the youngest player, or None when nobody said.

    The ``youngest`` option counts seats from 1 (0: nobody said); Annals cannot
    know ages, so it never guesses one.
    """
    named = int(state.options.get("youngest") or 0)
    return named - 1 if 1 <= named <= state.players else None


def _reveal(ctx: Ctx) -> None:
    state = ctx.state
    bids = [int(b or 0) for b in state.bids]
    state.revealed_bids = bids
    top = max(bids)
    # All-zero bids are a tie among everyone. A tie goes to the youngest player
    # when the lobby said who that is; otherwise the tied players roll a die, the
    # rulebook's own "Alternate Bidding Tie Breaker" (data/eight_minute/README.md).
    tied = [p for p in range(state.players) if bids[p] == top]
    ctx.emit("bids_revealed", bids=bids)
    young = youngest_seat(state)
    if len(tied) == 1:
        winner = tied[0]
    elif young is not None and young in tied:
        winner = young
    else:
        winner = _roll_off(ctx, tied)
    state.bid_winner = winner
    state.coins[winner] -= top
    state.phase = Phase.FIRST
    ctx.emit("bid_won", player=winner, paid=top, tied=tied if len(tied) > 1 else [],
             youngest=len(tied) > 1 and winner == young)


def _roll_off(ctx: Ctx, tied: list[int]) -> int:
    """Each tied player rolls a die; the highest wins; players tied on the highest roll again."""
    state = ctx.state
    while True:
        dice = rng.roll(state, len(tied))
        state.bid_rolls.append([[p, d] for p, d in zip(tied, dice, strict=True)])
        ctx.emit("bid_roll", rolls=[[p, d] for p, d in zip(tied, dice, strict=True)])
        best = max(dice)
        tied = [p for p, d in zip(tied, dice, strict=True) if d == best]
        if len(tied) == 1:
            return tied[0]


def choose_first(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("bad_seat", f"Seat {seat!r} is not at this table.", seat=seat)
    state.first_player = seat
    state.current = seat
    state.phase = Phase.TURN
    ctx.emit("first_player", player=seat, chosen_by=state.bid_winner)


# -- turns: taking a card -----------------------------------------------------------------


def price(data: EMData, position: int) -> int:
    return data.prices[position]


def affordable(state: EMState, data: EMData, seat: int) -> list[int]:
    """The positions of the face-up cards ``seat`` can pay for."""
    return [i for i in range(len(state.row)) if price(data, i) <= state.coins[seat]]


def take_card(ctx: Ctx, player: int, position: int) -> None:
    state, data = ctx.state, ctx.data
    if state.task is not None:
        raise IllegalAction("card_in_play", "Finish the action of the card you took first (or stop it).")
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(state.row):
        raise IllegalAction("bad_position", f"There is no face-up card at position {position!r}.",
                            position=position)
    cost = price(data, position)
    if cost > state.coins[player]:
        raise IllegalAction("cannot_pay", f"That card costs {cost} coins and you have {state.coins[player]}.",
                            cost=cost, coins=state.coins[player])
    card = data.cards[state.row.pop(position)]
    state.coins[player] -= cost
    state.hands[player].append(card.id)
    drawn = None
    if state.deck:
        drawn = state.deck.pop(0)
        state.row.append(drawn)
    ctx.emit("card_taken", player=player, card=card.id, position=position, price=cost, drawn=drawn)
    steps = [[s.verb, s.n] for s in card.actions]
    if len(steps) == 1:
        state.task = {"card": card.id, "choose": False, "steps": [], "do": steps[0][0], "left": steps[0][1]}
    else:
        state.task = {"card": card.id, "choose": True, "steps": steps, "do": None, "left": 0,
                      "combine": card.combine}
    settle(ctx)


def choose_action(ctx: Ctx, index: int) -> None:
    state = ctx.state
    task = state.task
    if task is None or not task["choose"]:
        raise IllegalAction("nothing_to_choose", "There is no and/or card waiting for a choice.")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(task["steps"]):
        raise IllegalAction("bad_choice", f"This card has no action number {index!r}.", index=index)
    verb, n = task["steps"][index]
    assert state.current is not None
    if not can_do(state, ctx.data, state.current, verb):
        raise IllegalAction("cannot_do", f"You cannot {verb} now; choose the other action or stop.",
                            action=verb)
    task["steps"].pop(index)
    if task.get("combine") == "or":
        task["steps"] = []
    task["choose"] = False
    task["do"], task["left"] = verb, n
    ctx.emit("action_chosen", player=state.current, card=task["card"], action=verb, n=n)
    settle(ctx)


def done(ctx: Ctx) -> None:
    state = ctx.state
    task = state.task
    if task is None:
        raise IllegalAction("nothing_to_stop", "Take a card first.")
    if task["choose"]:
        ctx.emit("action_ignored", player=state.current, card=task["card"])
        task["choose"] = False
        task["steps"] = []
    else:
        ctx.emit("action_stopped", player=state.current, card=task["card"], action=task["do"],
                 unused=task["left"])
        task["do"], task["left"] = None, 0
    settle(ctx)


# -- what the action under way allows ---------------------------------------------------------


def armies_left(state: EMState, data: EMData, seat: int) -> int:
    return data.armies_per_player - state.armies_on_board(seat)


def cities_left(state: EMState, data: EMData, seat: int) -> int:
    return data.cities_per_player - state.cities_on_board(seat)


def place_regions(state: EMState, data: EMData, seat: int) -> list[str]:
    """Where ``seat`` may place a new army: the start region and regions with its city."""
    if armies_left(state, data, seat) <= 0:
        return []
    out = {data.start} | {r for r, c in state.cities.items() if c[seat] > 0}
    return sorted(out)


def move_steps(state: EMState, data: EMData, seat: int, water: bool) -> list[tuple[str, str]]:
    return [
        (src, dst)
        for src, counts in sorted(state.armies.items()) if counts[seat] > 0
        for dst in sorted(data.neighbours(src, water))
    ]


def city_regions(state: EMState, data: EMData, seat: int) -> list[str]:
    if cities_left(state, data, seat) <= 0:
        return []
    return sorted(r for r, counts in state.armies.items() if counts[seat] > 0)


def destroy_targets(state: EMState) -> list[tuple[str, int]]:
    """Every army on the board, of any player (the neutral ones too), as (region, owner)."""
    out: list[tuple[str, int]] = []
    for region in sorted(set(state.armies) | set(state.neutral)):
        counts = state.armies.get(region)
        if counts:
            out.extend((region, p) for p in range(state.players) if counts[p] > 0)
        if state.neutral.get(region):
            out.append((region, NEUTRAL))
    return out


def can_do(state: EMState, data: EMData, seat: int, verb: str) -> bool:
    if verb == "place":
        return bool(place_regions(state, data, seat))
    if verb in ("move", "sail"):
        return any(c[seat] > 0 for c in state.armies.values())
    if verb == "city":
        return bool(city_regions(state, data, seat))
    return bool(state.armies or state.neutral)


def _lapse(ctx: Ctx, seat: int, verb: str, n: int) -> None:
    """Say why a card's action is dropped unplayed (else a card taken for "Place 3 armies" by a player
    with none left in the supply looks like a mistake): ``why`` is "supply" (none of the pieces left
    to put on the board), "no_armies" (no army of the player's on the board) or "board_empty"."""
    state, data = ctx.state, ctx.data
    if verb == "place" or (verb == "city" and cities_left(state, data, seat) <= 0):
        why = "supply"
    elif verb == "destroy":
        why = "board_empty"
    else:
        why = "no_armies"
    ctx.emit("action_lapsed", player=seat, action=verb, n=n, why=why)


def settle(ctx: Ctx) -> None:
    """Move the card's resolution on while nothing is left to decide; end the turn when it is done.

    An action ends by itself when its count is used up or when nothing of it can
    be done any more (no army left to place, no city to build...).
    """
    state, data = ctx.state, ctx.data
    task = state.task
    assert task is not None and state.current is not None
    seat = state.current
    while True:
        if task["do"] is not None:
            if task["left"] > 0 and can_do(state, data, seat, task["do"]):
                return
            if task["left"] > 0:
                _lapse(ctx, seat, task["do"], task["left"])
            task["do"], task["left"] = None, 0
        if task["choose"]:
            if any(can_do(state, data, seat, verb) for verb, _ in task["steps"]):
                return
            for verb, n in task["steps"]:
                _lapse(ctx, seat, verb, n)
            task["choose"], task["steps"] = False, []
        if task["steps"]:
            verb, n = task["steps"].pop(0)
            task["do"], task["left"] = verb, n
            continue
        end_turn(ctx)
        return


def _use(ctx: Ctx, verb: str) -> int:
    state = ctx.state
    task = state.task
    if task is None or task["choose"] or task["do"] is None:
        raise IllegalAction("no_action", "There is no action under way: take a card first.")
    allowed = ("move", "sail") if verb == "move" else (verb,)
    if task["do"] not in allowed:
        raise IllegalAction("wrong_action", f"The action under way is {task['do']}, not {verb}.",
                            doing=task["do"])
    assert state.current is not None
    return state.current


def place(ctx: Ctx, region: str) -> None:
    state, data = ctx.state, ctx.data
    seat = _use(ctx, "place")
    if region not in data.regions:
        raise IllegalAction("unknown_region", f"There is no region called {region!r}.", region=region)
    if armies_left(state, data, seat) <= 0:
        raise IllegalAction("no_armies", "All your armies are on the board.")
    if region != data.start and state.city_count(region, seat) == 0:
        raise IllegalAction("cannot_place", f"New armies go on {data.regions[data.start].name} "
                            "or where you have a city.", region=region)
    state.add_army(region, seat)
    _spend(ctx)
    ctx.emit("army_placed", player=seat, region=region)
    settle(ctx)


def move(ctx: Ctx, source: str, to: str) -> None:
    state, data = ctx.state, ctx.data
    seat = _use(ctx, "move")
    task = state.task
    assert task is not None
    for r in (source, to):
        if r not in data.regions:
            raise IllegalAction("unknown_region", f"There is no region called {r!r}.", region=r)
    if state.army_count(source, seat) == 0:
        raise IllegalAction("no_army_there", f"You have no army in {data.regions[source].name}.",
                            region=source)
    water = task["do"] == "sail"
    if to not in data.neighbours(source, water):
        if not water and to in data.water[source]:
            raise IllegalAction("water_link", f"{data.regions[to].name} is across the water: this "
                                "card moves over land only.", source=source, to=to)
        raise IllegalAction("not_adjacent", f"{data.regions[to].name} is not next to "
                            f"{data.regions[source].name}.", source=source, to=to)
    state.add_army(source, seat, -1)
    state.add_army(to, seat)
    _spend(ctx)
    ctx.emit("army_moved", player=seat, source=source, to=to, water=to in data.water[source])
    settle(ctx)


def build_city(ctx: Ctx, region: str) -> None:
    state, data = ctx.state, ctx.data
    seat = _use(ctx, "city")
    if region not in data.regions:
        raise IllegalAction("unknown_region", f"There is no region called {region!r}.", region=region)
    if cities_left(state, data, seat) <= 0:
        raise IllegalAction("no_cities", "All three of your cities are built.")
    if state.army_count(region, seat) == 0:
        raise IllegalAction("no_army_there", f"A city goes where you have an army; you have none in "
                            f"{data.regions[region].name}.", region=region)
    state.add_city(region, seat)
    _spend(ctx)
    ctx.emit("city_built", player=seat, region=region)
    settle(ctx)


def destroy(ctx: Ctx, region: str, owner: int) -> None:
    state, data = ctx.state, ctx.data
    seat = _use(ctx, "destroy")
    if region not in data.regions:
        raise IllegalAction("unknown_region", f"There is no region called {region!r}.", region=region)
    valid_owner = isinstance(owner, int) and not isinstance(owner, bool) and (
        owner == NEUTRAL or 0 <= owner < state.players)
    if not valid_owner or state.army_count(region, owner) == 0:
        raise IllegalAction("no_such_army", f"There is no such army in {data.regions[region].name}.",
                            region=region, owner=owner)
    state.add_army(region, owner, -1)
    _spend(ctx)
    ctx.emit("army_destroyed", player=seat, region=region, owner=owner)
    settle(ctx)


def _spend(ctx: Ctx) -> None:
    task = ctx.state.task
    assert task is not None
    task["left"] -= 1


# -- end of a turn, end of the game -----------------------------------------------------------


def end_turn(ctx: Ctx) -> None:
    state, data = ctx.state, ctx.data
    assert state.current is not None
    state.task = None
    state.turns_taken += 1
    if all(len(h) >= data.end_cards[state.players] for h in state.hands):
        end_game(ctx)
        return
    state.current = (state.current + 1) % state.players
    ctx.emit("turn", player=state.current)


def games_in_match(state: EMState, data: EMData) -> int:
    return data.full_game_games if state.options.get("full_game") else 1


def end_game(ctx: Ctx) -> None:
    """Score the game; with the Full Game variant start the next one until three are played."""
    state, data = ctx.state, ctx.data
    parts = breakdown(state, data)
    game_scores = [p["total"] for p in parts]
    ctx.emit("game_scored", game_no=state.game_no, games=games_in_match(state, data), scores=game_scores,
             breakdown=[{k: p[k] for k in ("regions", "continents", "goods", "total")} for p in parts])
    if state.game_no < games_in_match(state, data):
        state.past_games.append(game_scores)
        state.game_no += 1
        new_game(ctx)
        return
    state.final = totals(state, parts)
    state.phase = Phase.OVER
    state.current = None
    ctx.emit("game_over", scores=list(state.final))
