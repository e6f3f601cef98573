"""Which of a decision's choices a person's typed words name, without ever guessing.

Both typing fronts read a choice the same way (the console's ``play`` and ``python -m engine
play``): its number, the start of its label, or the words of its label in order, each word
typed whole or by its start ("move cross east" for "Move Crossroads → Eastwatch"). Case,
spacing and punctuation do not count. When the words fit several choices the answer is all of
them, so the front can list them and play nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CURLY = "\u2019"  # the typographic apostrophe (U+2019) counts as the plain one
_WORD = re.compile(rf"[^\W_]+(?:['{_CURLY}][^\W_]+)*")  # letters, digits; an apostrophe inside a name stays


def words_of(text: str) -> list[str]:
    """The words of ``text``, case-folded, without punctuation or arrows."""
    return [w.replace(_CURLY, "'") for w in _WORD.findall(text.casefold())]


def matching_choices(text: str, labels: Sequence[str]) -> list[int]:
    """The indices of the choices ``text`` names among ``labels`` (0-based), best fits only.

    A number is that choice (none when out of range). Otherwise the first non-empty of these
    wins: the labels the words spell out whole; the labels that start with them (the last word
    may be cut short); the labels holding them in order, each typed word starting a word of the
    label. A typed number stands for itself alone, never for the start of a longer one. One index
    is the choice; several mean the words do not say which; none, no choice.
    """
    typed = text.strip()
    if typed.isdigit():
        index = int(typed) - 1
        return [index] if 0 <= index < len(labels) else []
    wanted = words_of(typed)
    if not wanted:
        return []
    spelled = [words_of(label) for label in labels]
    for fits in (_same, _starts, _in_order):
        hits = [i for i, words in enumerate(spelled) if fits(wanted, words)]
        if hits:
            return hits
    return []


def _begins(word: str, typed: str) -> bool:
    """``typed`` starts ``word``; a number only as itself ("1" is not the start of "10")."""
    return word == typed if typed.isdigit() else word.startswith(typed)


def _same(wanted: list[str], words: list[str]) -> bool:
    return wanted == words


def _starts(wanted: list[str], words: list[str]) -> bool:
    """The label begins with the typed words, the last of them perhaps cut short."""
    if len(wanted) > len(words):
        return False
    *whole, last = wanted
    return words[:len(whole)] == whole and _begins(words[len(whole)], last)


def _in_order(wanted: list[str], words: list[str]) -> bool:
    """Each typed word starts a word of the label, in the label's order (words may be skipped)."""
    at = 0
    for word in wanted:
        while at < len(words) and not _begins(words[at], word):
            at += 1
        if at == len(words):
            return False
        at += 1
    return True
