"""Option 16 (L1362-1388): which empire has an artefact, and so its power.

The one question other parts ask is :func:`has_power`: under option 16, an empire has an artefact's power
when the artefact is its own (on its card, its government or dominant religion, or a marker in an area it
controls), or, for a blue artefact, when the empire stands at or beyond that artefact's blue marker on the
progress track (L1380). Without option 16 artefacts only give glory (L929-931), so no empire has any power.
"""

from __future__ import annotations

from engine.seven_ages.state import Empire, SevenState

OPTION = "artefact_powers"
"""The lobby key of option 16 (not offered in the lobby yet: see the spec)."""
RUTTERS = "Rutters"
"""Whose power lets ships-of-the-line come before their level (L1903)."""


def powers_on(state: SevenState) -> bool:
    """Whether the game plays option 16."""
    return bool(state.options.get(OPTION))


def holds(state: SevenState, empire: Empire, name: str) -> bool:
    """Whether ``name`` is the empire's own: on its card, its government or one of its religions, or a
    marker in an area it controls (L909-911, L1368)."""
    return (name in empire.artefacts or empire.government == name or name in empire.religions
            or any(name in state.area(a).artefacts for a in empire.areas()))


def blue_marker(state: SevenState, name: str) -> int | None:
    """The progress level of ``name``'s blue marker, or None while it is not on the track."""
    return next((level for art, level in state.progress_markers if art == name), None)


def has(state: SevenState, empire: Empire, name: str) -> bool:
    """Whether the empire has ``name`` for a prerequisite: its own, or at or beyond its blue marker
    (L1380-1382: every empire at or above it "satisf[ies] the prerequisite")."""
    level = blue_marker(state, name)
    return holds(state, empire, name) or (level is not None and empire.progress >= level)


def has_power(state: SevenState, empire: Empire, name: str) -> bool:
    """Whether the empire has the power (and penalty) of artefact ``name`` now, under option 16.

    A religion's powers come from the dominant religion alone (L1366), which is listed first.
    """
    if not powers_on(state):
        return False
    if name in empire.religions:
        return empire.religions[0] == name
    return has(state, empire, name)


def in_play(state: SevenState, name: str) -> bool:
    """Whether any empire or area holds ``name`` (Social Media and the United Nations bar others)."""
    return any(holds(state, e, name) for e in state.empires) or any(name in a.artefacts for a in state.areas)
