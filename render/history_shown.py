"""What a History of the World picture shows of a view, read once at the door from either ruleset's
typed view (:class:`engine.history.view.ClassicView`, :class:`engine.history.epochs5.view.Epochs5View`).

The board (``render.history_board``) and the close-up (``render.history_closeup``) draw both rulesets
with the same code; they read :class:`Shown`, never a view, so each view's keys are read here once,
each by its own ruleset's type. The phases are compared as each ruleset's ``Phase`` members, converted
here: a view that went through JSON holds their strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.history.epochs5.state import Phase as Epochs5Phase
from engine.history.epochs5.view import Epochs5View
from engine.history.state import Phase as ClassicPhase
from engine.history.view import ClassicView

HistoryView = ClassicView | Epochs5View
"""A view of either History ruleset (told apart by its keys: only the 5-epoch view has region tokens)."""

Army = tuple[int, int, str]
"""An army as the map draws it: its owner, the epoch of its piece (0 in the 5-epoch rules, whose board
does not record it) and the key of its force (an empire, a kingdom...)."""


@dataclass(frozen=True)
class TurnShown:
    """The turn under way, as the picture shows it.

    Attributes:
        player: the seat playing.
        name: the empire's name.
        active: the force keys of the armies that move now (drawn as active).
        fleets: the seas of the force's fleets, one entry per fleet.
        caravans: the 5-epoch force's caravan lands (none in the classic rules).
        catapult: the 5-epoch siege bonus waiting on the catapult (0 in the classic rules).
        to_place: the 5-epoch armies left on the card to place (None in the classic rules).
    """

    player: int
    name: str
    active: frozenset[str]
    fleets: tuple[str, ...]
    caravans: tuple[str, ...] = ()
    catapult: int = 0
    to_place: int | None = None


@dataclass(frozen=True)
class Shown:
    """What a History picture draws of a view.

    Attributes:
        epoch: the epoch under way.
        epoch_name: "Epoch III".
        phase: the phase's name, lower case ("turn").
        armies: each land's armies, first on top.
        forts, monuments: the lands holding one.
        structures: land -> "capital", "capitol" or "city".
        manned: the classic rules' Naval Control: sea -> the owner of the army on its fleet.
        turn: the turn under way, if any.
        you: the seat whose view this is (None: a spectator).
        scores: the scores to show (the final figures once the game is over).
        winner: the winner once the game is over (the first of the ranking), else None.
        tokens: the 5-epoch rules' region tokens out this epoch, region -> value (None: classic,
            whose areas are worth what the map data says).
    """

    epoch: int
    epoch_name: str
    phase: str
    armies: Mapping[str, Sequence[Army]]
    forts: frozenset[str]
    monuments: frozenset[str]
    structures: Mapping[str, str]
    manned: Mapping[str, int]
    turn: TurnShown | None
    you: int | None
    scores: list[int]
    winner: int | None
    tokens: Mapping[str, int] | None


def viewer(view: HistoryView) -> int | None:
    """The seat whose view this is (None for a spectator): both rulesets put it in ``you``."""
    you = view["you"]
    return int(you["player"]) if you is not None else None


def _winner(over: bool, ranking: Sequence[int] | None) -> int | None:
    return int(ranking[0]) if over and ranking else None


def _classic(view: ClassicView) -> Shown:
    board, turn = view["board"], view["turn"]
    final = view["final"]
    over = ClassicPhase(view["phase"]) is ClassicPhase.OVER
    return Shown(
        epoch=int(view["epoch"]),
        epoch_name=view["epoch_name"],
        phase=str(view["phase"]),
        armies={land: [(int(a[0]), int(a[1]), str(a[2])) for a in stack]
                for land, stack in board["armies"].items()},
        forts=frozenset(board["forts"]),
        monuments=frozenset(board["monuments"]),
        structures=board["structures"],
        manned={sea: int(army[0]) for sea, army in board["manned"].items()},
        turn=TurnShown(
            player=int(turn["player"]),
            name=turn["name"],
            active=frozenset({turn["empire"], turn["force_key"]}),
            fleets=tuple(str(w) for w in turn["fleets"]),
        ) if turn else None,
        you=viewer(view),
        # the rules add the pre-eminence markers into ``final`` at the end
        scores=list(final if final is not None else view["scores"]),
        winner=_winner(over, view["ranking"]),
        tokens=None,
    )


def _epochs5(view: Epochs5View) -> Shown:
    board, turn = view["board"], view["turn"]
    over = Epochs5Phase(view["phase"]) is Epochs5Phase.OVER
    return Shown(
        epoch=int(view["epoch"]),
        epoch_name=view["epoch_name"],
        phase=str(view["phase"]),
        # one army a territory, [owner, force]; its piece's epoch is not recorded
        armies={land: [(int(army[0]), 0, str(army[1]))] for land, army in board["armies"].items() if army},
        forts=frozenset(board["forts"]),
        monuments=frozenset(board["monuments"]),
        structures=board["structures"],
        manned={},
        turn=TurnShown(
            player=int(turn["player"]),
            name=turn["name"],
            active=frozenset({turn["empire"]}),
            fleets=tuple(str(w) for w in turn["fleets"]),
            caravans=tuple(str(land) for land in turn["caravans"]),
            catapult=int(turn["catapult"]),
            to_place=int(turn["armies"]),
        ) if turn else None,
        you=viewer(view),
        scores=list(view["scores"]),
        winner=_winner(over, view["ranking"]),
        tokens={region: int(token["value"]) for region, token in view["region_tokens"].items()},
    )


def shown_in(view: HistoryView) -> Shown:
    """What a picture draws of ``view``, a view of either ruleset (fresh from the engine or through JSON)."""
    if "region_tokens" in view:
        return _epochs5(view)
    return _classic(view)
