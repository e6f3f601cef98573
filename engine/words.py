"""Small wording helpers every game's text uses, so a number or a list reads the same everywhere."""

from __future__ import annotations

from collections.abc import Sequence

_NUMERALS = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    """``n`` (1 or more) in Roman numerals: 4 -> ``"IV"``."""
    if n < 1:
        raise ValueError(f"no Roman numeral for {n}")
    out = []
    for value, letters in _NUMERALS:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 die"``, ``"3 dice"``: the count with the word in the right number."""
    return f"{n} {singular if n == 1 else (plural_form or singular + 's')}"


def join_words(items: Sequence[str], last: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; ``"nothing"`` for none."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def dice(values: Sequence[int]) -> str:
    """A roll as people say it: ``"5"``, ``"5 and 3"``, ``"6, 4 and 1"``."""
    return join_words([str(v) for v in values])
