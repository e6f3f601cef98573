"""7 Ages option 16's votes (L1510-1512, L1662-1664, L1968-1970) as simultaneous secret ballots.

Every weight, threshold and cost below is read from the rulebook passage each test quotes; the secrecy
property plays random electorates and ballots through :mod:`engine.seven_ages.ballots` and reads every
seat's and a spectator's view and every event.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.seven_ages import ballots, voter_ai
from engine.seven_ages.actions import NO, YES, CastBallot, Pass
from engine.seven_ages.ai import make_policy
from engine.seven_ages.artefact_powers import OPTION
from engine.seven_ages.ballot_weights import (
    CENSURE,
    DEFENDER,
    HERESY,
    RULES,
    censure_voters,
    defender_voters,
    heresy_voters,
    may_lift_heresy,
    refusal_cost,
)
from engine.seven_ages.ballots import BALLOT, Count, Rule, Voter
from engine.seven_ages.game import GAME
from engine.seven_ages.secrets import private_variants
from engine.seven_ages.state import SevenState
from engine.seven_ages.steps import Ctx
from tests.support.seven_ages_builder import Scenario, card

ON = {OPTION: True}


def christians(players: int = 3, *, socialist: bool = False) -> Scenario:
    """Romans (seat 0) in Palestine, a Christian religious site (L1118), Byzantines (seat 1, Achaea) and
    Franks (seat 2, or seat 0 with two players; Aquitaine); all three of dominant religion Christianity."""
    s = Scenario(players, ON)
    s.empire("Romans", 0, 12, units={"Palestine": {"Spear": 1}})
    s.empire("Byzantines", 1, 14, units={"Achaea": {"Spear": 1}})
    s.empire("Franks", 2 % players, 13, units={"Aquitaine": {"Spear": 1}})
    for name in ("Romans", "Byzantines", "Franks"):
        e = s.empire_of(name)
        s.state = s.state.with_empire(replace(e, religions=("Christianity",)))
    if socialist:
        e = s.empire_of("Franks")
        s.state = s.state.with_empire(replace(e, government="Socialism"))
    return s


def run(state: SevenState, topic: str, voters: tuple[Voter, ...], yes: list[bool],
        about: dict[str, int] | None = None) -> tuple[Ctx, list[Count | None]]:
    """Open a vote and cast the ballots in the voters' order, ``yes[i]`` for the i-th."""
    ctx = Ctx(state)
    ballots.open_vote(ctx, topic, RULES[topic], voters, about)
    counts = [ballots.cast(ctx, v.seat, v.empire, y) for v, y in zip(voters, yes, strict=True)]
    return ctx, counts


# -- Heresy (L1660-1664) ----------------------------------------------------------------------------------

def test_heresy_voters_weigh_the_levels_each_would_lose_and_a_majority_carries() -> None:
    """L1664: "Each empire that would lose a progress level gets one vote for each level it would lose";
    "If the majority of the votes supports the proposal, the progress levels are lost". A card of 3 split
    2 Romans, 1 Byzantines, 0 Franks: the Romans vote 2, the Byzantines 1, the Franks not at all."""
    s = christians()
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    voters = heresy_voters(s.state, romans, "Christianity", 3, {romans: 2, byz: 1, franks: 0})
    assert voters == (Voter(0, romans, 2), Voter(1, byz, 1))
    _, counts = run(s.state, HERESY, voters, [True, False])
    assert counts[-1] is not None and (counts[-1].yes, counts[-1].no, counts[-1].carried) == (2, 1, True)
    _, counts = run(s.state, HERESY, voters, [False, True])
    assert counts[-1] is not None and not counts[-1].carried  # 1 of 3 is no majority


def test_heresy_with_no_level_to_lose_is_the_active_empires_vote_alone() -> None:
    """L1664: "If there are 0 levels to lose, only the active empire votes"."""
    s = christians()
    byz = card("Byzantines")
    assert heresy_voters(s.state, byz, "Christianity", 0, {}) == (Voter(1, byz, 1),)


