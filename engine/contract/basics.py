"""The words of the contract: seats, JSON values, the public audience."""

from __future__ import annotations

from typing import Any

PlayerId = int
"""Players are seats numbered from 0 in seat order."""

JSON = Any
"""A JSON-compatible value (dict/list/str/int/float/bool/None)."""

PUBLIC = "public"
