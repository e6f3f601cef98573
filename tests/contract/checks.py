"""What every registered game must do, checked from the outside through the :class:`engine.core.Game`
contract only: no game is named here, so a game that passes these passes as any other.

:func:`missing_hooks` lists what a game object lacks; :func:`random_playout` plays a seeded game
between the game's random players and returns every problem it found (an empty list when the
game keeps the contract): after every move the game's own invariants (its spec's ``invariants``), the
JSON round trip of the state and of the move, the events' words and the acting seat's decision; the
expensive properties at steps 1, 2, 4, 8... and at the end.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    JSON,
    Action,
    Ending,
    Event,
    Game,
    IllegalAction,
    Outcome,
    PlayerId,
    Result,
    decide,
    join_entry,
    players_at_start,
    replay,
)
from engine.spec import GameSpec

#: Who sits at the test table: every line must name seats through these, never by a number.
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
MAX_LABEL = 100
MAX_STEPS = 50_000
#: What no player may read: a raw seat number, a Python structure or error, a missing value.
LEAKS = (
    # a map's grid reference in brackets after a place is not a seat: "Kazakh Steppe (P4)" (7 Ages, L29)
    (re.compile(r"(?<![\w(])P\d+\b|\(P\d+\b(?!\))"), "a raw seat id like P1"),
    (re.compile(r"\b(?:player|seat) \d+\b", re.IGNORECASE), "a seat number instead of its name"),
    (re.compile(r"[{}]"), "a brace (an unfilled template or a dict)"),
    (re.compile(r"\['|\[\"|\(\'"), "a Python list or tuple of strings"),
    (re.compile(r"Traceback|Error\b|object at 0x"), "Python error text"),
    (re.compile(r"\bNone\b(?! of)"), "the word None (a missing value)"),
)


def contract_members() -> tuple[list[str], list[str]]:
    """The attributes and the methods of the :class:`Game` protocol (read from it, so this list
    cannot fall behind the contract)."""
    methods = [name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")]
    return list(Game.__annotations__), methods


def missing_hooks(game: object) -> list[str]:
    """What ``game`` lacks of the contract, each named as a reader of the failure would look for it."""
    attributes, methods = contract_members()
    missing = [f"attribute {name}" for name in attributes if not hasattr(game, name)]
    missing += [f"method {name}()" for name in methods if not callable(getattr(game, name, None))]
    return missing


def assert_complete(game: object) -> None:
    """AssertionError naming every missing piece when ``game`` does not implement the whole contract."""
    missing = missing_hooks(game)
    if missing:
        title = getattr(game, "title", type(game).__name__)
        raise AssertionError(f"{title} does not implement the game contract: it lacks {', '.join(missing)}")


def text_problem(text: object, what: str, *, limit: int | None = None) -> str | None:
    """Why ``text`` is not a sentence a player can read (None when it is)."""
    if not isinstance(text, str):
        return f"{what} is a {type(text).__name__}, not text: {text!r}"
    if not text.strip():
        return f"{what} is empty"
    if limit is not None and len(text) > limit:
        return f"{what} is {len(text)} characters, more than {limit}: {text!r}"
    for pattern, meaning in LEAKS:
        if pattern.search(text):
            return f"{what} shows {meaning}: {text!r}"
    return None


def canonical(value: Any) -> str:
    """One string per JSON value (key order ignored): equal values, equal strings."""
    return json.dumps(value, sort_keys=True)


def action_key(action: Action) -> str:
    return canonical(action.to_json())


def seat_names(spec: GameSpec, players: int) -> list[str]:
    return spec.seat_names(list(PEOPLE[:players]))


@dataclass
class Playout:
    """What a random playout saw: its problems, and views the render and text checks reuse."""

    spec: GameSpec
    players: int
    seed: int
    problems: list[str] = field(default_factory=list)
    steps: int = 0
    mid_view: Mapping[str, Any] | None = None
    final_view: Mapping[str, Any] | None = None
    worded: set[str] = field(default_factory=set)
    silent: set[str] = field(default_factory=set)
    joined_at: int = 0  # the step a newcomer joined at (0: nobody joined)

    def fail(self, step: int, problem: str) -> None:
        if len(self.problems) < 40:  # enough to see the pattern; the first is usually the cause
            self.problems.append(f"{self.spec.id}, {self.players} players, seed {self.seed}, step {step}: "
                                 f"{problem}")


Watch = Callable[[Any, Action, Result], None]
"""Told of every move a playout makes: the state before it, the move and its result (a game's own test
counts what it cares about through it, e.g. the cards played)."""


def random_playout(spec: GameSpec, players: int, seed: int, policy: str = "random",
                   join_at: int | None = None, options: Mapping[str, JSON] | None = None,
                   watch: Watch | None = None) -> Playout:
    """Play ``spec``'s game with its ``policy`` players from ``seed`` to the end, checking the contract.

    With ``join_at``, a newcomer (a ``policy`` player too) joins at the first step from ``join_at`` on
    at which the game takes one (:meth:`Game.join`; refusals until then are fine), and the state is
    checked at once: the join entry replays, and the views keep the newcomer's hand and the others'
    hands apart. ``options`` are the lobby options the game is set up with (the spec's defaults when
    None; those given replace the defaults of the same name). ``watch`` is told of every move made.
    The game's own invariants (:meth:`engine.spec.GameSpec.invariant_check`) are checked after every
    move, and the decision of the seat about to move before it."""
    game = spec.load()
    invariants = spec.invariant_check()
    out = Playout(spec, players, seed)
    names = seat_names(spec, players)
    options = {**spec.default_options(), **(options or {})}
    state = game.setup(players, options, seed)
    ais = [spec.make_policy(policy, seed * 7 + p) for p in range(players)]
    log: list[Action | Mapping[str, JSON]] = []
    hidden: list[list[Event]] = [[] for _ in range(players)]  # events each seat may not see
    private: list[Event] = []  # every event told to some seats only: a newcomer may see none of them
    checkpoint = 1
    while not game.is_over(state):
        step = len(log) + 1
        if step > MAX_STEPS:
            out.fail(step, f"the game has not ended after {MAX_STEPS} moves")
            return out
        if join_at is not None and step >= join_at and not out.joined_at:
            joined = join_once(out, game, state, step, private)
            if joined is not None:
                state = joined.state
                log.append(join_entry(out.players - 1))
                names = seat_names(spec, out.players)
                ais.append(spec.make_policy(policy, seed * 7 + out.players - 1))
                hidden.append(list(private))
                for event in joined.events:
                    check_event(out, game, event, step, names)
                    record_hidden(event, hidden, private)
                check_state(out, game, state, step, options, log, hidden, names)
                continue
        actors = sorted(game.actors(state))
        if not actors:
            out.fail(step, "the game is not over but nobody may act")
            return out
        player = actors[step % len(actors)]  # simultaneous moves: every actor gets turns
        if step == checkpoint:
            checkpoint *= 2
            check_state(out, game, state, step, options, log, hidden, names)
            out.mid_view = game.view(state, None)
        else:  # check_state has checked every actor's decision at a checkpoint
            check_decision(out, game, state, player, step)
        action = ais[player].choose(state, player)
        try:
            result = game.apply(state, action)
        except IllegalAction as exc:
            out.fail(step, f"the {policy} AI's move {action.to_json()} was refused: {exc.message}")
            return out
        if watch is not None:
            watch(state, action, result)
        if invariants is not None:
            for problem in invariants(state, action, result):
                out.fail(step, f"after {action.to_json()}: {problem}")
        check_logged(out, game, action, step)
        check_round_trip(out, game, result.state, step)
        log.append(action)
        state = result.state
        for event in result.events:
            check_event(out, game, event, step, names)
            record_hidden(event, hidden, private)
    out.steps = len(log)
    check_state(out, game, state, len(log) + 1, options, log, hidden, names)
    check_end(out, game, state, names)
    return out


def codec_problem(game: Game, action: Action, what: str) -> str | None:
    """Why ``action`` (``what`` it is: "the move made", "the legal move") does not come back the same
    from its JSON through the game's codec, as a stored log must; None when it does."""
    try:
        decoded = game.codec.decode(json.loads(json.dumps(action.to_json())))
    except IllegalAction as exc:
        return f"{what} {action.to_json()} does not decode: {exc.message}"
    if decoded != action:
        return f"{what} {action.to_json()} decodes as {decoded.to_json()}"
    return None