def test_heresy_proposal_must_share_the_cards_value_among_its_empires() -> None:
    """L1662: the card's value is how many levels "the empires with that dominant religion will lose
    between them": a proposal of another sum, or naming an empire of another religion, is refused."""
    s = christians()
    s.empire("Egyptians", 1, 10, units={"Egypt": {"Spear": 1}})
    romans, egypt = card("Romans"), card("Egyptians")
    with pytest.raises(IllegalAction, match="add up to 3"):
        heresy_voters(s.state, romans, "Christianity", 3, {romans: 2})
    with pytest.raises(IllegalAction, match="dominant religion is Christianity"):
        heresy_voters(s.state, romans, "Christianity", 3, {romans: 2, egypt: 1})


def test_socialists_ignore_heresy() -> None:
    """L1940: "Socialists ... ignore the effects of ... Heresy": a Socialist Christian empire loses no level
    to it, so has no vote."""
    s = christians(socialist=True)
    romans, franks = card("Romans"), card("Franks")
    with pytest.raises(IllegalAction):
        heresy_voters(s.state, romans, "Christianity", 2, {romans: 1, franks: 1})
    assert heresy_voters(s.state, romans, "Christianity", 2, {romans: 2}) == (Voter(0, romans, 2),)


def test_a_religious_leader_may_lift_the_heresy() -> None:
    """L1662 and L2051: an empire with a religious leader "may remove the Heresy before the vote"."""
    s = christians()
    s.empire("Egyptians", 1, 10, units={"Egypt": {"Spear": 1}}, leaders={"Imhotep": ("Religious", "Egypt")})
    assert may_lift_heresy(s.empire_of("Egyptians")) and not may_lift_heresy(s.empire_of("Romans"))


# -- The defender of the faith (L1510-1512) ---------------------------------------------------------------

def test_vote_against_the_defender_weighs_religious_sites_and_needs_more_than_two_thirds() -> None:
    """L1512: each empire with that dominant religion gets one vote "and a second vote if it also controls
    one or more religious sites"; "more than 2/3rds of the total votes cast" discards the defender. The
    Romans hold Palestine (2 votes), the others 1 each: 4 votes; 3 against carries (3/4), and without the
    Franks 2 of 3 is exactly 2/3, not more."""
    s = christians()
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    voters = defender_voters(s.state, "Christianity")
    assert voters == (Voter(0, romans, 2), Voter(1, byz, 1), Voter(2, franks, 1))
    _, counts = run(s.state, DEFENDER, voters, [True, False, True])
    assert counts[-1] is not None and (counts[-1].yes, counts[-1].no, counts[-1].carried) == (3, 1, True)
    _, counts = run(s.state, DEFENDER, voters[:2], [True, False])
    assert counts[-1] is not None and (counts[-1].yes, counts[-1].carried) == (2, False)


# -- The United Nations' censure (L1968-1970) -------------------------------------------------------------

def test_censure_is_every_other_players_unanimous_vote() -> None:
    """L1968: "censured by unanimous vote of all other players": three voters in a four-player game,
    one vote each; one vote against and it fails."""
    s = Scenario(4, ON)
    assert censure_voters(s.state, 2) == (Voter(0, 0, 1), Voter(1, 0, 1), Voter(3, 0, 1))
    voters = censure_voters(s.state, 2)
    _, counts = run(s.state, CENSURE, voters, [True, True, True])
    assert counts[-1] is not None and counts[-1].carried
    _, counts = run(s.state, CENSURE, voters, [True, False, True])
    assert counts[-1] is not None and not counts[-1].carried


def test_refusing_a_censure_costs_a_glory_per_voter_doubled_under_four_players() -> None:
    """L1970: "loses 1 glory per voter (2 glory per voter if there are less than 4 players in the game)"."""
    assert refusal_cost(4, 3) == 3
    assert refusal_cost(5, 4) == 4
    assert refusal_cost(3, 2) == 4
    assert refusal_cost(2, 1) == 2


