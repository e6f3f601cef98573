"""The notice outbox: which rows an outcome's notices become, how a notice is stored, and the
retry policy. No I/O here (the store writes and reads the rows, the fronts deliver them).

The service writes the rows in the same transaction as the change that caused them
(:meth:`bot.store.Store.apply_change`), so a crash after the commit loses no notice: the
Discord transport delivers whatever is left at its next start, and each message carries
the row's nonce so Discord refuses a second copy of one already posted.

A row stores notices, never text: the words and pictures are made at delivery time
from the notice and the game as it then stands (:mod:`bot.notices`), so the console and
Discord keep one wording. The few things that must not change between the commit and
the delivery travel in the payload too (who was to move when the game started, whether
the outcome resumed a paused game).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.models import PUBLIC, DestKind, Notice, NoticeKind, OutboxItem
from engine.core import Event

MAX_ATTEMPTS = 6  # a row still failing after this many tries is given up (and logged)
FIRST_DELAY = 2.0  # seconds before the first retry; doubled each time
LONGEST_DELAY = 300.0
LATE_KINDS = (NoticeKind.timeout, NoticeKind.autopilot)  # public, and told to the late player too
#: What is said of a lobby, in the channel the lobby was opened in: never in the game's thread, even
#: when it is delivered after the start that opened the thread (``add-ai`` then ``start``).
LOBBY_KINDS = frozenset({NoticeKind.lobby_opened, NoticeKind.player_joined, NoticeKind.player_left,
                         NoticeKind.seat_added, NoticeKind.seat_removed, NoticeKind.lobby_passed,
                         NoticeKind.lobby_closed})


def new_nonce() -> str:
    """A row's nonce: 16 hex digits, leaving room in Discord's 25 characters for ``-<piece>``."""
    return secrets.token_hex(8)


def message_nonce(row_nonce: str, piece: int) -> str:
    """The nonce of the ``piece``-th message a row makes (each message needs its own)."""
    return f"{row_nonce}-{piece}"


def retry_delay(attempts: int, retry_after: float | None = None) -> float:
    """Seconds to wait before try ``attempts + 1``: doubling from 2 s to 5 minutes, and never sooner
    than Discord's ``retry_after`` (a 429) says."""
    delay: float = min(LONGEST_DELAY, FIRST_DELAY * 2.0 ** max(0, attempts - 1))
    return max(delay, float(retry_after or 0.0))


# -- notices as JSON ---------------------------------------------------------------------
def encode_notice(notice: Notice) -> dict[str, Any]:
    """A notice as JSON data (the game id is the row's)."""
    audience: Any = notice.audience if notice.is_public else list(notice.audience)
    return {"kind": notice.kind.value if notice.kind is not None else None, "data": dict(notice.data),
            "audience": audience, "seq": notice.seq,
            "seats": list(notice.seats) if notice.seats is not None else None,
            "event": notice.event.to_json() if notice.event is not None else None}


def decode_notice(game_id: str, data: Mapping[str, Any]) -> Notice:
    """The notice :func:`encode_notice` stored."""
    audience = data["audience"]
    seats = data.get("seats")
    event = data.get("event")
    return Notice(
        game_id, NoticeKind(data["kind"]) if data.get("kind") is not None else None, dict(data["data"]),
        PUBLIC if audience == PUBLIC else tuple(int(u) for u in audience), int(data["seq"]),
        tuple(int(s) for s in seats) if seats is not None else None,
        None if event is None else Event(str(event["type"]), dict(event["data"]),
                                         PUBLIC if event["audience"] == PUBLIC
                                         else tuple(int(p) for p in event["audience"])),
    )


def notices_of(game_id: str, payload: Mapping[str, Any]) -> list[Notice]:
    """The notices a row's payload holds, in order."""
    return [decode_notice(game_id, n) for n in payload.get("notices", [])]


# -- routing -----------------------------------------------------------------------------
def item(game_id: str, kind: DestKind, target: int, payload: Mapping[str, Any]) -> OutboxItem:
    """A new row with a fresh nonce."""
    return OutboxItem(game_id, kind, target, payload, new_nonce())


def route(game_id: str, notices: Iterable[Notice], *, waiting: Sequence[int] = (),
          started: bool = False) -> list[OutboxItem]:
    """The rows that tell everyone about ``notices`` (one change of one game).

    One ``public`` row with the public notices in order (and ``waiting``, the people to move
    afterwards, pinged when the game starts); one ``dm`` row per person with what is theirs:
    private notices, and a timeout or autopilot line about them; one ``status`` row when the
    game has started (its pinned status may have changed).
    """
    notices = list(notices)
    public = [encode_notice(n) for n in notices if n.is_public]
    resumed = any(n.kind == NoticeKind.resumed for n in notices)
    personal: dict[int, list[dict[str, Any]]] = {}
    for notice in notices:
        if notice.is_public:
            late = notice.data.get("user_id") if notice.kind in LATE_KINDS else None
            if late is not None:
                personal.setdefault(int(late), []).append(encode_notice(notice))
            continue
        for user in notice.audience:
            personal.setdefault(int(user), []).append(encode_notice(notice))
    out: list[OutboxItem] = []
    if public:
        out.append(item(game_id, "public", 0, {"notices": public, "waiting": list(waiting)}))
    out += [item(game_id, "dm", user, {"notices": mine, "resumed": resumed})
            for user, mine in personal.items()]
    if started:
        out.append(item(game_id, "status", 0, {}))
    return out
