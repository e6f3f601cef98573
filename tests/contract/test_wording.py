"""Issue 16's wording papercuts, each read from the real output of the games (events of seeded AI
games or of rulebook examples, the text hooks, the pictures), never from a string copied out of the
code under test.

The issue: "`1 defending dice`, `reveals markers []`, `The Kingdom of Kush rise`, unexplained `*` after
scores (the markers), `Battle for Volga: 5-3 against 6 +1 terrain.`, an unlabelled Σ row in the
end-of-game summary (empire strengths that read as points), event cards whose picture is half empty",
and the final result said three times.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import pytest

from engine import registry
from engine.core import Event, Game
from engine.history.epochs5.data import load_rules as load_epochs5
from engine.history.epochs5.game import GAME as EPOCHS5
from engine.history.game import GAME as CLASSIC
from tests.support.history_builder import Scenario

NAMES = ("alice (Blue)", "bob (Red)", "carol (Green)", "dave (Yellow)", "erin (Purple)", "fred (Orange)")
#: What never belongs in a sentence for a player: Python's lists, dicts and constants, seat numbers
#: instead of names (a grid reference in brackets after a place, "(P4)", is not one), a key with an
#: underscore, a lone star, a singular count with a plural noun.
NOT_WORDS = re.compile(r"[\[\]{}*]|\bNone\b|\bTrue\b|\bFalse\b|\bPlayer \d|(?<![\w(])P\d+\b|\(P\d+\b(?!\))"
                       r"|\b[a-z]+_[a-z_]+\b"
                       r"|(?<![\d.,])\b1 (dice|armies|points|cards|markers|games|cubes|moves)\b"
                       # issue 28: "a army", "build a Archer"; "all 1 cube", "of the 1 event cards";
                       # "pre-eminence markers 4" (a bare number after a plural); a bracket before a
                       # colour's, as in "bob (AI) (Green)"; "?."
                       r"|\b[Aa] [AaEeIiOo]\w|\b(all|of the) 1\b|\bmarkers \d|\([^()]*\) \([A-Z][a-z]+\)"
                       r"|\?\.")


@cache
def playout(game_id: str, seed: int, players: int) -> tuple[list[tuple[Event, str | None]], list[str]]:
    """A seeded AI game: every event with its sentence, and the text hooks' output along the way."""
    spec = registry.spec(game_id)
    game = spec.load()
    names = NAMES[:players]
    state = game.setup(players, spec.default_options(), seed)
    policies = [spec.make_policy(spec.policy_names[0], seed * 10 + p) for p in range(players)]
    lines: list[tuple[Event, str | None]] = []
    texts: list[str] = []
    step = 0
    while not game.is_over(state):
        player = min(game.actors(state))
        if step % 40 == 0:
            texts += hooks(game, game.view(state, player), player, names)
        texts += decision_words(game, state, player, names)
        result = game.apply(state, policies[player].choose(state, player))
        state = result.state
        lines += [(e, game.describe_event(e, names)) for e in result.events]
        step += 1
    view = game.view(state, None)
    texts += [game.status_text(view, names), game.board_text(view, names), game.summary_text(view, names)]
    return lines, texts


def decision_words(game: Game, state: Any, player: int, names: Sequence[str]) -> list[str]:
    """What the mover reads of their decision: its heading, every label and every confirmation."""
    legal = game.legal_actions(state, player)
    decision = game.decision(game.view(state, player), player, legal, names)
    return [decision.heading, *(c.label for c in decision.choices),
            *(c.confirm for c in decision.choices if c.confirm)]


def hooks(game: Game, view: Any, player: int, names: Sequence[str]) -> list[str]:
    return [game.status_text(view, names), game.hand_text(view, player, names), game.board_text(view, names),
            game.stage(view)]


GAMES = [(s.id, s.min_players) for s in registry.specs()] + [(s.id, s.max_players) for s in registry.specs()]


def sentences(game_id: str, players: int) -> Iterator[tuple[str, str]]:
    for seed in (1, 2):
        lines, texts = playout(game_id, seed, players)
        yield from ((e.type, t) for e, t in lines if t is not None)
        yield from (("hook", t) for t in texts)


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
def test_no_python_text_raw_key_or_stray_symbol_reaches_a_player(game_id: str, players: int) -> None:
    for kind, text in sentences(game_id, players):
        found = NOT_WORDS.search(text)
        assert found is None, f"{game_id} {kind}: {found.group(0)!r} in {text!r}"