# -- The ballots themselves -------------------------------------------------------------------------------

def test_a_ballot_cast_twice_or_by_a_non_voter_is_refused_and_changes_nothing() -> None:
    s = christians()
    voters = defender_voters(s.state, "Christianity")
    ctx = Ctx(s.state)
    ballots.open_vote(ctx, DEFENDER, Rule.TWO_THIRDS, voters, {"defender": card("Romans")})
    ballots.cast(ctx, 1, card("Byzantines"), True)
    before = ctx.state
    with pytest.raises(IllegalAction, match="no vote to cast"):
        ballots.cast(ctx, 1, card("Byzantines"), False)
    with pytest.raises(IllegalAction, match="no vote to cast"):
        ballots.cast(ctx, 0, card("Franks"), False)
    assert ctx.state == before


def test_a_sealed_ballot_is_its_seats_private_variant() -> None:
    """The undo rule must know a cast ballot is hidden: the seat's private variants turn it the other way."""
    s = christians()
    ctx = Ctx(s.state)
    ballots.open_vote(ctx, DEFENDER, Rule.TWO_THIRDS, defender_voters(s.state, "Christianity"),
                      {"defender": card("Romans")})
    ballots.cast(ctx, 1, card("Byzantines"), True)
    flipped = [p.data["yes"] for v in private_variants(ctx.state, 1) for p in v.sealed if p.kind == BALLOT]
    assert False in flipped
    assert all(p.data["yes"] for v in private_variants(ctx.state, 2) for p in v.sealed if p.kind == BALLOT)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_no_ballot_shows_in_any_view_or_event_before_all_are_in(data: st.DataObject) -> None:
    """Property: whatever the electorate and the order of casting, until the last ballot is in every seat's
    view, a spectator's view and every event (with its audience) are the same whichever way each ballot
    went; the count then shows them all."""
    players = data.draw(st.integers(2, 5))
    s = Scenario(players, ON)
    seats = data.draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=5, unique=True))
    voters = tuple(Voter(seat, 0, data.draw(st.integers(1, 3))) for seat in seats)
    order = data.draw(st.permutations(voters))
    first = data.draw(st.lists(st.booleans(), min_size=len(voters), max_size=len(voters)))
    second = [not y for y in first]
    topic = data.draw(st.sampled_from([HERESY, DEFENDER, CENSURE]))

    def seen(yes: list[bool]) -> list[tuple[object, ...]]:
        ctx = Ctx(s.state)
        ballots.open_vote(ctx, topic, RULES[topic], voters)
        out: list[tuple[object, ...]] = []
        for v, y in zip(order[:-1], yes, strict=False):
            ballots.cast(ctx, v.seat, v.empire, y)
            views = tuple(GAME.view(ctx.state, viewer) for viewer in (*range(players), None))
            out.append((views, tuple((e.type, e.data, e.audience) for e in ctx.events)))
        last = order[-1]
        ballots.cast(ctx, last.seat, last.empire, yes[-1])
        out.append((tuple((e.type, e.data) for e in ctx.events if e.type == "vote_counted"),))
        return out

    a, b = seen(first), seen(second)
    assert a[:-1] == b[:-1]
    assert a[-1] != b[-1]  # the count shows the ballots, which differ


# -- The AI's ballots -------------------------------------------------------------------------------------

def test_ai_votes_against_a_defender_not_its_own() -> None:
    s = christians()
    ctx = Ctx(s.state)
    ballots.open_vote(ctx, DEFENDER, Rule.TWO_THIRDS, defender_voters(s.state, "Christianity"),
                      {"defender": card("Romans")})
    chosen = {p.seat: voter_ai.ballot(ctx.state, p) for p in ctx.state.pending if p.kind == BALLOT}
    assert chosen == {0: False, 1: True, 2: True}


