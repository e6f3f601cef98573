"""7 Ages cards in words (issue 27 item 1, issue 29 item 2): effect templates, whole cards, the short
forms of labels, the hand, the ``card N`` look-up and check-data's refusal of a code without words.

The golden texts below were written from ``data/seven_ages/cards.yaml``, ``artefacts.yaml``,
``leaders.yaml`` and the map's grid references, field by field, not copied from the output."""

from __future__ import annotations

import copy

import pytest

from engine.seven_ages import card_words, checks, effects_words
from engine.seven_ages.actions import StartCard
from engine.seven_ages.cards import card_problems, effect_problems, load_deck
from engine.seven_ages.data import read_yaml, section
from engine.seven_ages.decision import choice
from engine.seven_ages.effects import EFFECTS, EffectCode
from engine.seven_ages.game import GAME
from tests.support.seven_ages_builder import Scenario, card

NAMES = ("alice", "bob", "carol")

GOLDEN = {
    1: """Card 1 (value 4)
Empire: the Egyptians, ages 1-2 (gold border: an age-1 empire)
Starts: Egypt (M6)
Set-up +1; money 10; trade number 0; leader number 1
Named leaders: Khufu (Builder, age 1)
Special: 1 free fort in its start areas
Glory: homeland (+1, or -1 if lost), cities 2, artefacts 2, 1 per wheat area
Artefact: Rutters, blue, ages 3-7; only on an empire that may build ships. Ships-of-the-line before level \
23; without it no range or ships through oceans
Event: Glorious pity, played at the harvest (end of turn), on a player: The player shows their glory and \
if no player has less glory, they gain up to 5 glory.""",
    8: """Card 8 (value 3)
Empire: the Olmecs, ages 1-2 (gold border: an age-1 empire)
Starts: Anahuac (B3)
Set-up -4; money 6; trade number -1; leader number 1
Glory: cities 1, North America 2
Icons: no cavalry until it trades with an empire without that restriction; no ships until it trades with an \
empire without that restriction
Artefact: Great Canal (Panama) (needs another artefact first), green, ages 5-7; only on an empire with \
Industrial Revolution; on an area of the Panama canal. Ships \
pass between the seas it joins, with its owner's permission and price
Event: Colossal heads, played in your empire's Civilise action, on one of your own empires: Gain 2 glory.""",
    45: """Card 45 (value 4)
Empire: the Vikings, age 3
Starts: Norway (J3) and Denmark (J3)
Set-up -2; money 8; trade number 0; leader number 2
Named leaders: Eriksson (Explorer, age 3)
Special: its desert and tundra areas count as areas for glory; its galleys may enter ocean areas and are not \
lost at sea; +1 to its total when it invades from the sea
Glory: sea areas 2, areas outside Europe 3, land units 1
Artefact: Hanging gardens, green, ages 1-2. +1 to the artefacts glory category
Event: Berserkers, played during a conflict, on one side of a conflict: +3 to this side's total this \
round.""",
    71: """Card 71 (value 7)
Empire: the Mitanni, age 1 (gold border: an age-1 empire)
Starts: Assyria (N5) and Syria (M5)
Set-up -2; money 8; trade number 0; leader number 1
Glory: cavalry 2, land units 1
Artefact: Confucianism, green, ages 2-7; only on an empire controlling a land area of China or S.E. \
Asia. Religion: a card check may avoid each disorder; conquerors may adopt it
Event: Counterspy, played at any time, on a player: Cancel 'I spy' as it is played and look at the player's \
hand.""",
    110: """Card 110 (value 3)
Empire: the Egyptian Republic, age 7
Starts: Egypt (M6) and Suez (N5)
Set-up -1; money 14; trade number 0; leader number 1
Named leaders: Nasser (Populist, age 7)
Glory: Africa 3, Islam 1, 1 per oil area
Artefact: Hanging gardens, green, ages 1-2. +1 to the artefacts glory category
Event: Fires, played in your empire's Civilise action, on another player's empire: Pick a card: its \
value less the empire's leaders (an Administrator counts 2) is the number of areas disordered.""",
}


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_whole_card_text(number: int) -> None:
    assert card_words.card_long(number) == GOLDEN[number]


def test_describe_words_an_effect() -> None:
    assert effects_words.describe("money", {"amount": 3}) == "gain 3 money"
    assert effects_words.describe("money", {"amount": -5}) == "lose 5 money"
    assert effects_words.describe("cancel_event", {"events": ["New Dynasty"]}) == \
        "cancel 'New Dynasty' as it is played"
    assert effects_words.describe("unit_cost", {"unit_class": "infantry", "delta": -1}) == \
        "infantry units cost 1 less to build"


def test_a_check_card_governs_what_follows_it() -> None:
    """L875: New Dynasty (card 34) picks a card to check before anything happens; its data is a check of 5,
    then a new dynasty."""
    assert effects_words.describe_all(load_deck().cards[34].event.effects) == (
        "pick a card: if its value is 5 or more, remove the empire's leaders; it draws new ones up to its "
        "leader number")