# -- "1 defending dice" --------------------------------------------------------------------------------
def test_one_defending_die_is_a_die(dice: Any) -> None:
    """Chapter V, Combat, example: "The Romans (Epoch III) are attacking from Southern Apennines into
    Northern Apennines. ... rolling a 1 and a 3. The defender rolls one die, scoring a 4 ... the
    attacking Roman army is removed." """
    s = Scenario(epoch=3).army("Northern Apennines", owner=1).start("Romans", player=0)
    dice.script([1, 3], [4])
    s.expand("Northern Apennines")
    said = [CLASSIC.describe_event(e, NAMES[:3]) or "" for e in s.events]
    attack = next(t for t in said if "attacks Northern Apennines" in t)
    assert "1 defending die" in attack and "dice" not in attack
    battle = next(t for t in said if t.startswith("Battle for Northern Apennines"))
    # who attacked, both rolls, the totals and who won, in a sentence
    assert "alice (Blue) rolls 1 and 3" in battle and "bob (Red) defends with 4" in battle
    assert "3 to 4" in battle and "bob (Red) holds" in battle


def test_three_defending_dice_are_dice(dice: Any) -> None:
    """Chapter V, Attacking from the Sea, example: "The attacking British army rolls with 2 dice,
    scoring a 2 and a 4. The defender gets three dice, rolling a 1, 1, and 5. The British army is
    defeated and removed." """
    s = Scenario(epoch=7).army("Chekiang", owner=1).start("Britain", player=0)
    dice.script([2, 4], [1, 1, 5])
    s.expand("Chekiang")
    said = [CLASSIC.describe_event(e, NAMES[:3]) or "" for e in s.events]
    assert any("attacks Chekiang from the sea (3 defending dice)" in t for t in said), said
    battle = next(t for t in said if t.startswith("Battle for Chekiang"))
    assert "2 and 4" in battle and "1, 1 and 5" in battle and "4 to 5" in battle


# -- "reveals markers []" ----------------------------------------------------------------------------
def test_a_reveal_of_no_marker_says_so_in_words() -> None:
    revealed = [(e, t) for seed in (1, 2) for e, t in playout("history-classic", seed, 6)[0]
                if e.type == "markers_revealed"]
    assert revealed
    for event, text in revealed:
        assert text is not None and "[" not in text
        if not event.data["markers"]:
            assert "no pre-eminence marker" in text, text
        else:
            assert all(str(m) in text for m in event.data["markers"]), text


def test_pre_eminence_markers_are_named_in_the_status_not_starred() -> None:
    statuses = [t for _, t in sentences("history-classic", 3) if "pre-eminence marker" in t]
    assert statuses, "no status ever counted the markers"
    assert not [t for t in statuses if "*" in t]


# -- "The Kingdom of Kush rise" ------------------------------------------------------------------------
def _established(name: str) -> str:
    event = Event("established", {"name": name, "starts": ["Nubia"], "armies": 2})
    text = EPOCHS5.describe_event(event, NAMES[:3])
    assert text is not None
    return text


def test_an_empire_or_kingdom_agrees_with_its_verb() -> None:
    rules = load_epochs5()
    names = {e.name for e in rules.empires.values()}
    assert {"Kingdom of Kush", "Hittites", "Han Dynasty", "Mali"} <= names  # the names the data holds
    assert _established("Kingdom of Kush").startswith("The Kingdom of Kush rises in Nubia")
    assert _established("Hittites").startswith("The Hittites rise in")
    assert _established("Han Dynasty").startswith("The Han Dynasty rises in")
    assert _established("Mali").startswith("Mali rises in")  # a bare name takes no "the"
    for name in names:
        assert " rise in " in _established(name) or " rises in " in _established(name)


def test_every_called_empire_reads_right_in_seeded_games() -> None:
    for seed in (1, 2):
        for event, text in playout("history", seed, 3)[0]:
            if event.type in ("established", "empire_stood_down", "empire_not_chosen") and text:
                wrong = r"(Dynasty|Kingdom|Empire|Venice|Kush|Axum|Mali) (rise|fall|are)\b"
                assert not re.search(wrong, text), text
                assert not re.search(r"\b(Dynasty|Kingdom|Empire|Mali|Srivijaya)\b.*: they", text), text