def check_logged(out: Playout, game: Game, action: Action, step: int) -> None:
    """The move made, as the log stores it, decodes to the same move (a stored log replays)."""
    problem = codec_problem(game, action, "the move made")
    if problem is not None:
        out.fail(step, problem)


def record_hidden(event: Event, hidden: list[list[Event]], private: list[Event]) -> None:
    """Note ``event`` among what each seat may not see."""
    if event.audience != "public":
        private.append(event)
    for seat, unseen in enumerate(hidden):
        if not event.visible_to(seat):
            unseen.append(event)


def join_once(out: Playout, game: Game, state: Any, step: int, private: Sequence[Event]) -> Any:
    """A newcomer joins ``state`` (the :class:`engine.core.Result`), or None when the game refuses now
    (in words a player can read). The state given is never changed; the seat is added after the last."""
    before = canonical(game.to_json(state))
    try:
        result = game.join(state)
    except IllegalAction as exc:
        problem = text_problem(exc.message, "the refusal of a newcomer")
        if problem:
            out.fail(step, problem)
        return None
    if canonical(game.to_json(state)) != before:
        out.fail(step, "join changed the state it was given")
    out.players += 1
    out.joined_at = step
    if len(game.scores(result.state)) != out.players:
        out.fail(step, f"after a join the scores {game.scores(result.state)} do not have one per seat")
    if not any(e.audience == "public" for e in result.events):
        out.fail(step, "a join told the table nothing (no public event)")
    return result


