"""The classic rules on Discord: the panel plays them; ``/history-classic`` adds batch expansion,
a land's details and the score table with its chart.

Uses the harness of :mod:`tests.bot.test_discord_bot`. With seed 42 the same game is
played every time: Bob draws the first empire card.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import decide
from engine.history.data import load_rules
from engine.registry import get_game
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    CLASSIC,
    EPHEMERAL,
    Call,
    Rig,
    autocomplete,
    button,
    deferred,
    drive,
    entries,
    fake,
    followup,
    kinds,
    lobby_to_start,
    no_errors_logged,
    panel_of,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio


def hidden_names(rules: Any, view: dict[str, Any]) -> set[str]:
    """Names of the cards in a player's hand and of an empire card they drew but did not show."""
    you = view["you"]
    names = {rules.cards[c].name for c in you["hand"]}
    if you.get("drawn"):
        names.add(rules.empires[you["drawn"]].name)
    return names


async def pick(rig: Rig, user: int, message: Call, label: str) -> list[Call]:
    """Click the entry of ``message`` whose label is ``label`` (a button or a select option)."""
    found = next((e for e in entries(message) if e[0] == label or e[0] == f"Yes: {label}"), None)
    assert found is not None, (label, [e[0] for e in entries(message)])
    _, custom_id, value = found
    if value is None:
        return await button(rig, user, message.response, custom_id)
    return await rig.select(user, message.response, custom_id, value)


async def decision(rig: Rig, game: str, user: int) -> Any:
    """The person's decision now, as the engine states it (what the panel must show)."""
    status = await rig.service.status(game)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None, "the person has a seat"
    _, state = await rig.service.engine_state(game)
    return decide(get_game(CLASSIC), state, seat, status.seat_names)


async def choose(rig: Rig, game: str, user: int, message: Call, kind: str, **fields: Any) -> list[Call]:
    """Play, through ``message``'s panel, the choice whose action is ``kind`` with ``fields``:
    its group first when it has one, then the choice itself."""
    found = await decision(rig, game, user)
    choice = next(c for c in found.choices if c.action.kind == kind
                  and all(c.action.to_json().get(k) == v for k, v in fields.items()))
    if choice.group:
        calls = await pick(rig, user, message, choice.group)
        message = followup(calls)
    return await pick(rig, user, message, choice.label)


async def test_the_drawn_card_comes_by_dm_with_its_panel(rig: Rig) -> None:
    rules = load_rules()
    game = await lobby_to_start(rig, CLASSIC, 3)
    status = await rig.service.status(game)
    assert status.waiting_for == (BOB,)
    seq, legal = await rig.service.legal_actions(game, BOB)
    assert kinds(legal) == {"keep", "give"}
    offer = [c for c in rig.fake.dm_posts(BOB) if panel_of(c)]
    assert len(offer) == 1
    drawn = (await rig.service.view(game, BOB))["you"]["drawn"]
    assert rules.empires[drawn].name in offer[0].content  # the heading names the card
    assert not any(rules.empires[drawn].name in c.content for c in rig.fake.public_posts())
    target = next(a for a in legal if a["kind"] == "give")
    calls = await choose(rig, game, BOB, offer[0], "give", to=target["to"])
    assert deferred(calls).flags == EPHEMERAL
    assert followup(calls).content.startswith("You chose:")
    assert (await rig.service.status(game)).seq == seq + 1
    # the same panel once more: out of date, politely
    calls = await button(rig, BOB, offer[0].response, panel_of(offer[0])[0]["custom_id"]) \
        if panel_of(offer[0])[0]["type"] == 2 else \
        await rig.select(BOB, offer[0].response, panel_of(offer[0])[0]["custom_id"],
                         panel_of(offer[0])[0]["options"][0]["value"])
    assert followup(calls).flags == EPHEMERAL
    assert "out of date" in followup(calls).content or "not your move" in followup(calls).content


async def test_no_public_message_shows_hidden_cards(rig: Rig) -> None:
    rules = load_rules()
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda seq, legal: "play" in kinds(legal))
    hidden: set[str] = set()
    for user in (ALICE, BOB):
        you = (await rig.service.view(game, user))["you"]
        hidden |= {rules.cards[c].name for c in you["hand"]}
    public = "\n".join(c.content for c in rig.fake.public_posts())
    assert public
    for name in hidden:
        assert name not in public or re.search(rf"plays? (the event )?{re.escape(name)}", public), name