# -- "Battle for Volga: 5-3 against 6 +1 terrain." -----------------------------------------------------
def test_a_5_epoch_battle_is_a_sentence_with_its_bonuses_and_result() -> None:
    rules = load_epochs5()
    seen = 0
    for seed in (1, 2):
        lines = playout("history", seed, 3)[0]
        for i, (event, text) in enumerate(lines):
            if event.type != "battle":
                continue
            d = event.data
            assert text is not None
            assert text.startswith(f"Battle for {d['land']}")
            assert f"{NAMES[d['attacker']]} rolls " in text
            assert f"{NAMES[d['defender']]} defends with " in text
            if d["terrain"]:
                assert f"+1 for the {rules.map.lands[d['land']].terrain}" in text, text
            if d["catapult"]:
                assert "from the catapult" in text, text
            att = max(d["attacker_dice"]) + d["attacker_bonus"]
            dfd = max(d["defender_dice"]) + (1 if d["terrain"] else 0)
            assert f"{att} to {dfd} as rolled" in text
            nxt = lines[i + 1][0]
            if nxt.type == "battle_result":  # nobody rerolled: the result's totals are the roll's
                assert (nxt.data["attacker_total"], nxt.data["defender_total"]) == (att, dfd)
                result = lines[i + 1][1] or ""
                winner = {"win": NAMES[d["attacker"]], "loss": NAMES[d["defender"]], "tie": "Tie"}
                assert winner[nxt.data["outcome"]] in result
            seen += 1
    assert seen > 5


# -- the result said three times --------------------------------------------------------------------
@pytest.mark.parametrize("game_id", [s.id for s in registry.specs()])
def test_the_end_is_told_by_the_summary_alone(game_id: str) -> None:
    lines, texts = playout(game_id, 1, registry.spec(game_id).min_players)
    over = [t for e, t in lines if e.type == "game_over"]
    assert over and over == [None] * len(over), "the engine's own game-over line repeats the summary"
    summary = texts[-1]
    assert summary.startswith("Final scores")
    assert summary.count("Final scores") == 1


def test_eight_minute_single_game_is_not_numbered() -> None:
    scored = [t for e, t in playout("eight-minute", 1, 2)[0] if e.type == "game_scored"]
    assert scored and all(t is not None and t.startswith("The game is scored:") for t in scored)


def test_a_board_with_every_variant_reads_as_sentences() -> None:
    """The variants' pieces (Eight-Minute's goods tokens) are words too, not bracketed tags."""
    spec = registry.spec("eight-minute")
    game = spec.load()
    options = {o.name: True for o in spec.options if isinstance(o.default, bool)}
    state = game.setup(2, options, 1)
    text = game.board_text(game.view(state, 0), NAMES[:2])
    assert "token" in text
    assert NOT_WORDS.search(text) is None, text


# -- issue 28's slips ---------------------------------------------------------------------------------
def _decision_texts(game_id: str, players: int) -> list[str]:
    return [t for seed in (1, 2) for t in playout(game_id, seed, players)[1]]


def test_an_army_on_the_catapult_takes_an() -> None:
    """The 5-epoch siege event names the piece the engine put on the catapult (battle.py's ``piece``)."""
    said = {piece: EPOCHS5.describe_event(Event("siege", {"land": "Volga", "piece": piece, "catapult": 2}),
                                          NAMES[:3]) for piece in ("army", "siege token")}
    assert said["army"] == "Siege of Volga: an army goes on the catapult (+2)."
    assert said["siege token"] == "Siege of Volga: a siege token goes on the catapult (+2)."


def test_a_revealed_marker_is_worth_its_number() -> None:
    one = CLASSIC.describe_event(Event("markers_revealed", {"player": 1, "markers": [4], "score": 90}),
                                 NAMES[:3])
    two = CLASSIC.describe_event(Event("markers_revealed", {"player": 0, "markers": [2, 4], "score": 80}),
                                 NAMES[:3])
    assert one == "bob (Red) reveals a pre-eminence marker worth 4: 90 points in all."
    assert two == "alice (Blue) reveals pre-eminence markers worth 2 and 4: 80 points in all."
    summaries = [t for t in _decision_texts("history-classic", 3) if t.startswith("Final scores")]
    assert summaries and all("markers 4" not in t and "marker 4" not in t for t in summaries), summaries
    assert any("pre-eminence marker" in t and "worth" in t for t in summaries), summaries


def test_seven_ages_bidding_stage_ends_in_one_stop() -> None:
    """``Who goes first?`` took the status line's full stop: "Who goes first?."."""
    statuses = [t for t in _decision_texts("seven-ages", 3) if "goes first" in t]
    assert statuses, "no status was read while bidding for the first player"
    assert not [t for t in statuses if "?." in t]


