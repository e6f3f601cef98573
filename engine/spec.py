"""What the platform knows of a game: its :class:`GameSpec`, read by every layer.

A game is a plugin: one package under ``engine/`` with a ``spec.py`` that calls
:func:`engine.registry.register` once. The console, Discord, ``render``, the
engine CLI and the leagues read everything they need from the spec and from the
:class:`engine.core.Game` contract; nothing outside a game's own package names
its id or duck-types its game object.

The spec refers to the game object, its AI policies, its board renderer and its
optional Discord module by dotted path (``"module:attribute"``), so registering
a game imports none of its data, and ``engine`` never imports ``render`` or
``bot`` (the layers point one way: ``engine <- render <- bot``).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any, Protocol

from engine.core import JSON, Action, Game, IllegalAction, PlayerId, Result
from engine.policy import Policy

OptionValue = bool | int | str

#: The seat colours every game uses unless its spec names others (index = seat).
SEAT_COLOURS: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


class BoardRenderer(Protocol):
    """A game's board picture: a pure function of one player's view (or a spectator's)."""

    def __call__(
        self, view: Mapping[str, Any], *, names: bool = ..., highlight: Sequence[str] = ..., size: int = ...
    ) -> bytes: ...


class NoticePictures(Protocol):
    """The pictures a turn notice carries, as chat shows them: a pure function of a player's view.

    ``focus`` names what the notice is about (the words of the events since the reader's last move,
    newest last; the function keeps those that are places on its map and ignores the rest); ``size``
    is the width of every picture; ``people`` is the person at each seat (index = seat; a view holds
    seats, not people), for the pictures' keys to name beside the colours, and may be empty. Returns
    (a short tag for the file name, PNG bytes) per picture, in the order they are shown (a picture
    alone may have the tag "").
    """

    def __call__(
        self, view: Mapping[str, Any], *, focus: Sequence[str] = ..., size: int = ...,
        people: Sequence[str] = ...,
    ) -> list[tuple[str, bytes]]: ...


class EmpirePicture(Protocol):
    """One empire's card panel as the table shows it, for ``empire WHAT``: a pure function of the asker's
    view and what they typed (the game's own :meth:`engine.core.Game.empire_text` finds the same empire);
    None when the view shows no empire answering to ``wanted``. ``people`` as for :class:`NoticePictures`.
    """

    def __call__(self, view: Mapping[str, Any], wanted: str, *, size: int = ...,
                 people: Sequence[str] = ...) -> bytes | None: ...


class TracksPicture(Protocol):
    """The game's tracks (progress, glory, money...) as one picture, for ``tracks``: a pure function of a
    view."""

    def __call__(self, view: Mapping[str, Any], *, size: int = ..., people: Sequence[str] = ...) -> bytes: ...


class Invariants(Protocol):
    """A game's own invariants, checked by the contract suite after every move of its playouts.

    Told the state before a move, the move and its result; returns one sentence per broken rule of the
    game (a component over its limit, a card in two places, a view that shows what is hidden from its
    viewer), an empty list when all hold. Pure, like the rules: it reads, never changes, the states.
    """

    def __call__(self, before: Any, action: Action, result: Result) -> list[str]: ...


@dataclass(frozen=True)
class OptionSpec:
    """One of a game's own options, as the lobby offers it.

    ``default`` fixes the option's type: a switch (``bool``), a whole number
    (``int``, between ``minimum`` and ``maximum``) or one word of ``choices``
    (``str``). ``offered`` is false for an option still being built: the rules,
    their tests and the tools take it, the lobby does not (:meth:`GameSpec.lobby_options`).
    """

    name: str
    description: str
    default: OptionValue = False
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    offered: bool = True

    def check(self, value: object) -> OptionValue:
        """``value`` if it fits this option; IllegalAction ``bad_option`` saying what fits otherwise."""
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            raise IllegalAction("bad_option", f"The option {self.name} is on or off.", option=self.name)
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalAction("bad_option", f"The option {self.name} takes a whole number.",
                                    option=self.name)
            low = self.minimum if self.minimum is not None else value
            high = self.maximum if self.maximum is not None else value
            if not low <= value <= high:
                raise IllegalAction("bad_option", f"The option {self.name} takes a number from {low} "
                                    f"to {high}.", option=self.name)
            return value
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            raise IllegalAction("bad_option", f"The option {self.name} is one of: {', '.join(self.choices)}.",
                                option=self.name)
        return value

    def parse(self, text: str) -> OptionValue:
        """The value a person typed (``on``/``off``, a number, a word), checked."""
        word = text.strip().lower()
        if isinstance(self.default, bool):
            if word in ("", "on", "yes", "true", "1"):
                return True
            if word in ("off", "no", "false", "0"):
                return False
            return self.check(text)
        if isinstance(self.default, int):
            try:
                return self.check(int(word))
            except ValueError:
                raise IllegalAction("bad_option", f"The option {self.name} takes a whole number, "
                                    f"not {text!r}.", option=self.name) from None
        return self.check(word)


@dataclass(frozen=True)
class OptionPreset:
    """A named set of a game's option values the lobby offers in one word (``preset=ages-1-3``).

    Attributes:
        name: the word a person types (lower case, no spaces).
        description: what the preset makes of the game, in a sentence a player understands.
        values: ``(option name, value)`` pairs; options it does not name keep their defaults, and an
            option a person sets beside the preset overrides it.
    """

    name: str
    description: str
    values: tuple[tuple[str, OptionValue], ...]


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform reads about one game.

    Attributes:
        id: the game id (``/annals create game:``, the database's ruleset column).
        title: the game's name as players know it.
        min_players: fewest seats.
        max_players: most seats.
        summary: one line saying what the game is, for the lobby and help.
        game: ``"module:attribute"`` of the :class:`engine.core.Game` object.
        policies: ``"module:function"`` of ``make_policy(name, seed) -> Policy``.
        policy_names: the AI players it offers; the first is the default.
        renderer: ``"module:function"`` of its :class:`BoardRenderer`.
        options: the game's own options with a description a player understands.
        presets: named sets of option values the lobby offers in one word (:class:`OptionPreset`).
        colours: seat colours, index = seat: the word in parentheses after each player's name. A game
            whose players choose their colours in play names seats by what they chose
            (:meth:`engine.core.Game.seat_colours`) and declares here words that are no colour, for a
            seat yet to choose (7 Ages: "First seat"), so no name is ever another seat's colour.
        anytime_kinds: action kinds a seated player may send at any time (standing
            preferences): no turn or sequence check, and no clock starts for them.
        pictures: ``"module:function"`` of its :class:`NoticePictures` (empty: the board picture alone).
        empire_picture: ``"module:function"`` of its :class:`EmpirePicture` (empty: ``empire`` answers in
            words alone).
        tracks_picture: ``"module:function"`` of its :class:`TracksPicture` (empty: ``tracks`` answers in
            words alone).
        ui: ``"module"`` of an optional Discord extension for what the generic
            decision panel cannot express; it has ``setup(bot, spec)``.
        offered: whether the lobby offers it (a game still being built is
            registered for simulation and tests only).
        simultaneous_steps: a facet: some step asks two or more seats at once
            (:meth:`engine.core.Game.actors`), as sealed bids are.
        hidden_information: a facet: some seat knows what another does not (a hand, a sealed bid): the
            game tells a seat events in private or varies a seat's secrets
            (:meth:`engine.core.Game.private_variants`).
        joins_in_progress: a facet: whether a person may join once the game has started (its rules seat
            a newcomer through :meth:`engine.core.Game.join`); otherwise the lobby closes at the start.
        named_places: a facet: its board is places with names (lands, regions, areas) that
            :meth:`engine.core.Game.place_text` describes for ``land``; a game of cards alone has none.
        standing_orders: a facet: a seated player may give standing orders at any time, whoever acts
            (:meth:`engine.core.Game.orders`, the console's ``orders`` and ``/annals orders``); each is a
            move of a kind in ``anytime_kinds``.
        undo_against_ai: a facet: a person playing against AI seats can take a move back somewhere
            (:meth:`engine.core.Game.undoable`, after the AI seats have answered it); false for a game
            whose every move is revealed or answered at once (a sealed bid the AI matches).
        quiet_moves: a facet: some move tells no seat but its sender anything
            (:meth:`engine.core.Game.quiet`: a hidden standing order), so the platform counts it in no
            number another seat sees.
        invariants: ``"module:function"`` of its :class:`Invariants`, what its rules must never break
            beyond the contract (component limits, where each card is); the contract suite's playouts
            check it after every move. Empty: the contract alone.
        chosen_colours: a facet: players take their colours during play, so a seat is named by what
            :meth:`engine.core.Game.seat_colours` reads from the view; the platform asks the hook only
            for such a game (a spectator's view is drawn for it, which is not free for every game).
        data_report: ``"module:function"`` returning lines ``check-data`` prints when the data is
            valid (provenance counts: how much is the rulebook's and how much is ours).
        warm: ``"module:function"`` building, at start-up in a worker thread, what the first pictures
            would otherwise build while someone waits (a large map's bases); empty: nothing to build.
        version: the version of the game's rules code; raise it when a change makes a stored log
            replay differently (a game records it at its start, see :meth:`rules_version`).
        data: the folders under ``data/`` whose files the rules read (their hash is part of
            :meth:`rules_version`).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    summary: str
    game: str
    policies: str
    renderer: str
    policy_names: tuple[str, ...] = ("greedy", "random")
    options: tuple[OptionSpec, ...] = ()
    presets: tuple[OptionPreset, ...] = ()
    colours: tuple[str, ...] = SEAT_COLOURS
    anytime_kinds: frozenset[str] = field(default_factory=frozenset)
    pictures: str = ""
    empire_picture: str = ""
    tracks_picture: str = ""
    ui: str | None = None
    offered: bool = True
    # The facets: what kind of game it is, declared by each game and checked against its play by
    # tests/contract/test_facets_contract.py; the contract suite selects its tests by them, never by id.
    simultaneous_steps: bool = False
    hidden_information: bool = False
    joins_in_progress: bool = False
    named_places: bool = False
    standing_orders: bool = False
    undo_against_ai: bool = False
    quiet_moves: bool = False
    invariants: str = ""
    chosen_colours: bool = False
    data_report: str = ""
    version: str = "1"
    data: tuple[str, ...] = ()
    warm: str = ""

    def rules_version(self) -> str:
        """The version of the rules a game starts under: :attr:`version` and a hash of its data files
        (``"1+3f2a9c0b1d4e"``). A game stores it at its start; when today's differs, its log may no
        longer replay and it plays on from its snapshot (docs/ARCHITECTURE.md, "Upgrades")."""
        return f"{self.version}+{data_hash(self.data)}"

    def warm_pictures(self) -> None:
        """Build what the first pictures need ahead (:attr:`warm`); nothing for a game without."""
        if self.warm:
            _resolve(self.warm)()

    def load(self) -> Game:
        """The game object (imported on first use)."""
        game: Game = _resolve(self.game)
        return game

    def invariant_check(self) -> Invariants | None:
        """The game's own invariants (imported on first use), or None for a game that declares none."""
        if not self.invariants:
            return None
        check: Invariants = _resolve(self.invariants)
        return check

    def make_policy(self, name: str, seed: int) -> Policy:
        """An AI player by name (``"greedy"``, ``"random"``), seeded for repeatable play."""
        if name not in self.policy_names:
            raise KeyError(f"{self.title} has no AI called {name!r}; it has {', '.join(self.policy_names)}.")
        policy: Policy = _resolve(self.policies)(name, seed)
        return policy

    def render(self) -> BoardRenderer:
        """The board renderer (imported on first use)."""
        fn: BoardRenderer = _resolve(self.renderer)
        return fn

    def notice_pictures(self) -> NoticePictures:
        """The pictures of a turn notice (imported on first use): the game's own :attr:`pictures`,
        else its one board picture, without names (at chat size they would not read)."""
        if self.pictures:
            fn: NoticePictures = _resolve(self.pictures)
            return fn
        return partial(_board_alone, self.render())

    def empire_panel(self) -> EmpirePicture | None:
        """The empire card panel picture (imported on first use), or None for a game without one."""
        if not self.empire_picture:
            return None
        fn: EmpirePicture = _resolve(self.empire_picture)
        return fn

    def tracks_image(self) -> TracksPicture | None:
        """The tracks picture (imported on first use), or None for a game without one."""
        if not self.tracks_picture:
            return None
        fn: TracksPicture = _resolve(self.tracks_picture)
        return fn

    def default_options(self) -> dict[str, JSON]:
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise IllegalAction("unknown_option", f"{self.title} has no option {name!r}"
                            + (f"; its options are {', '.join(o.name for o in self.options)}."
                               if self.options else "; it has no options."), option=name)

    def preset(self, name: str) -> dict[str, OptionValue]:
        """The option values of the preset called ``name`` (case and dashes as typed do not matter).

        Raises:
            IllegalAction: ``unknown_preset``, naming the game's presets.
        """
        wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
        for preset in self.presets:
            if preset.name == wanted:
                return dict(preset.values)
        raise IllegalAction("unknown_preset", f"{self.title} has no preset {name!r}"
                            + (f"; its presets are {', '.join(p.name for p in self.presets)}."
                               if self.presets else "; it has none."), preset=name)

    def checked_options(self, players: int, options: Mapping[str, object]) -> dict[str, JSON]:
        """The options a game starts with: the defaults overridden by ``options``, each checked.

        Raises:
            IllegalAction: ``player_count``, ``unknown_option`` or ``bad_option``.
        """
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction("player_count", f"{self.title} is for {self.min_players} to "
                                f"{self.max_players} players, not {players}.", players=players)
        out = self.default_options()
        for name, value in options.items():
            out[name] = self.option(name).check(value)
        return out

    def lobby_options(self, players: int, options: Mapping[str, object]) -> dict[str, JSON]:
        """:meth:`checked_options` for a lobby: an option still being built (``offered=False``) may not be
        set there, even to its default, so no game of the lobby depends on it.

        Raises:
            IllegalAction: as :meth:`checked_options`, or ``unoffered_option``.
        """
        for name in options:
            if not self.option(name).offered:
                raise IllegalAction("unoffered_option", f"The option {name} of {self.title} is not offered "
                                    "yet: it is still being built.", option=name)
        return self.checked_options(players, options)

    def colour(self, seat: PlayerId, chosen: Sequence[str | None] = ()) -> str:
        """The word in a seat's name: its entry of ``chosen`` (:meth:`engine.core.Game.seat_colours`,
        the colour a player took during play), else the spec's own word for the seat."""
        word = chosen[seat] if 0 <= seat < len(chosen) else None
        return word or self.colours[seat % len(self.colours)]

    def seat_colours(self, state: Any) -> tuple[str | None, ...]:
        """The colours the seats go by in ``state``, for :meth:`seat_names`: the game's
        :meth:`engine.core.Game.seat_colours` of a spectator's view (every reader names a seat alike), or
        none without the ``chosen_colours`` facet (no view is drawn: it is not free for every game)."""
        if not self.chosen_colours:
            return ()
        game = self.load()
        return tuple(game.seat_colours(game.view(state, None)))

    def seat_name(self, seat: PlayerId, person: str | None = None, chosen: Sequence[str | None] = ()) -> str:
        """How every line names a seat: ``"alice (Blue)"``, or the colour alone with no person;
        ``chosen`` as in :meth:`colour`."""
        colour = self.colour(seat, chosen)
        return f"{person} ({colour})" if person else colour

    def name_in(self, names: Sequence[str], seat: PlayerId) -> str:
        """The seat's name from the platform's ``names``, or its colour where none is given."""
        return names[seat] if 0 <= seat < len(names) else self.colour(seat)

    def seat_names(self, people: Sequence[str | None], chosen: Sequence[str | None] = ()) -> list[str]:
        """:meth:`seat_name` for every seat, in seat order."""
        return [self.seat_name(seat, person, chosen) for seat, person in enumerate(people)]


DATA_ROOT = Path(__file__).resolve().parents[1] / "data"
RULES_DATA = (".yaml", ".yml", ".json", ".csv")  # what rules read; READMEs and pictures are not rules


@cache
def data_hash(folders: tuple[str, ...]) -> str:
    """12 hex digits of SHA-256 over the rules files under ``data/<folder>`` (path and bytes, sorted)."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted((DATA_ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in RULES_DATA:
                digest.update(path.relative_to(DATA_ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class DataCheck:
    """Data checked by ``python -m engine check-data`` for a game not yet registered as a :class:`GameSpec`.

    ``check`` is ``"module:function"`` returning every problem (empty when all is
    well); ``report`` returns lines worth printing on success (provenance counts).
    """

    id: str
    title: str
    check: str
    report: str | None = None


def _board_alone(draw: BoardRenderer, view: Mapping[str, Any], *, focus: Sequence[str] = (),
                 size: int = 800, people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """:class:`NoticePictures` of a game with none of its own: its board, as a notice always carried it
    (with no tag: the one picture needs none; a :class:`BoardRenderer` takes no ``people``)."""
    return [("", draw(view, names=False, size=size))]


@cache
def _resolve(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)
