"""Typed words name a choice only when they fit it alone (issue 28, item 3): both typing fronts
read choices through :func:`engine.choice_words.matching_choices`."""

from __future__ import annotations

from engine.choice_words import matching_choices, words_of

MOVES = ["Move Crossroads → Eastwatch", "Move Crossroads → Westford", "Move Crossroads → Goldfield",
         "Move Crossroads → Lowmere", "Move Eastwatch → Crossroads", "Stop here (2 moves unused)"]


def test_a_number_is_that_choice_and_only_in_range() -> None:
    assert matching_choices("2", MOVES) == [1]
    assert matching_choices(" 6 ", MOVES) == [5]
    assert matching_choices("0", MOVES) == [] and matching_choices("7", MOVES) == []


def test_words_that_fit_several_choices_name_them_all() -> None:
    """The old reading took the first of the four moves from Crossroads."""
    assert matching_choices("move crossroads", MOVES) == [0, 1, 2, 3]
    assert matching_choices("move", MOVES) == [0, 1, 2, 3, 4]


def test_a_unique_prefix_or_the_words_of_one_choice_name_it() -> None:
    assert matching_choices("move crossroads west", MOVES) == [1]  # words in order, each by its start
    assert matching_choices("MOVE  CROSSROADS → LOWMERE", MOVES) == [3]  # case, spaces, arrows
    assert matching_choices("move east", MOVES) == [4]  # the label starting so wins over words inside
    assert matching_choices("st", MOVES) == [5]
    assert matching_choices("cross gold", MOVES) == [2]


def test_a_whole_label_beats_the_longer_labels_it_starts() -> None:
    labels = ["Pass", "Pass and discard", "Build Archer", "Build Archer Guild"]
    assert matching_choices("pass", labels) == [0]
    assert matching_choices("build archer", labels) == [2]
    assert matching_choices("build arch", labels) == [2, 3]


def test_a_number_among_words_is_that_number_not_the_start_of_a_longer_one() -> None:
    bids = ["Bid 0 coins", "Bid 1 coin", "Bid 10 coins", "Bid 11 coins"]
    assert matching_choices("bid 1", bids) == [1]
    assert matching_choices("bid 1 coins", bids) == []


def test_nothing_fits_words_of_no_choice() -> None:
    assert matching_choices("attack rome", MOVES) == []
    assert matching_choices("→", MOVES) == [] and matching_choices("", MOVES) == []


def test_words_keep_an_apostrophe_inside_a_name() -> None:
    assert words_of("Invade Xi'an (battle)") == ["invade", "xi'an", "battle"]
    assert matching_choices("invade xi'an", ["Invade Xi'an (battle)", "Invade Xia"]) == [0]