def test_a_unit_is_built_with_the_right_article() -> None:
    """Since the fog of war (issue 26, L791) a build's public sentence names no type ("build a unit"); the
    count reads "a unit" or "3 units"; the article still matters where a unit is named, as the top of another
    player's stack in the board's words
    ("a stack of 2 units with an Archer on top")."""
    built = [t for seed in (1, 2) for e, t in playout("seven-ages", seed, 3)[0] if e.type == "unit_built"]
    assert built
    for text in built:
        assert text is not None and re.search(r" build (a unit|[2-9] units) in ", text), text
    texts = [t for seed in (1, 2) for t in playout("seven-ages", seed, 3)[1]]
    assert not [t for t in texts if re.search(r"\ba [AEIOU]", t)]
    assert any(re.search(r"\ban (Archer|Artillery) on top\b", t) for t in texts)


def test_an_eight_minute_card_whose_action_cannot_be_done_says_why() -> None:
    """An AI out of armies took a "Place 3 armies" card and nothing said why it placed none."""
    from engine.eight_minute.data import load_data

    data = load_data()
    lapsed: list[str] = []
    for seed in (1, 2):
        lines = playout("eight-minute", seed, 2)[0]
        for i, (event, _) in enumerate(lines):
            if event.type != "card_taken":
                continue
            card = data.cards[int(event.data["card"])]
            if [a.verb for a in card.actions] != ["place"]:
                continue
            rest = []
            for later, text in lines[i + 1:]:
                if later.type in ("turn", "card_taken", "game_scored"):
                    break
                rest.append((later, text))
            if not any(e.type == "army_placed" for e, _ in rest):  # the card's placing never happened
                why = [t for e, t in rest if e.type == "action_lapsed"]
                assert why, f"nothing says why {card.actions} was not played: {[t for _, t in rest]}"
                lapsed += [t for t in why if t]
    assert lapsed, "no seeded game took a placing card with no army left"
    assert all(re.search(r"cannot place \d arm(y|ies): none of those pieces are left in their supply\.$", t)
               for t in lapsed), lapsed


def test_the_last_card_of_a_draft_is_not_one_of_one() -> None:
    """"keep one of the 1 event cards": the last card of a 5-epoch pack, read from a seeded game."""
    from engine.history.epochs5.actions import Draft

    spec = registry.spec("history")
    state = EPOCHS5.setup(3, spec.default_options(), 1)
    policies = [spec.make_policy(spec.policy_names[0], p) for p in range(3)]
    headings: list[str] = []
    while not EPOCHS5.is_over(state) and len(headings) < 2:
        player = min(EPOCHS5.actors(state))
        legal = EPOCHS5.legal_actions(state, player)
        if len(legal) == 1 and isinstance(legal[0], Draft):
            headings.append(EPOCHS5.decision(EPOCHS5.view(state, player), player, legal, NAMES[:3]).heading)
        state = EPOCHS5.apply(state, policies[player].choose(state, player)).state
    assert headings, "no pack came down to its last card"
    for heading in headings:
        assert " of the 1 " not in heading and "keep the last" in heading, heading


def test_a_long_card_label_is_cut_after_a_whole_word() -> None:
    """5-epoch card labels were cut at 100 characters mid-word ("reduce one stru…")."""
    rules = load_epochs5()
    texts = {f"{card.name}: {card.text}" for card in rules.events.values() if card.kingdom is None}
    cut = {label for label in _decision_texts("history", 3) if label.endswith("…")}
    checked = 0
    for label in cut:
        kept = label.removesuffix("…").removeprefix("Play ")
        full = next((t for t in texts if t.startswith(kept)), None)
        if full is None:
            continue  # not a card's text
        assert len(label) <= 100 and full[len(kept)] in " ,;:.", (label, full)
        checked += 1
    assert checked, "no card label was long enough to be cut"


def test_seven_ages_units_read_right_in_the_plural() -> None:
    """'3 Ship-of-the-lines' and '2 Artillerys' were how a stack or a commitment read."""
    from engine.seven_ages.data import load_tables
    from engine.seven_ages.text import unit_words

    assert unit_words(3, "Ship-of-the-line") == "3 Ships-of-the-line"
    assert unit_words(2, "Artillery") == "2 Artillery"
    assert unit_words(2, "Horse artillery") == "2 Horse artillery"
    assert unit_words(2, "Spear") == "2 Spears" and unit_words(1, "Spear") == "1 Spear"
    for unit in load_tables().unit_types:
        words = unit_words(2, unit)
        assert not re.search(r"(lines|rys|eds|Horses|Warss)$", words), words
