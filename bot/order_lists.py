"""A decision read as a typed list in two steps: how the console shows a seat's standing orders and
reads what is typed back. No game here: any :class:`engine.core.Decision` will do.

Standing orders can be many (a card, an empire, then each pair of its areas), so the list shows its
first step only: each lone choice and each group once, numbered; ``orders N`` opens group ``N`` (its
choices numbered ``N.1``, ``N.2``...), or plays choice ``N``; ``orders N.M`` plays choice ``M`` of group
``N``; words pick the choice whose label they spell (:func:`engine.choice_words.matching_choices`), and
list the fitting ones, playing nothing, when they fit several.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.read_input import shortened
from engine.choice_words import matching_choices
from engine.core import Choice, Decision

_NUMBERED = re.compile(r"(\d{1,4})(?:[. ]+(\d{1,4}))?")


@dataclass(frozen=True)
class Entry:
    """One line of the first step: a lone choice, or a group with its choices (a two-step pick)."""

    label: str
    choices: tuple[Choice, ...]
    group: bool


@dataclass(frozen=True)
class Picked:
    """What typed words ask for: a choice to send, lines to show, or why neither."""

    choice: Choice | None = None
    lines: tuple[str, ...] = ()
    refusal: str = ""


def entries(decision: Decision) -> list[Entry]:
    """The first step: each group once (where its first choice stands) and each lone choice."""
    out: list[Entry] = []
    at: dict[str, int] = {}
    for choice in decision.choices:
        if not choice.group:
            out.append(Entry(choice.label, (choice,), False))
        elif choice.group in at:
            entry = out[at[choice.group]]
            out[at[choice.group]] = Entry(entry.label, (*entry.choices, choice), True)
        else:
            at[choice.group] = len(out)
            out.append(Entry(choice.group, (choice,), True))
    return out


def listing(decision: Decision, command: str) -> list[str]:
    """The first step as numbered lines; a group says how many ways it holds and how to list them."""
    return [f"  {n}. {e.label}: {len(e.choices)} ways ('{command} {n}' lists them)" if e.group
            else f"  {n}. {e.label}" for n, e in enumerate(entries(decision), 1)]


def group_lines(number: int, entry: Entry) -> tuple[str, ...]:
    """A group's heading, then its choices numbered ``number.1``, ``number.2``..."""
    return (f"{entry.label}:", *(f"  {number}.{m}. {c.label}" for m, c in enumerate(entry.choices, 1)))


def pick(decision: Decision, typed: str, command: str) -> Picked:
    """What ``typed`` names in ``decision``: ``N``, ``N.M`` (or ``N M``), or words of a label."""
    steps = entries(decision)
    numbered = _NUMBERED.fullmatch(typed.strip())
    if numbered:
        n = int(numbered[1])
        if not 1 <= n <= len(steps):
            return Picked(refusal=f"There is no order {n}; type '{command}' to list them.")
        entry = steps[n - 1]
        if numbered[2] is None:
            return Picked(lines=group_lines(n, entry)) if entry.group else Picked(choice=entry.choices[0])
        m = int(numbered[2])
        if not entry.group or not 1 <= m <= len(entry.choices):
            return Picked(refusal=f"There is no order {n}.{m}; type '{command} {n}' to list them.")
        return Picked(choice=entry.choices[m - 1])
    numbers = [(f"{n}" if not e.group else f"{n}.{m}", c) for n, e in enumerate(steps, 1)
               for m, c in enumerate(e.choices, 1)]
    hits = matching_choices(typed, [c.label for _, c in numbers])
    if len(hits) == 1:
        return Picked(choice=numbers[hits[0]][1])
    if hits:  # never a guess: the fitting ones, by the numbers that send them
        head = (f"{shortened(typed.strip())!r} fits {len(hits)} orders; nothing was sent. Type its number or "
                "more of its words:")
        return Picked(lines=(head, *(f"  {numbers[i][0]}. {numbers[i][1].label}" for i in hits)))
    groups = matching_choices(typed, [e.label if e.group else "" for e in steps])
    if len(groups) == 1:
        return Picked(lines=group_lines(groups[0] + 1, steps[groups[0]]))
    return Picked(refusal=f"That is not one of your orders; type '{command}' to list them.")
