"""Standing preferences: how a choice that falls to a player outside their own go is answered ahead.

Each is a key with a few values and a default (the platform's ``prefer`` move sets one, at any time, by
any seated player; the console's ``prefs KEY=VALUE`` and Discord send it). The modules whose rules read
a preference register it here with its words, so one move, one list and one sentence serve them all.
A player's preferences are theirs: the view shows them to their owner only, except a public one
(whether they are asked at event windows), which every player sees and is told of. Setting a private one
whose effect nobody else sees at once is a quiet move (:attr:`Preference.quiet`): the view's counter does
not move for it; the top unit of a stack (``top``) is seen by all, so setting it is not quiet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.core import PUBLIC, Event, IllegalAction, PlayerId, Result
from engine.seven_ages.actions import Prefer
from engine.seven_ages.state import SevenState
from engine.words import join_words


@dataclass(frozen=True)
class Preference:
    """One standing preference.

    Attributes:
        key: its name in ``prefs KEY=VALUE`` ("partner").
        default: the value a player has until they set one.
        values: each value the key takes, with the sentence that says what it does.
        public: whether every player may know it (in every view, and told when it changes), for a
            setting whose effect others see anyway; otherwise only its owner sees it.
        shown: whether the others see what it does at once, though only its owner is told it changed
            (which unit they see on top of a stack).
    """

    key: str
    default: str
    values: Mapping[str, str]
    public: bool = False
    shown: bool = False

    @property
    def quiet(self) -> bool:
        """Whether setting it tells no one else anything (:meth:`engine.core.Game.quiet`): no view but its
        owner's changes, so the view's counter does not move either."""
        return not self.public and not self.shown


PREFERENCES: dict[str, Preference] = {}


def register(pref: Preference) -> Preference:
    """Make ``pref`` settable (each rules module registers the ones its rules read)."""
    assert pref.default in pref.values, pref
    PREFERENCES[pref.key] = pref
    return pref


def standing(state: SevenState, seat: PlayerId, key: str) -> str:
    """``seat``'s value of the preference ``key`` (its default until they set one)."""
    prefix = f"{key}:"
    found = next((x[len(prefix):] for x in state.people[seat].prefs if x.startswith(prefix)), None)
    return found if found is not None else PREFERENCES[key].default


def of_player(state: SevenState, seat: PlayerId, *, public_only: bool = False) -> dict[str, str]:
    """Every preference of ``seat``, defaults included (what the owner's view shows); with
    ``public_only`` the public ones (what every view shows)."""
    return {key: standing(state, seat, key) for key in sorted(PREFERENCES)
            if PREFERENCES[key].public or not public_only}


def sentence(key: str, value: str) -> str:
    """What a preference's value does, in a sentence."""
    return PREFERENCES[key].values[value]


def set_preference(state: SevenState, action: Prefer) -> SevenState:
    """``action.player``'s preference ``action.key`` set to ``action.value`` (a default stores nothing)."""
    pref = PREFERENCES.get(action.key)
    if pref is None:
        raise IllegalAction("bad_preference", "There is no such preference: choose one of "
                            f"{join_words(sorted(PREFERENCES), 'or')}.")
    if action.value not in pref.values:
        raise IllegalAction("bad_preference", f"The {pref.key} preference is one of "
                            f"{join_words(list(pref.values), 'or')}.")
    player = state.people[action.player]
    prefix = f"{pref.key}:"
    kept = {x for x in player.prefs if not x.startswith(prefix)}
    if action.value != pref.default:
        kept.add(prefix + action.value)
    return state.with_player(replace(player, prefs=tuple(sorted(kept))))


def standing_move(state: SevenState, action: Prefer) -> Result:
    """Apply a ``prefer`` move from any seated player, whoever is to act (the game's standing moves file it
    under its class); only its sender is told."""
    if not 0 <= action.player < state.players:
        raise IllegalAction("not_seated", "There is no such seat in this game.")
    new = set_preference(state, action)
    pref = PREFERENCES[action.key]
    audience = PUBLIC if pref.public else (action.player,)
    event = Event("preference_set", {"seat": action.player, "key": action.key, "value": action.value},
                  audience)
    # a quiet setting leaves every other view as it was, its counter included (engine/contract/protocol.py)
    return Result(new if pref.quiet else replace(new, seq=new.seq + 1), (event,))