def check_event(out: Playout, game: Game, event: Event, step: int, names: Sequence[str]) -> None:
    """Every event is worded without raising; an event told to some seats only must say something."""
    try:
        text = game.describe_event(event, names)
    except Exception as exc:
        out.fail(step, f"describe_event raised {type(exc).__name__}: {exc} for {event.to_json()}")
        return
    if text is None:
        if event.audience != "public":
            out.fail(step, f"the private event {event.type!r} is not worded (describe_event gave None)")
        out.silent.add(event.type)
        return
    out.worded.add(event.type)
    problem = text_problem(text, f"the sentence for event {event.type!r}")
    if problem:
        out.fail(step, problem)


def check_round_trip(out: Playout, game: Game, state: Any, step: int) -> bool:
    """The state survives its JSON round trip (a stored game reads back the same); False when
    ``from_json`` raised."""
    data = game.to_json(state)
    try:
        copied = game.from_json(json.loads(json.dumps(data)))
    except Exception as exc:
        out.fail(step, f"from_json(to_json(state)) raised {type(exc).__name__}: {exc}")
        return False
    if canonical(game.to_json(copied)) != canonical(data):
        out.fail(step, "the state does not survive a JSON round trip")
    return True


def check_state(out: Playout, game: Game, state: Any, step: int, options: Mapping[str, JSON],
                log: Sequence[Action | Mapping[str, JSON]], hidden: Sequence[Sequence[Event]],
                names: Sequence[str]) -> None:
    """The checks made at every checkpoint: persistence, replay, decisions, views and words."""
    text = canonical(game.to_json(state))
    if not check_round_trip(out, game, state, step):
        return
    if canonical(json.loads(game.dumps(state))) != text:
        out.fail(step, "dumps(state) is not the JSON of to_json(state)")
    rebuilt = replay(game, players_at_start(out.players, log), options, out.seed, log)
    if canonical(game.to_json(rebuilt)) != text:
        out.fail(step, "replaying the action log from the seed does not rebuild the state")
    actors = game.actors(state)
    for player in sorted(actors):
        check_decision(out, game, state, player, step)
        check_hidden_moves(out, game, state, player, step)
    for seat in [*range(out.players), None]:
        view = game.view(state, seat)
        try:
            view_text = json.dumps(view)
        except TypeError as exc:
            out.fail(step, f"the view of seat {seat} is not JSON: {exc}")
            continue
        if seat is not None:
            for event in hidden[seat]:
                if json.dumps(event.to_json()) in view_text:
                    out.fail(step, f"seat {seat}'s view holds the event {event.type!r} addressed to others")
            say(out, step, f"hand_text of seat {seat}", lambda v=view, s=seat: game.hand_text(v, s, names))
    spectator = game.view(state, None)
    say(out, step, "stage", lambda: game.stage(spectator), limit=60)
    say(out, step, "status_text", lambda: game.status_text(spectator, names))
    say(out, step, "board_text", lambda: game.board_text(spectator, names))
    problem = outcome_problem(game, state)
    if problem is not None:
        out.fail(step, problem)


