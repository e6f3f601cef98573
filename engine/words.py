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


# -- peoples and realms: "the Hittites rise", "the Kingdom of Kush rises", "Mali rises" ----------------
#: Names of a people with no plural ending ("the French are called").
_PEOPLES = frozenset({"British", "Dutch", "French", "Hsiung-Nu", "Japanese", "Maya", "Spanish", "Xiongnu"})
#: One country whose name ends in an s ("the Netherlands is established").
_ONE_COUNTRY = frozenset({"Netherlands", "United States"})
#: Words that make a name one realm named by a common noun, taking "the": "the Han Dynasty rises".
_REALMS = ("Dynasty", "Kingdom", "Empire", "Republic", "Valley")


def is_plural_name(name: str) -> bool:
    """Whether an empire's name reads as a people (plural: "the Romans rise") or as one realm
    (singular: "the Han Dynasty rises", "Egypt rises")."""
    if name in _ONE_COUNTRY or any(word in name for word in _REALMS):
        return False
    return name in _PEOPLES or name.endswith("s")


def the(name: str, *, start: bool = False) -> str:
    """The name with "the" where English wants it: "the Romans", "the Kingdom of Kush", but "Mali",
    "Srivijaya", "Great Zimbabwe" (a bare place name); ``start`` capitalises it to open a sentence."""
    needs = (is_plural_name(name) or name in _ONE_COUNTRY or " of " in name
             or any(word in name for word in _REALMS))
    if not needs:
        return name
    return f"The {name}" if start else f"the {name}"


def verb(name: str, singular: str, plural_form: str) -> str:
    """The verb form agreeing with an empire's name: ``verb("Huns", "falls", "fall")`` -> ``"fall"``."""
    return plural_form if is_plural_name(name) else singular


def pronoun(name: str) -> str:
    """"they" for a people, "it" for a realm."""
    return "they" if is_plural_name(name) else "it"


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: whole, or cut after its last whole word that fits with an
    ellipsis ("reduce one…", never "reduce one stru…"); a single word longer than that is cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if text[limit - 1] != " " and " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:") + "…"


def article(noun: str) -> str:
    """The noun with "a" or "an" as it is spoken: "an army", "an Archer", "a siege token", "a unit"."""
    first = noun[:1].lower()
    # a vowel letter read as "you" ("unit", "European") takes "a"
    spoken_vowel = first in "aeio" or (first == "u" and not noun.lower().startswith(("uni", "use", "eu")))
    return f"an {noun}" if spoken_vowel else f"a {noun}"


def first_place(places: Sequence[Sequence[int]] | None, ranking: Sequence[int]) -> list[int]:
    """The seats of the first place: the game's ``places`` when it gave them, else the ranking's first."""
    if places:
        return list(places[0])
    return list(ranking[:1])


def winners(first: Sequence[int], names: Sequence[str]) -> str:
    """``Winner: alice (Red)``, or ``Winners, sharing first place: alice (Red) and bob (Blue)``."""
    said = [names[p] if 0 <= p < len(names) else f"seat {p + 1}" for p in first]
    return f"Winner: {said[0]}" if len(said) == 1 else f"Winners, sharing first place: {join_words(said)}"
