"""The "since your last move" summary: a short account of what other players did, in plain words.

A pure function of the public record the service returns
(:meth:`bot.service.GameService.since_last_move`): one dict per move with the
mover's seat and the public events it caused, from the reader's own last move
on (what that move set off, such as the next empire's turn, is news; what the
reader did themselves is not repeated). Nothing hidden goes in (the
service gives only public events), so the summary may be posted in a game's
public thread as well as sent by DM.

The summary says, in this order: new epochs, the empire draw (who kept or gave
their card), each other player's turns (empires played, lands taken, battles
won), event cards played, the battles fought against the reader (lands lost or
held), pre-eminence markers, and the scores that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event

MAX_ITEMS = 6  # names listed before "and N more"


@dataclass
class _Mover:
    """What one other seat did."""

    empires: list[str] = field(default_factory=list)
    lands: int = 0
    battles: int = 0
    won: int = 0


def _join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; long lists end with "and N more"."""
    items = list(items)
    if len(items) > MAX_ITEMS:
        items = [*items[: MAX_ITEMS - 1], f"{len(items) - MAX_ITEMS + 1} more"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summarise(entries: Sequence[Mapping[str, Any]], reader: int, names: Mapping[int, str]) -> list[str]:
    """The lines of the summary for seat ``reader`` (empty when nothing happened).

    Args:
        entries: the moves since the reader's last move, oldest first; each has
            ``player`` and ``events`` (``{"type", "data"}``, public events only).
        reader: the engine seat the summary is for ("you").
        names: display names of the seats.
    """
    def who(seat: Any, *, subject: bool = True) -> str:
        if seat is None:
            return "nobody"
        if int(seat) == reader:
            return "you" if not subject else "You"
        return names.get(int(seat), f"Seat {int(seat) + 1}")

    epochs: list[str] = []
    draw: list[str] = []
    movers: dict[int, _Mover] = {}
    cards: list[str] = []
    attacked: dict[str, tuple[bool, Any]] = {}  # the reader's lands attacked: (taken, by whom), last battle
    markers: list[str] = []
    points: dict[int, int] = {}
    totals: dict[int, int] = {}
    over = False
    for entry in entries:
        for event in entry.get("events", ()):
            kind = event.get("type")
            d: Mapping[str, Any] = event.get("data") or {}
            if kind == "epoch":
                epochs.append(str(d.get("name") or f"Epoch {d.get('epoch')}"))
            elif kind in ("empire_kept", "empire_given", "card_played") and d.get("player") == reader:
                continue  # the reader's own doing
            elif kind == "empire_kept":
                draw.append(f"{who(d.get('player'))} kept the card")
            elif kind == "empire_given":
                draw.append(f"{who(d.get('player'))} gave the card to {who(d.get('to'), subject=False)}")
            elif kind == "turn":
                movers.setdefault(int(d["player"]), _Mover()).empires.append(str(d.get("name")))
            elif kind == "expanded":
                movers.setdefault(int(d["player"]), _Mover()).lands += 1
            elif kind == "battle":
                attacker, defender, land = d.get("attacker"), d.get("defender"), str(d.get("land"))
                win = d.get("outcome") == "win"
                if attacker is not None:
                    mover = movers.setdefault(int(attacker), _Mover())
                    mover.battles += 1
                    mover.won += win
                    mover.lands += win
                if defender is not None and int(defender) == reader and attacker != reader:
                    attacked.pop(land, None)  # keep the order of the last battles
                    attacked[land] = (win, attacker)
            elif kind == "card_played":
                cards.append(f"{who(d.get('player'))} played the event {d.get('name') or d.get('card')}")
            elif kind == "preeminence" and d.get("player") is not None:
                markers.append(who(d.get("player"), subject=False))
            elif kind == "scored":
                seat = int(d["player"])
                points[seat] = points.get(seat, 0) + int(d.get("points") or 0)
                totals[seat] = int(d.get("score") or 0)
            elif kind == "game_over":
                over = True
    lines: list[str] = []
    if epochs:
        lines.append(f"{_join(epochs)} began.")
    if draw:
        lines.append(f"Empire draw: {_join(draw)}.")
    for seat, mover in movers.items():
        if seat == reader:
            continue
        parts = []
        if mover.empires:
            parts.append(f"played {_join(mover.empires)}")
        if mover.lands:
            parts.append(f"took {_plural(mover.lands, 'land')}")
        if mover.battles:
            parts.append(f"won {mover.won} of {_plural(mover.battles, 'battle')}")
        if parts:
            lines.append(f"{who(seat)} {', '.join(parts)}.")
    lines += [f"{c}." for c in cards]
    lost = [f"{land} (to {who(by)})" for land, (taken, by) in attacked.items() if taken]
    held = [land for land, (taken, _) in attacked.items() if not taken]
    if attacked:
        said = []
        if lost:
            said.append(f"you lost {_join(lost)}")
        if held:
            said.append(f"you held {_join(held)}")
        lines.append(f"Attacked: {'; '.join(said)}.")
    if markers:
        lines.append(f"Pre-eminence: {_join(markers)} took a marker.")
    if points:
        lines.append("Scores: " + ", ".join(
            f"{who(seat)} {totals[seat]} (+{points[seat]})" for seat in sorted(points)) + ".")
    if over:
        lines.append("The game is over.")
    return lines


MAX_EVENT_LINES = 12


def event_lines(entries: Sequence[Mapping[str, Any]], reader: int,
                describe: Callable[[Event], str | None]) -> list[str]:
    """The summary of a game without a tailored one: the game's own sentence for each public
    event of the other players' moves, the newest :data:`MAX_EVENT_LINES` of them."""
    lines: list[str] = []
    for entry in entries:
        if entry.get("player") == reader:
            continue
        for event in entry.get("events", ()):
            try:
                text = describe(Event(str(event.get("type")), event.get("data") or {}))
            except (KeyError, TypeError, IndexError, ValueError):
                text = None
            if text:
                lines.append(text)
    if len(lines) > MAX_EVENT_LINES:
        hidden = len(lines) - MAX_EVENT_LINES + 1
        lines = [f"({hidden} earlier events not shown)", *lines[-MAX_EVENT_LINES + 1:]]
    return lines


def digest(entries: Sequence[Mapping[str, Any]], reader: int, names: Mapping[int, str], *,
           first: bool = False, describe: Callable[[Event], str | None] | None = None) -> str:
    """The summary as one short text with a heading ("" when nothing happened).

    Args:
        first: the reader has not moved yet in this game ("so far" instead of "since your last move").
        describe: for games other than the classic History of the World rules, the game's own
            ``describe_event``; their summary is the list of what the others did.
    """
    lines = summarise(entries, reader, names) if describe is None else event_lines(entries, reader, describe)
    if not lines:
        return ""
    moves = _plural(sum(1 for e in entries if e.get("player") != reader), "move")
    head = f"**So far** ({moves}):" if first else f"**Since your last move** ({moves}):"
    return "\n".join([head, *lines])
