"""What a person typed at the console, read: words, ``key=value`` settings, timers and a game's
options (a decision's choice is read by :mod:`engine.choice_words`, as ``python -m engine play``
reads it). Every mistake is a :class:`~bot.service.ServiceError` with a sentence, never Python's
own text."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import replace

from bot.config import parse_duration
from bot.models import TimerSettings
from bot.service import ServiceError
from engine.core import IllegalAction
from engine.spec import GameSpec, OptionValue

TIMER_KEYS = ("move", "remind", "misses", "policy")


def key_values(args: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ServiceError("bad_options", f"Settings are written key=value, not {shortened(arg)!r}.")
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
        raise ServiceError("bad_options", f"{what} takes a whole number, not {shortened(text)!r}.") from None


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


SHOWN = 40  # the most of a person's own word an answer quotes back


def shortened(text: str, most: int = SHOWN) -> str:
    """``text`` as an answer quotes it: whole when short, else its start and "…" (a pasted page
    is not printed back at its author)."""
    return text if len(text) <= most else text[:most - 1] + "…"
