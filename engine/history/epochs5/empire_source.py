"""The empire cards and map of :mod:`engine.history.epochs5_data`, as this package's types."""

from __future__ import annotations

from engine.history import epochs5_data
from engine.history.epochs5.data import EMPIRE_EFFECTS, Empire
from engine.history.worldmap import MapDataError, WorldMap


def load_world(problems: list[str]) -> WorldMap | None:
    try:
        return epochs5_data.load_world()
    except MapDataError as exc:
        problems.extend(f"map.yaml: {p}" for p in exc.problems)
    except OSError as exc:
        problems.append(f"map.yaml: cannot read: {exc}")
    return None


def convert(card: epochs5_data.EmpireCard, problems: list[str]) -> Empire:
    effect = card.effect.id if card.effect is not None else None
    if effect is not None and effect not in EMPIRE_EFFECTS:
        problems.append(f"empires.yaml: {card.name}: the rules know no effect {effect!r}")
    return Empire(
        key=card.key,
        name=card.name,
        epoch=card.epoch,
        order=card.order - 1,  # the data counts from 1; the call position from 0
        armies=card.armies,
        starts=card.starts,
        structure=card.structure,
        fleets=card.fleets,
        caravans=card.caravans,
        effect=effect,
        params=dict(card.effect.params) if card.effect is not None else {},
    )


def load(wmap: WorldMap, problems: list[str]) -> dict[int, tuple[Empire, ...]]:
    """Every epoch's empire cards in call order (empty, with the problems, if the data is bad)."""
    del wmap  # epochs5_data checks the cards against the same map it loads itself
    try:
        cards = epochs5_data.load_empires()
    except epochs5_data.EmpireDataError as exc:
        problems.extend(exc.problems)
        return {}
    except (OSError, MapDataError) as exc:
        problems.append(f"empires.yaml: cannot load: {exc}")
        return {}
    return {epoch: tuple(convert(c, problems) for c in listed) for epoch, listed in cards.items()}
