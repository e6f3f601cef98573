"""7 Ages, as the platform sees it: offered in the lobby, with its options (the rulebook's options 1-8 and
13-15, and the lobby's start age, end age, turn limit and glory target) and a preset for a shorter game.
Option 16 (artefact prerequisites and powers) is built in part: the rules and their tests take it, the
lobby does not (``offered=False``). ``check-data`` checks its data through
:meth:`engine.seven_ages.game.SevenAgesGame.check_data`."""

from __future__ import annotations

from engine.registry import register
from engine.seven_ages.civilisation_moves import ANYTIME
from engine.spec import GameSpec, OptionPreset, OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("total_history", "Option 1, Total History: each player is dealt two gold-bordered age-1 "
               "empires among their cards, and the first empire of the game must start in age 1.", False),
    OptionSpec("sub_deck", "Option 2, Not the full deck: each player is dealt this many cards (0: off; "
               "55, or more than the deck holds for everyone, deals the whole deck equally). Each round "
               "everyone puts one card out of the game face down and passes the rest to their left, then "
               "all vote: when more than half are happy, the cards left and those put aside make the "
               "deck.", 0, minimum=0, maximum=55),
    OptionSpec("redemption", "Option 3, Redemption: after the deal each player in turn may discard any "
               "cards and draw back up to 6 (8 with Enhanced start).", False),
    OptionSpec("enhanced_start", "Option 4, Enhanced start: 10 cards are dealt, and each player discards "
               "down to 6 once colours are chosen.", False),
    OptionSpec("enhanced_play", "Option 5, Enhanced Play: spare action markers are drafted each turn (3 "
               "or 4 players; 2 players play two sets each), a player at least two empires below "
               "their maximum may place two markers on no empire, and at Manoeuvre the players turn one "
               "marker each in turn (a player who passes is out for that action).", False),
    OptionSpec("pursuit", "Option 6, Pursuit: units retreating from a conflict lose more units to the "
               "other side's remaining cavalry and aircraft (halved in mountains, one fewer in forests).",
               False),
    OptionSpec("technology", "Option 7, Technology: Destiny fills hands to 7, 6 or 5 cards by how "
               "advanced the empire taking it is.", False),
    OptionSpec("take_that", "Option 8, Take that!: in Civilise, artefacts and events go only on empires "
               "within Range of the civilising empire; events at other times need an empire of yours within "
               "Range of their target, and an event on a player needs that player within Range of yours.",
               False),
    OptionSpec("take_that_strict", "Option 8, stricter: with Take that!, black, blue and green artefacts go "
               "only on your own empires.", False),
    OptionSpec("quick_conflict", "Option 13, Quick conflict resolution: one round decides each conflict (a "
               "total three times the other's destroys it; otherwise the loser loses more and retreats).",
               False),
    OptionSpec("marines", "Option 14, Marines: infantry and missiles carried by ships may stay aboard in a "
               "sea area next to a land area their empire controls (lost once there is none, or no ship "
               "under them).", False),
    OptionSpec("hocking", "Option 15, Hocking the crown jewels: after each harvest an empire may sell "
               "its player's glory for 5 money each, up to its undisordered cities.", False),
    # Option 16 is built in part (issue 32 items 1-2: the prerequisites and the progress track's markers; not
    # yet the artefacts' powers): it stays out of the lobby's offer until then, and off in every playout.
    OptionSpec("artefact_powers", "Option 16, Artefact pre-requisites and effects (NOT OFFERED YET: only the "
               "prerequisites and the progress track's blue and black markers are built, not the artefacts' "
               "powers): an artefact goes only on an empire that meets its card's conditions, blue artefacts "
               "share their powers with every empire at or beyond their marker, and the Internet ends the "
               "game.", False, offered=False),
    OptionSpec("start_age", "The age the first empire of the game starts in (1 to 7; 1 lets the first "
               "card start in its own first age, as the rulebook does with an empty map).", 1,
               minimum=1, maximum=7),
    OptionSpec("end_age", "The game ends after the turn the most advanced empire goes beyond this age "
               "(7: only at the end of the progress track).", 7, minimum=1, maximum=7),
    OptionSpec("turn_limit", "The game ends after this many turns (0: no limit).", 12, minimum=0,
               maximum=60),
    OptionSpec("glory_target", "The game ends after the turn a player reaches this much glory (0: no "
               "target).", 0, minimum=0, maximum=999),
)

