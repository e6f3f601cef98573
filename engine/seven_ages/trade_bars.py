"""The 'no ships until trade' and 'no cavalry until trade' icons (L519), and the first trade that lifts them.

"Some empires have icons that prevent them building cavalry units and some have icons preventing them
building ships. Each of those restrictions applies until the empire first **Trades** with an empire that
isn't so restricted, even if they lose the trade." (L519). Each icon is lifted on its own: an empire barred
from both lifts its ship bar by trading with an empire barred only from cavalry, and keeps its cavalry bar.
A lifted icon is a flag on the empire (``lifted:<code>``); a trade with the deck lifts nothing. The trade
(:mod:`engine.seven_ages.trade`) lifts them and tells the table; Production reads :func:`barred`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.seven_ages.cards import load_deck
from engine.seven_ages.state import Empire

BARS: Mapping[str, str] = {"ships": "no_ships_until_trade", "cavalry": "no_cavalry_until_trade"}
"""Unit class -> the card code barring it until a first trade."""
LIFTED = "lifted:"
"""The prefix of the flag saying an icon is lifted."""
BOTH_LIFTED = "traded"
"""The flag games saved before the icons were lifted one by one carry: it was set only after a trade with an
empire bearing neither icon, so it lifts both."""


def _codes(empire: Empire) -> frozenset[str]:
    return load_deck().cards[empire.card].empire.codes()


def barred(empire: Empire, unit_class: str) -> bool:
    """Whether the empire's card bars it from building ``unit_class`` still (no trade has lifted it)."""
    code = BARS.get(unit_class)
    if code is None or code not in _codes(empire):
        return False
    return not (empire.has(LIFTED + code) or empire.has(BOTH_LIFTED))


def lifted_by(empire: Empire, partner: Empire) -> list[str]:
    """The unit classes whose bar a trade of ``empire`` with ``partner`` lifts: those barred still whose icon
    the partner's card does not bear."""
    theirs = _codes(partner)
    return [cls for cls, code in BARS.items() if barred(empire, cls) and code not in theirs]


def lift(empire: Empire, classes: list[str]) -> Empire:
    """``empire`` with the bars on ``classes`` lifted."""
    for cls in classes:
        empire = empire.flagged(LIFTED + BARS[cls])
    return empire