async def test_batch_expand_stops_at_a_battle_not_won(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    user, seq, legal = await drive(rig, game, lambda s, legal: any(
        a["kind"] == "expand" and a["land"] == "Levant" for a in legal) and "buyback" in kinds(legal))
    lands = [a["land"] for a in legal if a["kind"] == "expand" and a["land"] != "Levant"]
    calls = await rig.command(user, "expand", top=CLASSIC, lands=f"Levant, {lands[0]}")
    reply = followup(calls)
    assert reply.flags == EPHEMERAL
    assert "The battle for Levant was not won. Stopped there" in reply.content
    assert f"({lands[0]} not tried)" in reply.content
    assert (await rig.service.status(game)).seq == seq + 1  # only Levant was tried
    _, legal = await rig.service.legal_actions(game, user)
    assert any(a["kind"] == "expand" and a["land"] == lands[0] for a in legal)
    assert panel_of(reply)  # and the next decision, with its panel


async def test_batch_expand_offers_only_legal_lands(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    user, _, legal = await drive(rig, game, lambda s, legal: "expand" in kinds(legal))
    legal_lands = {a["land"] for a in legal if a["kind"] == "expand"}
    choices = await autocomplete(rig, user, "expand", "lands", "", top=CLASSIC)
    assert {c["value"] for c in choices} == set(sorted(legal_lands)[:25]) or len(choices) == 25
    first = sorted(legal_lands)[0]
    choices = await autocomplete(rig, user, "expand", "lands", f"{first}, ", top=CLASSIC)
    assert {c["value"] for c in choices} <= {f"{first}, {x}" for x in legal_lands} and choices
    other = ALICE if user == BOB else BOB
    assert await autocomplete(rig, other, "expand", "lands", "", top=CLASSIC) == []


async def test_ending_the_turn_with_armies_left_asks_first(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    user, seq, _ = await drive(rig, game, lambda s, legal: kinds(legal) >= {"end_turn", "expand"})
    found = await decision(rig, game, user)
    end = next(c for c in found.choices if c.action.kind == "end_turn")
    assert end.confirm, "ending the turn with armies in the pool asks first"
    reply = followup(await rig.command(user, "play"))
    calls = await choose(rig, game, user, reply, "end_turn")
    question = followup(calls)
    assert question.content == end.confirm and (await rig.service.status(game)).seq == seq
    calls = await pick(rig, user, question, end.label)
    assert followup(calls).content.startswith(f"You chose: {end.label}.")
    assert (await rig.service.status(game)).seq > seq


# == a land's details ========================================================================
async def test_land_shows_the_map_facts_and_the_pieces_but_nothing_hidden(rig: Rig) -> None:
    rules = load_rules()
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda s, legal: "end_turn" in kinds(legal) and s > 20)
    public = await rig.service.view(game, None)
    held = sorted(public["board"]["armies"])
    assert held
    land = held[0]
    owner = public["board"]["armies"][land][0][0]
    status = await rig.service.status(game)
    owner_name = next(s.name for s in status.seats if s.seat == owner)
    calls = await rig.command(BOB, "land", top=CLASSIC, land=land.lower())  # any spelling the map knows
    assert deferred(calls).flags == EPHEMERAL
    text = followup(calls).content
    info = rules.map.lands[land]
    assert text.startswith(f"{land}: a land of {info.area}")
    assert info.area is not None and info.area in text and info.terrain in text
    assert f"Held by {owner_name}" in text
    for near in rules.map.neighbours(land):
        assert near in text
    for water in info.waters:
        assert water in text
    for user in (ALICE, BOB):  # neither player's hand nor drawn card, whoever asks
        for name in hidden_names(rules, await rig.service.view(game, user)):
            assert name not in text, name
    # an empty land says so; the autocomplete offers the lands of a move and a land typed whole
    empty = next(n for n, i in rules.map.lands.items() if i.area and n not in public["board"]["armies"]
                 and n not in public["board"]["structures"])
    assert "Held by nobody" in followup(await rig.command(ALICE, "land", top=CLASSIC, land=empty)).content
    choices = await autocomplete(rig, ALICE, "land", "land", empty, top=CLASSIC)
    assert empty in {c["value"] for c in choices}
    assert await autocomplete(rig, ALICE, "land", "land", "Atlantis", top=CLASSIC) == []
    calls = await rig.command(ALICE, "land", top=CLASSIC, land="Atlantis")
    assert followup(calls).flags == EPHEMERAL
    assert followup(calls).content == "The map has no land called 'Atlantis'."


# == scores ===================================================================================
async def test_scores_are_public_with_a_chart(rig: Rig) -> None:
    game = await lobby_to_start(rig, CLASSIC, 3)
    await drive(rig, game, lambda s, legal: s > 40)
    view = await rig.service.view(game, None)
    assert any(view["scores"]), "some empire has scored by now"
    status = await rig.service.status(game)
    calls = await rig.command(BOB, "scores", top=CLASSIC)
    assert deferred(calls).flags == 0
    reply = followup(calls)
    assert reply.flags == 0 and reply.files == [f"annals-{game}-scores-{status.seq}.png"]
    game_words = get_game(CLASSIC).summary_text(view, status.seat_names)  # the engine's words, no others
    assert reply.content == f"**Scores of game `{game}`**\n{game_words}", reply.content
    rows = [line for line in reply.content.splitlines() if re.match(r"\d+\. ", line)]
    assert len(rows) == 3
    listed = [int(re.search(r": (\d+) points?", r).group(1)) for r in rows]  # type: ignore[union-attr]
    assert listed == sorted(view["scores"], reverse=True)
    calls = await rig.command(BOB, "scores", top=CLASSIC, chart=False)
    assert followup(calls).files == []


