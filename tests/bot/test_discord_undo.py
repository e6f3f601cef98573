"""The "Undo" button beside a move on Discord (issue 16), through the harness of tests.bot.test_discord_bot.

"Offered as a button beside the move on Discord": the "You chose: ..." answer carries an Undo
button while the move may be taken back; a click takes it back, the table is told in one line
that names the player and not the move, and the player's decision is shown again.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    EPHEMERAL,
    Call,
    Rig,
    button,
    entries,
    fake,
    followup,
    lobby_to_start,
    no_errors_logged,
    press,
    rig,
)

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio


def undo_buttons(reply: Call) -> list[dict[str, Any]]:
    return [item for row in reply.components for item in row["components"]
            if str(item.get("custom_id", "")).startswith("dp:u:")]


async def test_undo_beside_a_move_takes_it_back_and_tells_the_table(rig: Rig) -> None:
    game = await lobby_to_start(rig, "rise", seats=2)
    offered = taken = 0
    for _ in range(60):
        status = await rig.service.status(game)
        if status.status != "active" or taken:
            break
        user = status.waiting_for[0]
        before = await rig.service.decision(game, user)
        panel = followup(await rig.command(user, "play", game=game))
        answer = followup(await press(rig, user, panel, entries(panel)[0]))
        assert answer.content.startswith("You chose: ")
        undo = undo_buttons(answer)
        if not undo:  # the move rolled, drew, revealed or ended the turn: nothing is offered
            continue
        offered += 1
        # someone else cannot press it
        other = BOB if user == ALICE else ALICE
        refused = followup(await button(rig, other, answer.response, str(undo[0]["custom_id"])))
        assert "not for you" in refused.content
        mark = len(rig.fake.calls)
        taken_back = followup(await button(rig, user, answer.response, str(undo[0]["custom_id"])))
        assert taken_back.flags == EPHEMERAL
        name = (await rig.service.status(game)).seat_names[before[1].player if before[1] else 0]
        assert f"{name} took back their last move." in taken_back.content
        after = await rig.service.decision(game, user)
        assert after[1] == before[1] and after[0] > before[0]  # the same decision again, a new seq
        public = "\n".join(str(c.payload.get("content", "")) for c in rig.fake.public_posts(mark))
        assert f"{name} took back their last move." in public
        assert "You chose" not in public
        # the same button again: the game moved on, refused in words, nothing changes
        seq = (await rig.service.status(game)).seq
        again = followup(await button(rig, user, answer.response, str(undo[0]["custom_id"])))
        assert "Too late to undo" in again.content and (await rig.service.status(game)).seq == seq
        taken += 1
    assert offered == taken == 1
    assert await rig.service.verify_game(game) == []


class Recorder:
    """The real service, with the name of each call the panel makes written down."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self.service, name)


async def test_a_click_reads_the_game_once_before_and_once_after_its_move(rig: Rig) -> None:
    """Issue 31, "one snapshot per interaction": a click read the game seven times (status three times,
    the decision twice, the undo check, the move), each under the game's lock, so its answer could pair
    one moment's status with another's choices. Now it reads one snapshot before the move and one after
    (:meth:`GameService.turn`), and the Undo button comes from the snapshot after."""
    from types import SimpleNamespace

    from bot.discord.panel import first_step, resolve

    game = await lobby_to_start(rig, "rise", seats=2)
    undone = 0
    for _ in range(40):
        status = await rig.service.status(game)
        if status.status != "active":
            break
        user = status.waiting_for[0]
        turn = await rig.service.turn(game, user)
        assert turn.decision is not None and turn.seq == status.seq
        entry = first_step(turn.decision)[0]
        recorder = Recorder(rig.service)
        reply = await resolve(SimpleNamespace(service=recorder), game, user, turn.seq,  # type: ignore[arg-type]
                              entry.pick, entry.key)
        if entry.pick[0] != "c" or turn.decision.choices[int(entry.pick[1:])].confirm:
            assert recorder.calls == ["turn"]  # a group, a page or a confirmation: nothing sent
            continue
        assert recorder.calls in (["turn", "submit"], ["turn", "submit", "turn"]), recorder.calls
        after = await rig.service.turn(game, user)
        shown = reply.view is not None and any(
            str(getattr(item, "custom_id", "")).startswith("dp:u:") for item in reply.view.children)
        assert shown == (after.can_undo and after.decision is not None)
        undone += shown
    assert undone  # an Undo button was offered at least once
