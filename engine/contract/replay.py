"""The action log: undo and join entries, replaying a log, and the decision a seat faces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.contract.basics import JSON, PlayerId
from engine.contract.codec import Action, shown_value
from engine.contract.errors import IllegalAction
from engine.contract.hidden import plain_move
from engine.contract.protocol import Game
from engine.contract.values import Decision, Names, Result

UNDO = "undo"
"""The ``kind`` of the log entry that takes back its player's newest undoable move (never a game's action)."""


def undo_entry(player: PlayerId) -> dict[str, JSON]:
    """The log entry by which ``player`` takes back their newest move."""
    return {"kind": UNDO, "player": player}


JOIN = "join"
"""The ``kind`` of the log entry seating a new player in a game under way (never a game's action)."""


def join_entry(player: PlayerId) -> dict[str, JSON]:
    """The log entry by which a newcomer takes seat ``player`` (after the last) via :meth:`Game.join`."""
    return {"kind": JOIN, "player": player}


def no_joining() -> IllegalAction:
    """The refusal of a game that takes no new player once it has started."""
    return IllegalAction("no_joining", "This game can't take a new player once it has started.")


def players_at_start(seated: int, log: Iterable[Action | Mapping[str, JSON]]) -> int:
    """How many seats a game was set up with: those seated now less those who joined since (its log's
    join entries). A replay from the seed sets up that many, then replays the joins in their place."""
    return seated - sum(1 for entry in log if isinstance(entry, Mapping) and entry.get("kind") == JOIN)


@dataclass
class _Step:
    """A plain move in :class:`LogReplay`'s chain: the state before it, the move, its mark, what it
    gave, and whether :meth:`Game.undoable` allows taking it back (None until asked)."""

    before: Any
    action: Action
    mark: Any
    result: Result
    undoable: bool | None = None
    quiet: bool = False  # :meth:`Game.quiet`: its player alone may take it back, whatever came since


class LogReplay:
    """Replays an action log that may hold undo and join entries, one entry at a time.

    The log stays append-only: an undo entry voids the newest move still undoable (per
    :meth:`Game.undoable`) and restores the state from before it, which is exactly the state a
    replay without that move reaches (the engine is deterministic). Any move that is not
    undoable (a roll, a draw, a reveal, another player's move) closes the chain behind it, so
    no undo ever reaches past something that became known. A join entry (:func:`join_entry`) seats a
    newcomer through :meth:`Game.join` and closes the chain too: no undo takes a seat away.

    :meth:`Game.undoable` is asked lazily, of the newest move only, when an undo could reach it: a
    move is undoable only if it is a :func:`plain_move` (the cheap check, made at once, closes the
    chain), and only the newest move of a chain can be taken back, so asking about the others would
    change no answer. A replay of a long log thus pays the hidden swap for a few moves, not all.

    A quiet move (:meth:`Game.quiet`) tells nobody else anything, so it must change nothing another seat
    can do either: it joins the chain without closing it, only its own player may take it back, and it
    stands in no one else's way. An undo that reaches past other seats' quiet moves restores the state
    from before the move taken back and plays those quiet moves again on it, in their order (one the
    restored state refuses is dropped: the order it set no longer fits the board).
    """

    def __init__(self, game: Game, state: Any) -> None:
        self.game = game
        self.state = state
        self._undo: list[_Step] = []  # the plain moves since the chain last closed, newest last
        self.voided: Any = None  # the mark of the move the last undo took back

    def copy(self) -> LogReplay:
        """An independent replay at the same point (states never change in place: sharing them is safe)."""
        twin = LogReplay(self.game, self.state)
        twin._undo = list(self._undo)
        return twin

    def _newest(self, player: PlayerId) -> int | None:
        """The index in the chain of ``player``'s newest move, past other seats' quiet moves only."""
        k = len(self._undo) - 1
        while k >= 0 and self._undo[k].quiet and self._undo[k].action.player != player:
            k -= 1
        if k < 0 or self._undo[k].action.player != player:
            return None
        return k

    def undoable(self, player: PlayerId) -> Action | None:
        """The move ``player`` would take back now, or None."""
        k = self._newest(player)
        if k is None:
            return None
        step = self._undo[k]
        if step.undoable is None:
            step.undoable = self.game.undoable(step.before, step.action, step.result)
        if not step.undoable:
            del self._undo[:k + 1]  # a final move: nothing before it can be reached any more
            return None
        return step.action

    def _take_back(self, player: PlayerId) -> None:
        """Take back ``player``'s newest undoable move (:meth:`undoable` said there is one): the state
        from before it, with the other seats' quiet moves since played again on it."""
        k = self._newest(player)
        assert k is not None
        step, later = self._undo[k], self._undo[k + 1:]
        del self._undo[k:]
        self.state, self.voided = step.before, step.mark
        for quiet in later:
            try:
                self.play(quiet.action, quiet.mark)
            except IllegalAction:
                continue  # the restored board no longer takes it: it is dropped, as the service drops it

    def apply(self, entry: Mapping[str, JSON], mark: Any = None) -> Result:
        """Apply one log entry (an action's JSON, an undo or a join entry); an undo has no events.

        ``mark`` names the entry for the caller (its seq): after an undo, :attr:`voided` holds the
        mark of the move taken back (a public log drops that move's lines)."""
        if isinstance(entry, Mapping) and entry.get("kind") == UNDO:
            player = entry.get("player")
            if not isinstance(player, int) or self.undoable(player) is None:
                raise IllegalAction("nothing_to_undo", "There is no move of yours to take back: "
                                    "something new became known since, or another player moved.")
            self._take_back(player)
            return Result(self.state, ())
        if isinstance(entry, Mapping) and entry.get("kind") == JOIN:
            return self.join(entry.get("player"))
        return self.play(self.game.codec.decode(entry), mark)

    def join(self, player: object) -> Result:
        """A newcomer takes seat ``player``, which must be the seat after the last."""
        seats = len(self.game.scores(self.state))
        if player != seats:
            raise IllegalAction("bad_join", f"A newcomer takes the seat after the last ({seats}), not "
                                f"{shown_value(player)}.")
        result = self.game.join(self.state)
        self._undo.clear()
        self.state = result.state
        return result

    def play(self, action: Action, mark: Any = None) -> Result:
        before = self.state
        result = self.game.apply(before, action)
        if self.game.quiet(before, action):
            self._undo.append(_Step(before, action, mark, result, undoable=True, quiet=True))
        elif plain_move(self.game, before, action, result):
            self._undo.append(_Step(before, action, mark, result))
        else:
            self._undo.clear()
        self.state = result.state
        return result


def decide(game: Game, state: Any, player: PlayerId, names: Names = ()) -> Decision | None:
    """``player``'s current decision, or None when they have nothing to decide now."""
    if player not in game.actors(state):
        return None
    legal = game.legal_actions(state, player)
    if not legal:
        return None
    return game.decision(game.view(state, player), player, legal, names)


def replay(
    game: Game, players: int, options: Mapping[str, JSON], seed: int,
    log: Sequence[Action | Mapping[str, JSON]],
) -> Any:
    """Rebuild a state from its seed and action log (actions, or their JSON with undo and join entries);
    ``players`` is the number of seats at the start (see :func:`players_at_start`)."""
    run = LogReplay(game, game.setup(players, options, seed))
    for entry in log:
        if isinstance(entry, Action):
            run.play(entry)
        else:
            run.apply(entry)
    return run.state
