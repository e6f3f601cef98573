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

TIMER_KEYS = ("move", "remind", "misses", "policy", "bank", "increment", "cap")


def key_values(args: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ServiceError("bad_options", f"Settings are written key=value, not {shortened(arg)!r}.")
        out[key.strip().lower()] = value.strip()
    return out


def timers_from(base: TimerSettings, opts: dict[str, str]) -> TimerSettings:
    """``base`` changed by ``move=``, ``remind=``, ``policy=``, ``misses=`` and a time bank's ``bank=``,
    ``increment=`` and ``cap=`` (removed from ``opts``)."""
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
        # a time bank: bank=3d increment=12h cap=5d (bank=0: a time per move again)
        bank = {key: 0 if (text := opts.pop(key)).strip() in ("0", "off", "none") else parse_duration(text)
                for key in ("bank", "increment", "cap") if key in opts}
        if bank:
            base = replace(base, bank_seconds=bank.get("bank", base.bank_seconds),
                           bank_increment=bank.get("increment", base.bank_increment),
                           bank_cap=bank.get("cap", base.bank_cap))
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


def with_bank(base: TimerSettings, text: str) -> TimerSettings:
    """``base`` with the time bank written as one text: ``3d+12h`` (3 days, 12 hours more after each
    move), ``3d+12h/5d`` (holding at most 5 days), ``3d`` (no increment), ``off`` (a time per move)."""
    words = text.strip().lower()
    if words in ("off", "none", "0", ""):
        return replace(base, bank_seconds=0, bank_increment=0, bank_cap=0)
    try:
        rest, _, cap = words.partition("/")
        start, _, increment = rest.partition("+")
        return replace(base, bank_seconds=parse_duration(start),
                       bank_increment=parse_duration(increment) if increment.strip() else 0,
                       bank_cap=parse_duration(cap) if cap.strip() else 0)
    except ValueError as exc:
        raise ServiceError("bad_timers", f"A time bank reads like 3d+12h or 3d+12h/5d ({exc}).") from exc


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
    """The game's own options among ``opts`` (removed from it): ``preset=NAME`` takes a preset's values
    (:meth:`engine.spec.GameSpec.preset`), ``option=a,b`` switches options on, ``NAME=VALUE`` sets one,
    read by the option's own type (both over the preset's); anything else is refused by name."""
    out: dict[str, OptionValue] = {}
    try:
        if "preset" in opts:
            out.update(spec.preset(opts.pop("preset")))
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
