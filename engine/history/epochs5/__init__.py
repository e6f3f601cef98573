"""History of the World, 5-epoch edition (2018): the ruleset ``history``.

Modules: :mod:`.spec` (the registration), :mod:`.empires` (the map and the
empire cards: the one loader and the one :class:`~.empires.Empire` type),
:mod:`.data` (the rest of the rules data: event cards, region tokens, box
contents), :mod:`.state` (plain JSON state), :mod:`.actions`, :mod:`.board`
(pieces and scoring), :mod:`.reach` (adjacency, fleets and caravans),
:mod:`.draft` (choosing empires and events, calling empires, epochs),
:mod:`.turn` (the steps of a turn), :mod:`.battle`, :mod:`.track` (the score
track), :mod:`.cards` (enhancement events), :mod:`.view` (the typed view),
:mod:`.decision` (a player's decision, labelled), :mod:`.text` (the game in
sentences), :mod:`.game` (the :class:`engine.core.Game` object ``GAME``) and
:mod:`.ai`. The rules readings are in ``data/history/epochs5/README.md``.

Shared with the classic rules: the map loader (:mod:`engine.history.worldmap`),
the presence/dominance/control test (:func:`engine.history.scoring.level`),
the state copy helpers (:mod:`engine.history.state`) and the dice
(:mod:`engine.rng`).
"""
