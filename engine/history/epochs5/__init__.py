"""History of the World, 5-epoch edition (2018): the ruleset ``history``.

Modules: :mod:`.data` (typed rules data and its YAML loaders),
:mod:`.empire_source` (the empire cards of :mod:`engine.history.epochs5_data`),
:mod:`.state` (plain JSON state), :mod:`.actions`, :mod:`.board` (pieces and
scoring), :mod:`.reach` (adjacency, fleets and caravans), :mod:`.draft`
(choosing empires and events, calling empires, epochs), :mod:`.turn` (the
steps of a turn), :mod:`.battle`, :mod:`.track` (the score track),
:mod:`.cards` (enhancement events), :mod:`.text`, :mod:`.game` (the
:class:`engine.core.Game` object ``GAME``) and :mod:`.ai`.

Shared with the classic rules: the map loader (:mod:`engine.history.worldmap`),
the presence/dominance/control test (:func:`engine.history.scoring.level`),
the state copy helpers (:mod:`engine.history.state`) and the dice
(:mod:`engine.rng`).
"""