def test_ai_accepts_a_small_heresy_loss_and_refuses_a_large_one() -> None:
    s = christians()
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    voters = heresy_voters(s.state, romans, "Christianity", 5, {romans: 0, byz: 4, franks: 1})
    ctx = Ctx(s.state)
    ballots.open_vote(ctx, HERESY, Rule.MAJORITY, voters, {"proposer": 0})
    chosen = {p.empire: voter_ai.ballot(ctx.state, p) for p in ctx.state.pending if p.kind == BALLOT}
    assert chosen == {byz: False, franks: True}


# -- A vote played through the game -----------------------------------------------------------------------

SETTLED: list[Count] = []
ballots.on_count("test_vote", lambda ctx, count: SETTLED.append(count))
NAMES = ("alice (Orange)", "bob (Green)", "carol (Purple)")


def in_play(topic: str = "test_vote") -> Scenario:
    """The three Christian empires at Manoeuvre with a vote against the Romans' defender of the faith
    opened (by default settled by a test topic, so only the ballots' own rules are under test)."""
    s = christians()
    s.marker(0, "manoeuvre", "Romans").at("manoeuvre")
    ctx = Ctx(s.state)
    ballots.open_vote(ctx, topic, Rule.TWO_THIRDS, defender_voters(s.state, "Christianity"),
                      {"defender": card("Romans")})
    s.state, s.events = ctx.state, [*s.events, *ctx.events]
    return s


def test_every_voter_is_asked_at_once_and_the_count_comes_with_the_last_ballot() -> None:
    s = in_play()
    romans, byz, franks = card("Romans"), card("Byzantines"), card("Franks")
    assert s.actors() == frozenset({0, 1, 2})
    assert s.legal(1) == [CastBallot(1, byz, YES), CastBallot(1, byz, NO)]
    s.illegal(Pass(0), "vote_first")
    s.play(CastBallot(2, franks, YES), CastBallot(0, romans, NO))
    assert s.actors() == frozenset({1})
    before = len(SETTLED)
    s.play(CastBallot(1, byz, YES))
    assert len(SETTLED) == before + 1 and (SETTLED[-1].yes, SETTLED[-1].no) == (2, 2)
    assert not SETTLED[-1].carried  # 2 of 4 is not more than 2/3 (L1512)
    assert not ballots.voting(s.state)


def test_a_voter_who_times_out_votes_against() -> None:
    s = in_play()
    assert GAME.timeout_action(s.state, 1) == CastBallot(1, card("Byzantines"), NO)


def test_the_votes_words_name_players_and_show_no_ballot_before_the_count() -> None:
    s = in_play()
    s.play(CastBallot(2, card("Franks"), YES))
    opened = next(e for e in s.events if e.type == "vote_opened")
    assert GAME.describe_event(opened, NAMES) == (
        "A vote on the proposal: alice (Orange) for the Romans (2 votes), bob (Green) for the Byzantines "
        "(1 vote) and carol (Purple) for the Franks (1 vote) vote in secret.")
    cast_ = next(e for e in s.events if e.type == "ballot_cast")
    assert GAME.describe_event(cast_, NAMES) == "carol (Purple) has voted for the Franks."
    s.play(CastBallot(0, card("Romans"), NO), CastBallot(1, card("Byzantines"), YES))
    counted = next(e for e in s.events if e.type == "vote_counted")
    assert GAME.describe_event(counted, NAMES) == (
        "The vote on the proposal: 2 for, 2 against: failed. alice (Orange) for the Romans against "
        "(2 votes); bob (Green) for the Byzantines for (1 vote); carol (Purple) for the Franks for (1 vote).")


def test_the_greedy_ai_casts_its_ballot() -> None:
    s = in_play(DEFENDER)
    policy = make_policy("greedy", 1)
    assert policy.choose(s.state, 0) == CastBallot(0, card("Romans"), NO)
    assert policy.choose(s.state, 2) == CastBallot(2, card("Franks"), YES)