def test_the_data_fixes_of_issue_27() -> None:
    """Haruspex cancels an event of the deck; Counterspy is played on a player with an effect of its own and
    I spy can cancel it (E24, L877); no event is named like an artefact; the events Just rule and the United
    Nations name (L1738, L1968) are in the deck."""
    deck = load_deck()
    events = {c.event.name: c.event for c in deck.cards.values()}

    def cancels(name: str) -> set[str]:
        return {n for e in events[name].effects if e["code"] == "cancel_event" for n in e["events"]}

    assert cancels("Haruspex") and cancels("Haruspex") <= set(events)
    counterspy = events["Counterspy"]
    assert counterspy.target == "player" and any(e["code"] != "cancel_event" for e in counterspy.effects)
    assert "Counterspy" in cancels("I spy") and events["I spy"].timing == "any"
    assert not set(events) & set(deck.artefacts)
    assert {"Rebellion", "Uprising", "Urban riots", "Shooting star", "Corrupt administration"} <= set(events)


def test_check_data_refuses_an_event_named_like_an_artefact() -> None:
    raw = copy.deepcopy(section(read_yaml("cards.yaml"), "cards", "cards.yaml"))
    raw[100]["event"]["name"] = "Revolution"  # card 101's old name, an artefact's (cards 41, 55, 99)
    arts = {a["name"]: a for a in section(read_yaml("artefacts.yaml"), "artefacts", "artefacts.yaml")}
    assert card_problems(raw, arts, read_yaml("leaders.yaml")["named"]) == [
        "cards.yaml: the event 'Revolution' has the name of an artefact"]


def test_every_effect_code_has_words() -> None:
    """Every code of the vocabulary, and so every one the data uses, reads as words, never as a code."""
    assert effects_words.missing_words(EFFECTS) == []
    assert checks.words_problems() == []
    for c in load_deck().cards.values():
        for e in (*c.empire.special, *c.event.effects):
            words = effects_words.describe(str(e["code"]), e)
            assert words and "_" not in words, (c.number, e)


def test_every_card_reads_whole() -> None:
    for number in load_deck().cards:
        text = card_words.card_long(number)
        assert "_" not in text and "{" not in text, number  # no code or parameter leaks through
        assert len(text.splitlines()) >= 6, number


NEW = EffectCode("tidal_wave", "event", (), "a wave floods the coast")