def say(out: Playout, step: int, what: str, hook: Any, limit: int | None = None) -> str | None:
    """Call a text hook; record it raising or not reading as a sentence."""
    try:
        text = hook()
    except Exception as exc:
        out.fail(step, f"{what} raised {type(exc).__name__}: {exc}")
        return None
    problem = text_problem(text, what, limit=limit)
    if problem:
        out.fail(step, problem)
        return None
    return str(text)


def check_decision(out: Playout, game: Game, state: Any, player: PlayerId, step: int) -> None:
    """The decision offers every legal move once, labelled readably; the skip move is legal; moves
    survive their JSON codec."""
    legal = list(game.legal_actions(state, player))
    if not legal:
        out.fail(step, f"seat {player} is to act but has no legal move")
        return
    keys = [action_key(a) for a in legal]
    for action in legal:
        problem = codec_problem(game, action, "the legal move")
        if problem is not None:
            out.fail(step, problem)
    try:
        timeout = game.timeout_action(state, player)
    except Exception as exc:
        out.fail(step, f"timeout_action raised {type(exc).__name__}: {exc}")
    else:
        if action_key(timeout) not in keys:
            out.fail(step, f"timeout_action {timeout.to_json()} is not a legal move of seat {player}")
    try:
        decision = decide(game, state, player)
    except Exception as exc:
        out.fail(step, f"decision raised {type(exc).__name__}: {exc}")
        return
    if decision is None or decision.player != player:
        out.fail(step, f"seat {player} is to act but decide() gave {decision!r}")
        return
    problem = text_problem(decision.heading, "the decision heading")
    if problem:
        out.fail(step, problem)
    offered = sorted(action_key(c.action) for c in decision.choices)
    if offered != sorted(keys):
        extra = sorted(set(offered) - set(keys))[:3]
        lacking = sorted(set(keys) - set(offered))[:3]
        out.fail(step, f"the decision does not offer each legal move exactly once ({len(offered)} choices, "
                 f"{len(keys)} legal moves; not legal: {extra}; not offered: {lacking}; or repeats)")
    labels = [c.label for c in decision.choices]
    if len(set(labels)) != len(labels):
        twice = sorted({label for label in labels if labels.count(label) > 1})[:3]
        out.fail(step, f"decision labels repeat: {twice}")
    for choice in decision.choices:
        for what, text in (("label", choice.label), ("group", choice.group), ("confirm", choice.confirm)):
            if what == "label" or text:
                problem = text_problem(text, f"the choice {what}", limit=MAX_LABEL)
                if problem:
                    out.fail(step, problem)


def check_hidden_moves(out: Playout, game: Game, state: Any, player: PlayerId, step: int,
                       tries: int = 8) -> None:
    """The swap check: when two of ``player``'s moves tell another seat exactly the same things
    (the same events visible to it), differ in what is hidden from it and leave it the same moves,
    that seat's view after either move is the same. (A move that hands the seat something to
    decide on, a passed set of cards, shows it what it was handed: its moves then differ.)
    Also: applying a move never changes the state it was given."""
    before = canonical(game.to_json(state))
    results = []
    for action in list(game.legal_actions(state, player))[:tries]:
        try:
            results.append((action, game.apply(state, action)))
        except IllegalAction as exc:
            out.fail(step, f"the legal move {action.to_json()} was refused: {exc.message}")
            return
        if canonical(game.to_json(state)) != before:
            out.fail(step, f"apply changed the state it was given (move {action.to_json()})")
            return
    seats: list[PlayerId | None] = [*range(out.players), None]  # None: a spectator
    for seat in seats:
        if seat == player:
            continue
        told: dict[str, tuple[Action, str, Any]] = {}
        for action, result in results:
            seen = canonical([e.to_json() for e in result.events if e.visible_to(seat)])
            if seat is not None:
                seen += canonical([a.to_json() for a in game.legal_actions(result.state, seat)])
            unseen = canonical([e.to_json() for e in result.events if not e.visible_to(seat)])
            if seen not in told:
                told[seen] = (action, unseen, result.state)
                continue
            other, other_unseen, other_state = told[seen]
            if unseen == other_unseen:
                continue
            where = view_difference(game.view(other_state, seat), game.view(result.state, seat))
            if where is not None:
                who = "a spectator" if seat is None else f"seat {seat}"
                out.fail(step, f"{who} is told the same of {other.to_json()} and {action.to_json()}, "
                         f"which differ only in what is hidden from it, yet its view differs at {where}")


