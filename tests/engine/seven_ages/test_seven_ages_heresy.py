"""7 Ages option 16's Heresy (L1654-1664): an action turned into a Vote action, played through the game.

Expected values come from the rulebook: the card's value is the levels lost between the empires of the
heresy's religion (L1662), each voter weighs the levels it would lose and a majority carries (L1664), a
religious leader may remove the heresy (L1662, L2051), Socialists ignore it (L1940).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seven_ages.actions import NO, YES, CastBallot, HeresyLoss, LiftHeresy
from engine.seven_ages.ai import make_policy
from engine.seven_ages.artefact_powers import OPTION
from engine.seven_ages.game import GAME
from engine.seven_ages.heresy import ARTEFACT
from tests.support.seven_ages_builder import Scenario, card, cards_of_value


def heretics(options: dict[str, bool] | None = None, *, romans: dict[str, object] | None = None) -> Scenario:
    """Romans (seat 0, level 12), Byzantines (seat 1, level 14, Heresy on their card) and Franks (seat 2,
    level 13), all of dominant religion Christianity; the Romans' Production marker is turned over with a
    card of value 3 on top of the deck."""
    s = Scenario(3, {OPTION: True} if options is None else options)
    s.empire("Romans", 0, 12, money=5, capital="Latium", units={"Latium": {"Spear": 1}},
             leaders=romans.get("leaders") if romans else None)  # type: ignore[arg-type]
    s.empire("Byzantines", 1, 14, units={"Achaea": {"Spear": 1}})
    s.empire("Franks", 2, 13, units={"Aquitaine": {"Spear": 1}})
    for name in ("Romans", "Byzantines", "Franks"):
        e = s.empire_of(name)
        extra = (ARTEFACT,) if name == "Byzantines" else ()
        government = romans.get("government") if romans and name == "Romans" else e.government
        s.state = s.state.with_empire(replace(e, religions=("Christianity",), artefacts=extra,
                                              government=government))  # type: ignore[arg-type]
    three = cards_of_value(3)[0]
    s.set(deck=(three, *(c for c in s.state.deck if c != three)))
    s.city("Latium", 1).marker(0, "production", "Romans").at("production")
    return s.turn_over(0, "Romans")


def lost(s: Scenario) -> list[tuple[int, int, int]]:
    """The levels lost in the scenario: (empire, levels, new level); the turn plays on to its end after
    the go (no other marker), so the end of turn's progress follows."""
    return [(int(e["empire"]), int(e["levels"]), int(e["level"])) for e in s.of_type("progress")
            if int(e["levels"]) < 0]


def test_an_action_under_heresy_is_a_vote_on_losses_that_the_card_sets() -> None:
    """L1660-1662: the Romans' Production becomes a Vote action; the card picked (3) is the levels lost."""
    s = heretics()
    assert s.of_type("vote_action") and s.of_type("heresy_card")[-1]["value"] == 3
    assert not s.of_type("income")  # no Production is carried out
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    assert s.legal(0) == [HeresyLoss(0, romans), HeresyLoss(0, byz), HeresyLoss(0, franks)]
    s.play(HeresyLoss(0, byz), HeresyLoss(0, byz), HeresyLoss(0, franks))
    assert s.actors() == frozenset({1, 2})  # L1664: only the empires that would lose levels vote
    s.play(CastBallot(1, byz, NO), CastBallot(2, franks, YES))
    counted = s.of_type("vote_counted")[-1]
    assert (counted["yes"], counted["no"], counted["carried"]) == (1, 2, False)  # the Byzantines weigh 2
    assert ARTEFACT in s.empire_of("Byzantines").artefacts  # L1664: "If the vote fails, the heresy remains"
    assert lost(s) == [] and s.state.go_of(0) is None


def test_a_carried_proposal_loses_the_levels_and_discards_the_heresy() -> None:
    """L1664: "If the majority of the votes supports the proposal, the progress levels are lost and the
    heresy artefact discarded"."""
    s = heretics()
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    s.play(HeresyLoss(0, romans), HeresyLoss(0, byz), HeresyLoss(0, franks))
    s.play(CastBallot(0, romans, YES), CastBallot(1, byz, NO), CastBallot(2, franks, YES))
    assert sorted(lost(s)) == sorted([(romans, -1, 11), (byz, -1, 13), (franks, -1, 12)])
    assert ARTEFACT not in s.empire_of("Byzantines").artefacts


def test_a_religious_leader_may_remove_the_heresy_instead() -> None:
    """L1662, L2051: "If the empire taking the vote action has a religious leader, it may remove the
    heresy"."""
    s = heretics(romans={"leaders": {"Pontifex": ("Religious", "Latium")}})
    assert s.legal(0) == [LiftHeresy(0, True), LiftHeresy(0, False)]
    s.play(LiftHeresy(0, True))
    assert ARTEFACT not in s.empire_of("Byzantines").artefacts and s.state.go_of(0) is None
    assert not s.of_type("heresy_card")  # no card is picked


def test_socialists_and_games_without_option_16_take_their_action() -> None:
    """L1940: Socialists ignore Heresy; without option 16 artefacts only give glory (L929-931)."""
    for s in (heretics(romans={"government": "Socialism"}), heretics({})):
        assert not s.of_type("vote_action")
        assert s.state.go_of(0) is not None and s.state.go_of(0).stage not in ("heresy_losses",)  # type: ignore[union-attr]


def test_the_greedy_ai_plays_a_heresy_vote_action_through() -> None:
    """The AI shares the losses to the most glorious other player's empire first, its own last, and every
    seat's AI then votes, so the vote action ends."""
    s = heretics()
    s.state = s.state.with_player(replace(s.state.people[2], glory=9))
    ais = {seat: make_policy("greedy", seat) for seat in range(3)}
    assert ais[0].choose(s.state, 0) == HeresyLoss(0, card("Franks"))
    for _ in range(20):
        if not s.of_type("vote_counted"):
            seat = min(s.actors())
            s.play(ais[seat].choose(s.state, seat))
    assert s.of_type("vote_counted") and s.state.go_of(0) is None


@settings(max_examples=8, deadline=None)
@given(st.lists(st.booleans(), min_size=3, max_size=3), st.permutations([0, 1, 2]))
def test_no_heresy_ballot_shows_before_all_are_in(yes: list[bool], order: list[int]) -> None:
    """Property, through the game: until the last ballot is in, every seat's view, a spectator's and every
    event with its audience are the same whichever way the ballots went."""
    names = ("Romans", "Byzantines", "Franks")

    def seen(votes: list[bool]) -> list[object]:
        s = heretics()
        s.play(*(HeresyLoss(0, card(n)) for n in names))
        out: list[object] = []
        for i, seat in enumerate(order):
            s.play(CastBallot(seat, card(names[seat]), YES if votes[seat] else NO))
            if i < len(order) - 1:
                out.append((tuple(GAME.view(s.state, v) for v in (0, 1, 2, None)),
                            tuple((e.type, e.data, e.audience) for e in s.events)))
        out.append(s.of_type("vote_counted")[-1]["ballots"])
        return out

    a, b = seen(yes), seen([not y for y in yes])
    assert a[:-1] == b[:-1] and a[-1] != b[-1]