PRESETS: tuple[OptionPreset, ...] = (
    # A shorter game of the first three ages. The end age alone is not enough: a card of a later age may
    # start on an empty map in its own first age (L411), and the game would end after turn 1; Total History
    # (option 1, L1158-1160) makes the first empire an age-1 one, and every later one starts offset from
    # the most advanced (L405). No turn limit: greedy 3-player games reach age 4 in 14-17 turns (seeds 1-5).
    OptionPreset("ages-1-3", "Ages 1-3: Total History (each player is dealt two age-1 empires and the first "
                 "empire starts in age 1), and the game ends after the turn the most advanced empire goes "
                 "beyond age 3, with no turn limit.",
                 (("total_history", True), ("start_age", 1), ("end_age", 3), ("turn_limit", 0))),
)

SPEC = register(GameSpec(
    version="6",  # 2: the end-of-go clean-ups change replays; 3: option 5 interleaves Manoeuvre (L1194);
    # 4: units may end a move beside another empire's, and conflict follows (issue 26, PR 3); 5: the choices
    # the rulebook leaves to the player: pursuit and option 13's losses (pendings "losses"), a split retreat
    # ("retreat_to"), the Strategist's drop-offs (L787) and option 14's marines (L1354), the unit removed with
    # a disorder marker ("pacify", L688) and a split retreat's area chosen before its units: new moves
    # in old replays; saved games without the new keys read them as absent (5 has not left integ: no bump);
    # so are trade's range permission (pending "range_permission", stage "range_price") and option 8, and
    # Range asked through for Civilise's and windows' plays (pendings "range_ask", "range_pay", L2233);
    # 6: each empire keeps the glory of its last two harvests (Empire.harvests, the AI folds duds, L2353);
    # option 16's artefact powers change income, costs, trade, cities and glory (modifiers.py, issue 32);
    # a leader is kept only once drawn (L950: a stale KeepLeader, which placed a second leader, is refused)
    data=("seven_ages",),
    id="seven-ages",
    title="7 Ages",
    min_players=2,
    max_players=5,
    # No colour names a seat until its player takes a colour group (L325-327): a seat is then called by
    # it (engine/seven_ages/seat_colours.py), and until then by these words, which no counter shares.
    colours=("First seat", "Second seat", "Third seat", "Fourth seat", "Fifth seat"),
    summary="Seven ages of world history: start, grow and discard empires; the most glory wins.",
    game="engine.seven_ages.game:GAME",
    policies="engine.seven_ages.ai:make_policy",
    invariants="engine.seven_ages.invariants:problems",
    renderer="render.seven_ages:render_board",
    pictures="render.seven_ages_notice:notice_pictures",  # the close-up of the news, the map, the tracks
    warm="render.seven_ages_notice:warm",
    empire_picture="render.seven_ages_panel:render_panel",  # `empire WHAT`: the card's panel
    tracks_picture="render.seven_ages_tracks:render_tracks",  # `tracks`
    options=OPTIONS,
    presets=PRESETS,
    anytime_kinds=ANYTIME,  # preferences, the fog's top unit, standing orders armed and withdrawn
    offered=True,
    simultaneous_steps=True,  # bids for the first player, markers placed at once, Production
    hidden_information=True,  # each hand of civilization cards
    joins_in_progress=True,  # L337: more players can enter while colours are free
    named_places=True,
    standing_orders=True,  # pre-armed events: arm, disarm (engine.seven_ages.orders)
    undo_against_ai=True,
    chosen_colours=True,  # L325-327, L337: a colour group is taken after the bid (a newcomer's on joining)
    quiet_moves=True,  # an order armed or withdrawn, a private preference (engine/seven_ages/quiet.py)
    data_report="engine.seven_ages.checks:report",
))