def view_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The first place (``/key/0``) where two views differ, or None when they are the same."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}/{key}"
            found = view_difference(a[key], b[key], f"{path}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = view_difference(x, y, f"{path}/{i}")
            if found is not None:
                return found
        return None
    return None if canonical(a) == canonical(b) else path or "/"


def places_problem(game: Game, state: Any, ranking: Sequence[int]) -> str | None:
    """What is wrong with the game's places (None: nothing): they must be the ranking cut into groups,
    the seats of a group equal on everything the game compares, and every group behind the one before."""
    places = [list(place) for place in game.places(state)]
    if [seat for place in places for seat in place] != list(ranking) or not all(places):
        return f"places {places} are not the ranking {list(ranking)} cut into places"
    keys = [[game.compared(state, seat) for seat in place] for place in places]
    for place, group in zip(places, keys, strict=True):
        if any(key != group[0] for key in group):
            return f"the seats {place} share a place but the game compares them as {group}"
    firsts = [group[0] for group in keys]
    if any(not earlier < later for earlier, later in itertools.pairwise(firsts)):
        return f"places {places} are not each behind the one before (compared: {firsts})"
    return None


def outcome_problem(game: Game, state: Any) -> str | None:
    """What is wrong with the game's :meth:`Game.outcome` of ``state`` (None: nothing): None while the
    game runs; once over, the game's scores and places, a way of ending and one sentence saying it
    ("The game ends: ..."), naming no seat, that survive the stored result's JSON."""
    outcome = game.outcome(state)
    if not game.is_over(state):
        return None if outcome is None else f"the game runs but its outcome is already {outcome}"
    if outcome is None:
        return "the game is over but its outcome is None"
    places = [list(place) for place in game.places(state)]
    if [list(place) for place in outcome.places] != places:
        return f"the outcome's places {outcome.places} are not the game's places {places}"
    if list(outcome.scores) != list(game.scores(state)):
        return f"the outcome's scores {outcome.scores} are not the game's scores {game.scores(state)}"
    if list(outcome.ranking) != list(game.ranking(state)):
        return f"the outcome's ranking {outcome.ranking} is not the game's ranking {game.ranking(state)}"
    if not isinstance(outcome.reason, Ending):
        return f"the outcome's reason {outcome.reason!r} is not one of the ways a game ends (Ending)"
    problem = text_problem(outcome.why, "the outcome's sentence")
    if problem is not None:
        return problem
    if not outcome.why.startswith("The game ends: ") or not outcome.why.endswith("."):
        return f"the outcome's sentence is not one sentence 'The game ends: ...': {outcome.why!r}"
    if Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) != outcome:
        return f"the outcome does not survive its JSON: {outcome.to_json()}"
    return None


def check_end(out: Playout, game: Game, state: Any, names: Sequence[str]) -> None:
    """At the end: nobody acts, scores and ranking cover every seat, and the summary and the status
    name the winner."""
    step = out.steps + 1
    if game.actors(state):
        out.fail(step, f"the game is over but seats {sorted(game.actors(state))} may still act")
    if len(game.scores(state)) != out.players:
        out.fail(step, f"scores {game.scores(state)} do not have one score per seat")
    ranking = list(game.ranking(state))
    if sorted(ranking) != list(range(out.players)):
        out.fail(step, f"ranking {ranking} is not an order of the seats")
        return
    problem = places_problem(game, state, ranking)
    if problem is not None:
        out.fail(step, problem)
    view = game.view(state, None)
    out.final_view = view
    winner = names[ranking[0]]
    for what, hook in (("summary_text", game.summary_text), ("status_text", game.status_text)):
        text = say(out, step, f"{what} at the end", lambda h=hook: h(view, names))
        if text is not None and winner not in text:
            out.fail(step, f"{what} at the end does not name the winner {winner}: {text!r}")
