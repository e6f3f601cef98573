"""One `card` for every game (issue 29 item 4): :meth:`engine.core.Game.card_text` over the registry; no
test here names a game.

The hook reads the asker's view alone, so what it may show is what that view lets its seat read. Over
random games of every registered game: a card another seat holds hidden (named in that seat's ``hand``
text, read whole from that seat's view, not from a spectator's) is refused in one sentence, or unknown,
from every other seat that does not hold such a card too; whatever a word is, the answer is None or
sentences a player reads, never Python's error text; a game that never reads a card (the template's
default) answers None to everything.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core import Game
from engine.spec import GameSpec
from tests.contract.checks import LEAKS
from tests.contract.test_place_contract import COLOURS, PEOPLE, RAW, SPECS, phrases, spec_id

MOVES = 400
SAMPLES = 8
"""States looked at per game: evenly along a random game of :data:`MOVES` moves."""

CARD_NUMBER = re.compile(r"\bcard (\d+)\b", re.I)
STRANGE = ("Atlantis", "", "   ", "x" * 10_000, "9" * 10_000, "0", "-1", "²", "٣", "#", "card", "card -4",
           "card 999", "{'hand': [1]}", "None")


def played(spec: GameSpec) -> tuple[Game, list[Any], list[str]]:
    """The game, :data:`SAMPLES` states along a game played at random from its start, and seat names."""
    game = spec.load()
    players = min(max(spec.min_players, 3), spec.max_players)
    names = [f"{PEOPLE[p]} ({COLOURS[p]})" for p in range(players)]
    state = game.setup(players, {}, 11)
    rng = random.Random(spec.id)
    states = [state]
    for move in range(1, MOVES + 1):
        if game.is_over(state) or not game.actors(state):
            break
        player = rng.choice(sorted(game.actors(state)))
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player)))).state
        if move % (MOVES // SAMPLES) == 0:
            states.append(state)
    return game, states, names


def words_in(text: str) -> list[str]:
    """What a person might ask ``card`` for after reading ``text``: its capitalised names, and "card N"."""
    return phrases(text) + [f"card {n}" for n in CARD_NUMBER.findall(text)]


def readable(text: str) -> bool:
    """Words a player reads: no raw data, no seat number, no Python structure or error text."""
    return not RAW.search(text) and not any(pattern.search(text) for pattern, _ in LEAKS)


def one_sentence(text: str | None) -> bool:
    """None, or one line a player reads: a sentence, no Python text, no raw data."""
    return text is None or ("\n" not in text and text.endswith(".") and readable(text) and len(text) <= 400)


def reads(game: Game, view: Any, word: str, names: Sequence[str]) -> str | None:
    """The card ``word`` finds from ``view`` when it is read whole (more than one refusing sentence)."""
    text = game.card_text(view, word, names)
    return None if one_sentence(text) else text


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_card_another_seat_holds_hidden_is_refused_or_unknown(spec: GameSpec) -> None:
    game, states, names = played(spec)
    hidden = answered = 0
    for state in states:
        public = game.view(state, None)
        views = [game.view(state, seat) for seat in range(len(names))]
        hands = [game.hand_text(views[seat], seat, names) for seat in range(len(names))]
        for holder, view in enumerate(views):
            for word in words_in(hands[holder]):
                whole = reads(game, view, word, names)
                if whole is None:
                    continue
                answered += 1
                assert readable(whole), whole
                if reads(game, public, word, names) == whole:
                    continue  # on the table: everyone reads it
                hidden += 1
                for asker, theirs in enumerate(views):
                    if asker == holder or word.casefold() in hands[asker].casefold():
                        continue  # the card itself, or one like it in the asker's own hand
                    answer = game.card_text(theirs, word, names)
                    assert answer != whole and one_sentence(answer), \
                        f"{names[asker]} asks for {word!r}, which {names[holder]} holds hidden:\n{answer}"
    if answered:  # a game that reads cards has some its players hold hidden
        assert hidden, f"every card of a hand of {spec.id} is read from a spectator's view too"


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_word_that_is_no_card_gets_none_or_one_sentence(spec: GameSpec) -> None:
    game, states, names = played(spec)
    for state in (states[0], states[-1]):
        for viewer in (None, 0):
            view = game.view(state, viewer)
            for word in (*STRANGE, names[0], names[-1]):
                answer = game.card_text(view, word, names)
                assert one_sentence(answer), f"{word[:30]!r}: {answer}"
                assert answer is None or word[:50] not in answer or len(word) < 50, answer  # no pasted page


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_a_card_the_asker_reads_is_found_by_its_name_in_any_case(spec: GameSpec) -> None:
    """Whatever a seat's hand names and it reads whole is found again in other cases (or the game reads
    no cards at all, and answers None to everything its hands and board name)."""
    game, states, names = played(spec)
    for state in states[1:]:
        for seat in range(len(names)):
            view = game.view(state, seat)
            texts = game.hand_text(view, seat, names) + "\n" + game.board_text(view, names)
            for word in words_in(texts):
                whole = reads(game, view, word, names)
                if whole is None:
                    continue
                assert whole.rstrip().endswith(".") and readable(whole), whole
                assert game.card_text(view, word.upper(), names) == whole
                assert game.card_text(view, f"  {word.lower()} ", names) == whole
