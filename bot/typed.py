"""What a person typed at the console, read: words, ``key=value`` settings, timers, a game's
options and a choice of a decision. Every mistake is a :class:`~bot.service.ServiceError` with a
sentence, never Python's own text."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.config import parse_duration
from bot.models import TimerSettings
from bot.service import ServiceError
from engine.core import IllegalAction
from engine.spec import GameSpec, OptionValue

TIMER_KEYS = ("move", "remind", "misses", "policy")


def match_choice(text: str, legal: list[dict[str, Any]], labels: list[str]) -> int | None:
    """The index of the legal action ``text`` names: its number, its words, or a unique label prefix."""
    text = " ".join(text.lower().split())
    if text.isdigit():
        index = int(text) - 1
        return index if 0 <= index < len(legal) else None
    for i, data in enumerate(legal):
        values = [str(v).lower() for k, v in data.items() if k not in ("kind", "player")]
        full = " ".join([str(data["kind"]).lower(), *values])
        if text == full or (values and text == f"{str(data['kind']).lower()} {values[0]}") or (
                not values and text == str(data["kind"]).lower()):
            return i
    hits = [i for i, label in enumerate(labels) if label.lower() == text]
    if not hits:
        hits = [i for i, label in enumerate(labels) if label.lower().startswith(text)]
    return hits[0] if len(hits) == 1 else None


def key_values(args: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ServiceError("bad_options", f"Settings are written key=value, not {arg!r}.")
        out[key.strip().lower()] = value.strip()
    return out


def timers_from(base: TimerSettings, opts: dict[str, str]) -> TimerSettings:
    """``base`` changed by ``move=``, ``remind=``, ``policy=`` and ``misses=`` (removed from ``opts``)."""
    try:
        if "move" in opts:
            move = parse_duration(opts.pop("move"))
            # reminders the person did not set here adapt to a short move instead of refusing it
            base = replace(base, move_seconds=move) if "remind" in opts else base.with_move(move)
        if "remind" in opts:
            text = opts.pop("remind")
            offsets = () if text.lower() in ("", "none", "off") else tuple(
                parse_duration(x) for x in text.split(",") if x.strip())
            base = replace(base, reminder_offsets=offsets)
        if "misses" in opts:
            base = replace(base, misses_before_ai=whole(opts.pop("misses"), "misses"))
    except ValueError as exc:
        raise ServiceError("bad_timers", str(exc)) from exc
    if "policy" in opts:
        policy = opts.pop("policy")
        if policy not in ("ai", "skip"):
            raise ServiceError("bad_timers", "The timeout policy is 'ai' or 'skip'.")
        base = replace(base, timeout_policy="ai" if policy == "ai" else "skip")
    problems = base.problems()
    if problems:
        raise ServiceError("bad_timers", " ".join(problems))
    return base


def split_words(line: str) -> list[str]:
    """A line's words: quotes group words ("a b"), and an apostrophe inside a name (O'Brien, Xi'an)
    is part of the word, not the start of a quotation."""
    try:
        return shlex.split(line)
    except ValueError:  # an unpaired quote: plain words then
        return line.split()


def whole(text: str, what: str) -> int:
    """A whole number a person typed for ``what``; a sentence, not Python's, when it is none."""
    try:
        return int(text.strip())
    except ValueError:
        raise ServiceError("bad_options", f"{what} takes a whole number, not {text!r}.") from None


def options_from(spec: GameSpec, opts: dict[str, str]) -> dict[str, OptionValue]:
    """The game's own options among ``opts`` (removed from it): ``option=a,b`` switches options on,
    ``NAME=VALUE`` sets one, read by the option's own type; anything else is refused by name."""
    out: dict[str, OptionValue] = {}
    try:
        for name in opts.pop("option", "").split(","):
            if name.strip():
                option = spec.option(name.strip())
                out[option.name] = option.parse("on")
        for key in [k for k in opts if k not in TIMER_KEYS]:
            option = spec.option(key)
            out[option.name] = option.parse(opts.pop(key))
    except IllegalAction as exc:
        raise ServiceError(exc.code, exc.message, **exc.params) from exc
    return out
