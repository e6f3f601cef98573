"""A 7 Ages seat goes by the colour group its player took (issue 29 item 2, L325-327), never by its place.

"each player picks a glory marker [...] and takes the empire counters of that colour": which counters a
seat holds is known only once it has chosen, so a colour given by seat order ("alice (Red)") named some
players by another player's counters. Here alice, at the first seat, takes the green counters while an
AI seat takes the red/pink ones; every public line, the board in words and the pictures' key, for a
spectator and for every seat, then call her "alice (Green)" and no seat by a colour it does not hold.
"""

from __future__ import annotations

import re

import pytest

from bot.clock import FakeClock
from bot.notices import describe_notice
from bot.service import GameService
from bot.store import Store
from engine.registry import get_game, spec
from engine.seven_ages.actions import ChooseColours
from render.seven_ages_pieces import key_items

pytestmark = pytest.mark.asyncio
SEVEN = spec("seven-ages")
ALICE = 1
GROUP_WORD = {"orange/yellow": "Orange", "red/pink": "Red", "blue": "Blue", "green": "Green",
              "purple": "Purple"}
"""How a seat holding each colour group is named: its first colour (counters.yaml's five groups, L325)."""


async def alice_takes_green(store: Store) -> tuple[GameService, str]:
    """alice (the creator, at the first seat with this seed) and two greedy AI seats; alice plays the
    greedy choice at every move except her colours, where she takes green; the game is played on until
    every seat has an empire on the map, so the key lists each."""
    svc = GameService(store, FakeClock(), seed_factory=lambda: 8, id_factory=lambda: "g1")
    gid = (await svc.create_lobby(ALICE, "alice", SEVEN.id, seed=8)).game_id
    await svc.add_ai(gid, ALICE)
    await svc.add_ai(gid, ALICE)
    await svc.start(gid, ALICE)
    greedy = SEVEN.make_policy("greedy", 5)
    for _ in range(2000):
        seq, state = await svc.engine_state(gid)
        if {e.owner for e in state.empires} == {0, 1, 2}:
            return svc, gid
        status = await svc.status(gid)
        assert status.waiting_for == (ALICE,)
        seat = next(s.seat for s in status.seats if s.user_id == ALICE)
        assert seat == 0
        move = greedy.choose(state, seat)
        if isinstance(move, ChooseColours):
            move = ChooseColours(seat, "green")
        await svc.submit(gid, ALICE, move.to_json(), seq)
    raise AssertionError("some seat never had an empire on the map")


async def test_every_line_and_the_key_name_a_seat_by_the_counters_it_took(store: Store) -> None:
    svc, gid = await alice_takes_green(store)
    _, state = await svc.engine_state(gid)
    status = await svc.status(gid)
    game = get_game(SEVEN.id)
    groups = [p.group for p in state.people]
    assert groups[0] == "green" and "red/pink" in groups[1:]  # the colour seat order once gave alice
    names = status.seat_names
    assert names[0] == "alice (Green)"
    for seat, name in enumerate(names):  # each seat by its own counters, so no two alike
        assert name.endswith(f"({GROUP_WORD[str(groups[seat])]})"), (seat, name)
    assert len(set(names)) == len(names)

    # the public log, read now: from the bid on, every line names alice by her counters
    _, entries = await svc.public_log(gid)
    lines = [text for e in entries if (text := describe_notice(e.as_notice(gid), names, game, str))]
    said = [colour for line in lines for colour in re.findall(r"\balice \(([^)]*)\)", line)]
    assert said and set(said) == {"Green"}
    assert any("alice (Green) takes the green empire counters" in line for line in lines)
    assert not [line for line in lines if "seat)" in line]  # no seat is left without its colour

    # the board in words and the pictures' key, for a spectator and for every seat
    people = ["alice", "AI 1", "AI 2"]
    for viewer in (None, 0, 1, 2):
        view = game.view(state, viewer)
        board = game.board_text(view, names).splitlines()
        assert "alice (Green): green counters." in board, (viewer, board)  # "; no empire" would follow
        headers = [words for colour, words in key_items(view, people) if colour is None and "—" in words]
        assert len(headers) == len({e["owner"] for e in view["empires"]}) == 3, headers
        for words in headers:
            seat = next(s for s, person in enumerate(people) if words.startswith(f"{person} ("))
            group = str(groups[seat])
            you = " (you)" if seat == viewer else ""
            assert words == f"{people[seat]} ({GROUP_WORD[group]}){you}: {group} counters —", (viewer, words)
