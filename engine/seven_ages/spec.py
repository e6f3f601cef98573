"""7 Ages registers its data (not yet a playable game): ``check-data`` validates it."""

from __future__ import annotations

from engine.registry import register_data
from engine.spec import DataCheck

DATA = register_data(DataCheck(
    id="seven-ages",
    title="7 Ages",
    check="engine.seven_ages.checks:check_data",
    report="engine.seven_ages.checks:report",
))
