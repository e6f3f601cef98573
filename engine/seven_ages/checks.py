"""Every check of the 7 Ages data, in one list: the tables, the map, the deck with its counters,
leaders and artefacts. ``python -m engine check-data`` runs :func:`check_data` and, when all is
well, prints :func:`report` (the provenance counts)."""

from __future__ import annotations

from collections.abc import Callable

import yaml

from engine.core import DataError
from engine.seven_ages.cards import deck_problems, report_deck
from engine.seven_ages.data import check_tables, report_tables
from engine.seven_ages.effects import EFFECTS
from engine.seven_ages.effects_words import missing_words
from engine.seven_ages.map import check_map, report_map


def words_problems() -> list[str]:
    """Every code of the effect vocabulary has a template in words, used by a card or not."""
    return [f"effect code {code} has no words in effects_words.TEMPLATES" for code in missing_words(EFFECTS)]


CHECKS: tuple[Callable[[], list[str]], ...] = (check_tables, check_map, deck_problems, words_problems)
REPORTS: tuple[Callable[[], list[str]], ...] = (report_tables, report_map, report_deck)


def check_data() -> list[str]:
    """Every problem in the 7 Ages data (empty when all is well)."""
    problems: list[str] = []
    for check in CHECKS:
        try:
            problems += check()
        except DataError as exc:
            problems += exc.problems
        except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
            problems.append(f"{check.__name__}: {type(exc).__name__}: {exc}")
    return problems


def report() -> list[str]:
    """Provenance counts, one line per data file section."""
    return [line for rep in REPORTS for line in rep()]