def test_check_data_refuses_a_code_without_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A code added to the vocabulary but not to the templates: the card using it and the vocabulary
    check are both refused; once it has words, both pass."""
    monkeypatch.setitem(EFFECTS, NEW.code, NEW)
    raw = copy.deepcopy(section(read_yaml("cards.yaml"), "cards", "cards.yaml"))
    raw[0]["event"]["effects"] = [{"code": "tidal_wave"}]
    arts = {a["name"]: a for a in section(read_yaml("artefacts.yaml"), "artefacts", "artefacts.yaml")}
    leaders = read_yaml("leaders.yaml")["named"]
    problems = card_problems(raw, arts, leaders)
    assert problems == ["card 1 event: effect code tidal_wave has no words in effects_words.TEMPLATES"]
    assert checks.words_problems() == ["effect code tidal_wave has no words in effects_words.TEMPLATES"]
    assert "effect code tidal_wave has no words in effects_words.TEMPLATES" in checks.check_data()
    monkeypatch.setitem(effects_words.TEMPLATES, NEW.code, lambda p: "flood the coast")
    assert effect_problems("card 1 event", [{"code": "tidal_wave"}], event=True) == []
    assert checks.words_problems() == []


def test_start_choice_shows_ages_start_areas_and_set_up() -> None:
    """Issue 29's example: a start choice names the ages, the start areas with their grid references
    and the set-up (Vikings: age 3, Norway J3 and Denmark J3, set-up -2 in cards.yaml and map.yaml)."""
    s = Scenario(2).hand(0, "Egyptians").marker(0, "start").at("start").turn_over(0)
    legal = s.legal(0)
    d = GAME.decision(GAME.view(s.state, 0), 0, legal, NAMES[:2])
    starts = [c.label for c in d.choices if isinstance(c.action, StartCard)]
    assert starts == ["Start the Egyptians: ages 1-2, Egypt (M6), set-up +1"]
    vikings = choice(GAME.view(s.state, 0), 0, StartCard(0, card("Vikings")))
    assert vikings.label == "Start the Vikings: age 3, Norway (J3) and Denmark (J3), set-up -2"
    longest = max(len(card_words.start_label(n)) for n in load_deck().cards)
    assert longest <= card_words.LABEL_LIMIT


def test_no_card_label_says_card_n() -> None:
    """Labels name a card by its empire and value, not "card 45, ..."."""
    assert card_words.card_text(card("Vikings")) == "the Vikings (value 4)"
    assert card_words.card_parts(card("Vikings")) == "the Vikings / Hanging gardens / Berserkers (value 4)"


def _table() -> Scenario:
    """Seat 0 holds the Vikings and Egyptians, seat 1 the Mitanni; the Romans are on the map (seat 1)."""
    return (Scenario(3).hand(0, "Vikings", "Egyptians").hand(1, "Mitanni")
            .empire("Romans", owner=1, progress=10, units={"Latium": {"Spear": 1}}))


def test_hand_shows_whole_cards_to_their_owner_only() -> None:
    s = _table()
    own = GAME.hand_text(GAME.view(s.state, 0), 0, NAMES)
    assert card_words.card_long(card("Vikings")) in own and card_words.card_long(card("Egyptians")) in own
    assert "Mitanni" not in own
    other = GAME.hand_text(GAME.view(s.state, 1), 1, NAMES)
    assert "Vikings" not in other and card_words.card_long(card("Mitanni")) in other


def test_card_lookup_refuses_a_hidden_card() -> None:
    s = _table()
    view = GAME.view(s.state, 0)
    assert card_words.card_lookup(view, str(card("Vikings"))) == card_words.card_long(card("Vikings"))
    assert card_words.card_lookup(view, str(card("Romans"))) == card_words.card_long(card("Romans"))
    hidden = card("Mitanni")  # in seat 1's hand
    refused = card_words.card_lookup(view, str(hidden))
    assert refused == (f"Card {hidden} is not one you can see: only your own cards and the empires on the "
                       "map can be looked up.")
    in_deck = s.state.deck[0]
    assert card_words.card_lookup(view, str(in_deck)).startswith(f"Card {in_deck} is not one you can see")
    assert card_words.card_lookup(view, "200") == "There is no card '200': cards are numbered 1 to 110."
    assert card_words.card_lookup(GAME.view(s.state, None), str(card("Vikings"))).startswith("Card ")
    assert "not one you can see" in card_words.card_lookup(GAME.view(s.state, None), str(card("Vikings")))


def test_card_answer_finds_a_card_by_number_or_by_any_name_printed_on_it() -> None:
    view = GAME.view(_table().state, 0)
    vikings = card_words.card_long(card("Vikings"))
    for asked in ("45", "#45", "card 45", "Card #45", "vikings", "THE VIKINGS", "Berserkers",
                  "hanging Gardens", "vik", "  hanging   gardens "):
        assert GAME.card_text(view, asked, NAMES) == vikings, asked
    assert GAME.card_text(view, "romans", NAMES) == card_words.card_long(card("Romans"))  # on the map
    assert GAME.card_text(view, "Bread and circuses", NAMES) == card_words.card_long(card("Romans"))


def test_card_answer_refuses_a_name_on_a_card_the_asker_cannot_see_and_knows_no_other() -> None:
    view = GAME.view(_table().state, 0)
    for asked in ("Mitanni", "counterspy", "Revolution"):  # seat 1's hand; cards 41, 55 and 99 in the deck
        assert GAME.card_text(view, asked, NAMES) == (
            f"No card you can see bears the name {asked!r}: only your own cards and the empires on the map "
            "can be looked up.")
    theirs = GAME.view(_table().state, 1)
    assert GAME.card_text(theirs, "Mitanni", NAMES) == card_words.card_long(card("Mitanni"))
    for asked in ("Atlantis", "", "alice", "x" * 10_000, "²"):
        assert GAME.card_text(view, asked, NAMES) is None, asked


def test_card_answer_lists_the_cards_one_can_see_that_bear_the_name() -> None:
    s = Scenario(3).hand(0, "Mongols", "Jurchens", "Vikings")
    deck = load_deck().cards
    listed = GAME.card_text(GAME.view(s.state, 0), "revolution", NAMES)
    mongols, jurchens = deck[card("Mongols")], deck[card("Jurchens")]
    assert listed == (
        f"2 cards you can see answer to 'revolution': card {mongols.number}, the Mongols / Revolution / "
        f"Horde (value {mongols.value}) and card {jurchens.number}, the Jurchens / Revolution / Iron cavalry "
        f"(value {jurchens.value}); ask for one of them.")
    jurchens_card = card_words.card_long(card("Jurchens"))
    assert GAME.card_text(GAME.view(s.state, 0), "iron cavalry", NAMES) == jurchens_card


def test_card_lookup_answers_a_number_no_int_reads_in_one_sentence() -> None:
    view = GAME.view(_table().state, 0)
    assert card_words.card_lookup(view, "9" * 5000) == (
        "There is no card '9999999999999999999…': cards are numbered 1 to 110.")
    assert card_words.card_lookup(view, "²") == "There is no card '²': cards are numbered 1 to 110."
