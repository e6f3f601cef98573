"""The "since your last move" summary: what the other players did, in the game's own sentences.

A pure function of the public record the service returns
(:meth:`bot.service.GameService.since_last_move`): one dict per move with the
mover's seat and the public events it caused, from the reader's own last move
on. Every game words its events itself (``game.describe_event(event, names)``),
so the summary works for every registered game with no per-game code here.
Nothing hidden goes in (the service gives only public events), so the summary
may be posted in a game's public thread as well as sent by DM.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.models import PUBLIC, LogEntry, Notice, NoticeKind
from bot.notices import platform_text
from bot.service.offload import off_loop
from engine import registry
from engine.core import Event, Game, Names
from engine.spec import NoticePictures

log = logging.getLogger(__name__)

MAX_EVENT_LINES = 12
#: The width of a turn notice's pictures (:meth:`engine.spec.GameSpec.notice_pictures`): what a
#: Discord channel shows (about 550 to 800 px). Wider costs bytes and time, and shows more only when
#: the picture is opened.
NOTICE_SIZE = 800


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def event_lines(entries: Sequence[Mapping[str, Any]], reader: int, names: Names, game: Game) -> list[str]:
    """The game's sentence for each public event of the other players' moves, the newest
    :data:`MAX_EVENT_LINES` of them (the reader's own moves are not repeated to them)."""
    lines: list[str] = []
    unrecorded: dict[int, int] = {}  # seat -> its moves of the run made before records were kept
    for entry in entries:
        if entry.get("player") == reader:
            continue
        if entry.get("unrecorded"):
            seat = int(entry.get("player", -1))
            unrecorded[seat] = unrecorded.get(seat, 0) + 1
            continue
        for seat, moves in unrecorded.items():
            lines.append(unrecorded_line(seat, moves, names))
        unrecorded.clear()
        for event in entry.get("events", ()):
            try:
                text = game.describe_event(Event(str(event.get("type")), event.get("data") or {}), names)
            except Exception:  # one event a game cannot word must not cost the reader the rest
                log.exception("%s could not word the event %s", game.id, event.get("type"))
                text = None
            if text:
                lines.append(text)
    lines += [unrecorded_line(seat, moves, names) for seat, moves in unrecorded.items()]
    if len(lines) > MAX_EVENT_LINES:
        hidden = len(lines) - MAX_EVENT_LINES + 1
        lines = [f"({hidden} earlier events not shown)", *lines[-MAX_EVENT_LINES + 1:]]
    return lines


def pictures_of(ruleset: str) -> NoticePictures:
    """The game's notice pictures (:meth:`engine.spec.GameSpec.notice_pictures`), marked as work for a
    worker thread: drawing holds the CPU for tens of milliseconds (both fronts draw them in one)."""
    return off_loop(registry.spec(ruleset).notice_pictures())


@off_loop
def draw_timelapse(ruleset: str, stages: Sequence[tuple[str, Mapping[str, Any]]], *,
                   size: int = NOTICE_SIZE) -> bytes:
    """A game's timelapse (:func:`render.timelapse.animate`): its board after each stage (a spectator's
    views, :meth:`bot.service.GameService.stage_views`), at chat width, the stage written on each frame."""
    from render.timelapse import animate  # Pillow loads only when a picture is drawn

    draw = registry.spec(ruleset).render()
    return animate([(stage, draw(view, size=size)) for stage, view in stages], width=size)


def unrecorded_line(seat: int, moves: int, names: Names) -> str:
    """The line for moves made before the bot kept records of them (see :mod:`bot.service.records`)."""
    notice = Notice("", NoticeKind.unrecorded, {"seat": seat, "moves": moves}, PUBLIC, 0)
    return platform_text(notice, names, str) or ""


def digest(entries: Sequence[Mapping[str, Any]], reader: int, names: Names, game: Game, *,
           first: bool = False) -> str:
    """The summary as one short text with a heading ("" when nothing happened).

    Args:
        entries: the moves since the reader's last move, oldest first; each has
            ``player`` and ``events`` (``{"type", "data"}``, public events only).
        reader: the engine seat the summary is for.
        names: how every line names each seat ("alice (Blue)"), index = seat.
        game: the game, which words its own events.
        first: the reader has not moved yet in this game ("so far" instead of "since your last move").
    """
    lines = event_lines(entries, reader, names, game)
    if not lines:
        return ""
    moves = _plural(sum(1 for e in entries if e.get("player") != reader), "move")
    head = f"**So far** ({moves}):" if first else f"**Since your last move** ({moves}):"
    return "\n".join([head, *lines])


def places(entries: Sequence[Mapping[str, Any]], reader: int | None = None) -> list[str]:
    """Every word the public events of ``entries`` name, oldest first, each once: the lands, seas and
    regions a turn notice's pictures may close in on (the places of :func:`event_lines`' moves).

    Which of these are places is the game's picture function's to say (it keeps those on its own
    map), so this reads no game's event fields: it takes each event's text values and lists of text.
    The reader's own moves are left out, as in the summary; ``reader`` None keeps every move.
    """
    seen: dict[str, None] = {}
    for entry in entries:
        if reader is not None and entry.get("player") == reader:
            continue
        for event in entry.get("events", ()):
            for value in (event.get("data") or {}).values():
                for word in value if isinstance(value, list) else [value]:
                    if isinstance(word, str) and word:
                        seen.pop(word, None)  # named again: it moves to the newest place
                        seen[word] = None
    return list(seen)


LATEST = 200  # the newest public log entries read for :func:`latest_turn` (a turn is shorter)


def latest_turn(entries: Sequence[LogEntry]) -> list[str]:
    """The :func:`places` of the public log's latest player's run of moves (their turn so far, and
    what its last move set off): what a picture of the board as it stands closes in on."""
    run: list[LogEntry] = []
    for entry in reversed(entries):
        if run and entry.player != run[-1].player:
            break
        run.append(entry)
    return places([{"player": e.player, "events": [{"type": e.type, "data": e.data}]} for e in reversed(run)])
