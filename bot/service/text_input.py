"""Text a person typed, checked once where it comes in: printable, valid Unicode, of bounded length.

Every front hands what people type to these checks before anything else reads it: the console
each line and each ``/as`` name, Discord each text option of a command, and the service each id and
name its entry points take. A refusal is one sentence that never repeats the text itself (a lone
surrogate cannot even be printed, and a 10,000-character word is no answer).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from bot.service.errors import ServiceError

MAX_GAME_ID: Final = 32  # games.game_id is VARCHAR(32)
MAX_NAME: Final = 64  # a person's or a seat's name
MAX_TEXT: Final = 500  # one option or word list (Discord's longest text option is as long)
MAX_LINE: Final = 1000  # one console line, every word of a command in it

# Control characters (a newline would forge a line of its own in a log or a message), line and
# paragraph separators, and lone surrogates, which no encoding can write.
_UNPRINTABLE: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
# The bidirectional overrides and isolates: they turn the text after them around ("alice (Blue)"
# could read as someone else). Other format characters stay: emoji are joined by U+200D.
_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def checked_text(text: object, what: str, limit: int) -> str:
    """``text`` itself, when a person may send it: a string of at most ``limit`` characters, valid
    Unicode, without control characters.

    Args:
        text: what arrived.
        what: how a refusal names it, capitalised ("A game id", "The options").
        limit: the most characters allowed.

    Raises:
        ServiceError: ``bad_text``, in one sentence naming ``what`` and never quoting ``text``.
    """
    if not isinstance(text, str):
        raise ServiceError("bad_text", f"{what} must be text.")
    if len(text) > limit:
        raise ServiceError("bad_text", f"{what} is too long: at most {limit} characters, not {len(text)}.",
                           limit=limit)
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            raise ServiceError("bad_text", f"{what} is not valid text (it holds half of a character); "
                               "please type it again.")
        if category in _UNPRINTABLE or char in _BIDI_CONTROLS:
            raise ServiceError("bad_text", f"{what} holds a control character; please type it without.")
    return text


def checked_game_id(text: object) -> str:
    """A game id as typed (see :func:`checked_text`); whether that game exists is the store's answer."""
    return checked_text(text, "A game id", MAX_GAME_ID)


def checked_name(text: object) -> str:
    """A person's or a seat's name as given (see :func:`checked_text`)."""
    return checked_text(text, "A name", MAX_NAME)
