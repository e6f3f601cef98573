"""The decision panel's layout and click matching, on decisions written by hand (no game, no Discord).

What a person sees is checked through the harness in the other Discord tests; here the
rules of the layout are pinned down: a few short entries are buttons, more are selects
of 25 with a "More choices" button past four of them, a group stands once in the first
step in place of its choices, and a click after the game moved on counts only when the
decision still has the same heading and an entry with the same label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.panel import (
    MAX_BUTTONS,
    PanelButton,
    PanelSelect,
    _find,
    components,
    first_step,
    group_step,
    key_of,
)
from engine.core import Action, Choice, Decision

GAME_ID = "g" * 32  # the longest game id a custom_id pattern takes
USER = 10**19 + 7  # a 20-digit Discord id


@dataclass(frozen=True)
class Pick(Action):
    kind = "pick"
    n: int = 0


def decision(labels: list[str], groups: list[str] | None = None, heading: str = "Choose") -> Decision:
    groups = groups or [""] * len(labels)
    return Decision(0, heading, tuple(Choice(Pick(0, i), label, group) for i, (label, group)
                                      in enumerate(zip(labels, groups, strict=True))))


def items(view: discord.ui.View) -> list[Any]:
    return list(view.children)


def test_a_few_short_entries_are_buttons() -> None:
    d = decision([f"Bid {n}" for n in range(1, 6)])
    view = components(GAME_ID, 7, USER, first_step(d))
    assert [type(i).__name__ for i in items(view)] == ["PanelButton"] * 5
    assert [i.item.label for i in items(view)] == ["Bid 1", "Bid 2", "Bid 3", "Bid 4", "Bid 5"]
    assert all(len(i.item.custom_id) <= 100 for i in items(view))


def test_a_long_label_or_many_entries_go_in_selects_of_25_with_pages() -> None:
    long = decision(["x" * 90, "y"])
    shown = items(components(GAME_ID, 1, USER, first_step(long)))
    assert [type(i).__name__ for i in shown] == ["PanelSelect"]
    many = decision([f"Land {n}" for n in range(130)])
    first = items(components(GAME_ID, 1, USER, first_step(many)))
    selects = [i for i in first if isinstance(i, PanelSelect)]
    assert [len(s.item.options) for s in selects] == [25, 25, 25, 25]
    more = [i for i in first if isinstance(i, PanelButton)]
    assert len(more) == 1 and more[0].pick == "m1" and "page 2 of 2" in str(more[0].item.label)
    second = items(components(GAME_ID, 1, USER, first_step(many), page=1))
    options = [o.label for s in second if isinstance(s, PanelSelect) for o in s.item.options]
    assert options == [f"Land {n}" for n in range(100, 130)]
    assert len({s.item.custom_id for s in selects}) == 4  # each select has its own custom_id
    assert len(first) <= 5 and MAX_BUTTONS < 25


def test_a_group_stands_once_in_place_of_its_choices() -> None:
    d = decision(["Egypt by land", "Egypt by sea", "Stop", "Nubia by land"],
                 ["Invade Egypt", "Invade Egypt", "", "Invade Nubia"])
    assert [(e.pick, e.label) for e in first_step(d)] == [("g0", "Invade Egypt"), ("c2", "Stop"),
                                                         ("g1", "Invade Nubia")]
    assert [(e.pick, e.label) for e in group_step(d, "Invade Egypt")] == [("c0", "Egypt by land"),
                                                                         ("c1", "Egypt by sea")]


def test_a_click_is_matched_by_index_at_its_seq_and_by_key_after() -> None:
    before = decision(["Bid 1", "Bid 2", "Bid 3"], heading="Round 1")
    key = key_of("Round 1", "Bid 2")
    assert _find(before, "c1", key, same_seq=True) == "c1"
    assert _find(before, "c0", key, same_seq=True) is None  # the key must fit the index
    # the other player bid meanwhile: the same heading and label mean the same choice
    assert _find(decision(["Bid 2", "Bid 3"], heading="Round 1"), "c1", key, same_seq=False) == "c0"
    # a new round: the same label no longer means the same
    assert _find(decision(["Bid 1", "Bid 2"], heading="Round 2"), "c1", key, same_seq=False) is None
