"""Who votes in option 16's three votes, with what weight, and what a failed or refused vote costs.

- Heresy (L1662-1664): each empire of the heresy's dominant religion that the proposal would cost
  progress levels votes once per level; with no level to lose, the active empire alone votes; a majority
  carries it. Socialists ignore Heresy (L1940), so a Socialist empire is never among them; an empire with a
  religious leader may remove the heresy instead of voting (L1662, L2051).
- Against the defender of the faith (L1510-1512): each empire of the defender's dominant religion (the
  defender too) one vote, two if it controls a religious site of that religion; more than 2/3 carries it;
  a failed vote costs its caller 1 glory.
- The United Nations' censure (L1968-1970): every player but the censured one, one vote each,
  unanimously; a failed censure costs the UN's controller 1 glory, a refused one costs the censured
  player 1 glory per voter (2 per voter with fewer than 4 players).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import IllegalAction
from engine.seven_ages.artefact_powers import has_power
from engine.seven_ages.ballots import Rule, Voter
from engine.seven_ages.map import load_map
from engine.seven_ages.state import Empire, SevenState

HERESY = "heresy"
DEFENDER = "defender"
CENSURE = "censure"
RULES: Mapping[str, Rule] = {HERESY: Rule.MAJORITY, DEFENDER: Rule.TWO_THIRDS, CENSURE: Rule.UNANIMOUS}
"""The rule that carries each vote."""
FAILED_CALL = 1
"""The glory a caller loses when the vote against the defender of the faith (L1512), or the UN's
censure (L1968), fails."""


def dominant(state: SevenState, religion: str) -> tuple[Empire, ...]:
    """The empires whose dominant religion is ``religion``, in the order they started."""
    return tuple(e for e in state.empires if e.religions[:1] == (religion,))


def heresy_bound(state: SevenState, religion: str) -> tuple[Empire, ...]:
    """The empires a heresy on ``religion`` binds: that dominant religion, less Socialists (L1940)."""
    return tuple(e for e in dominant(state, religion) if not has_power(state, e, "Socialism"))


def may_lift_heresy(empire: Empire) -> bool:
    """Whether the empire taking the vote action may remove the heresy instead (L1662, L2051)."""
    return empire.has_leader("Religious")


def heresy_voters(state: SevenState, active: int, religion: str, levels: int,
                  proposal: Mapping[int, int]) -> tuple[Voter, ...]:
    """The ballots of a Heresy vote: the active empire proposes how ``levels`` (the card's value) are lost
    among the empires the heresy binds (``proposal``: empire card -> levels), L1662-1664.

    Raises:
        IllegalAction: when the proposal names another empire, a negative loss, or a sum other than
            ``levels``.
    """
    bound = {e.card: e for e in heresy_bound(state, religion)}
    if any(card not in bound for card in proposal) or any(n < 0 for n in proposal.values()):
        raise IllegalAction("bad_proposal", f"Only empires whose dominant religion is {religion} "
                                            "may lose levels to the heresy.")
    if sum(proposal.values()) != levels:
        raise IllegalAction("bad_proposal", f"The losses must add up to {levels} progress levels.")
    losers = tuple(Voter(bound[card].owner, card, n) for card, n in sorted(proposal.items()) if n > 0)
    if losers:
        return losers
    return (Voter(state.empire(active).owner, active, 1),)  # L1664: 0 levels, the active empire alone


def defender_voters(state: SevenState, religion: str) -> tuple[Voter, ...]:
    """The ballots against the defender of the faith of ``religion`` (L1510-1512)."""
    wmap = load_map()

    def sites(e: Empire) -> bool:
        return any(wmap.areas[a].religion == religion for a in e.areas())

    return tuple(Voter(e.owner, e.card, 2 if sites(e) else 1) for e in dominant(state, religion))


def censure_voters(state: SevenState, censured: int) -> tuple[Voter, ...]:
    """The ballots of the UN's censure of seat ``censured``: every other player, one each (L1968)."""
    return tuple(Voter(seat, 0, 1) for seat in state.seats_from_first() if seat != censured)


def refusal_cost(players: int, voters: int) -> int:
    """The glory a player refusing a censure loses: 1 per voter, 2 per voter with under 4 players
    (L1970)."""
    return voters * (2 if players < 4 else 1)
