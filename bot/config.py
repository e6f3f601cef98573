"""Settings from the environment and an optional ``.env`` file (parsed here; no extra dependency).

Variables (the real environment wins over ``.env``):

``DISCORD_TOKEN``
    The bot token. Without one, ``python -m bot`` opens the local console.
``ANNALS_DB``
    The SQLite database file (default ``annals.sqlite3``), or a PostgreSQL database
    (``postgresql://user:password@host/dbname``) that several bot processes share.
``ANNALS_SHARDS`` / ``ANNALS_SHARD_COUNT``
    The gateway shards this process runs (``0-3``, or ``0,2,5``) out of how many in all
    (``--shards`` / ``--shard-count`` on the command line win). Unset: one process, no sharding.
``ANNALS_BACKUP_DIR``
    Where backups go (default ``backups`` beside the database).
``ANNALS_BACKUP_INTERVAL``
    How often to back up: a duration such as ``6h``, ``30m``, ``1d`` or plain
    seconds; ``0`` or ``off`` disables scheduled backups (default ``6h``).
``ANNALS_BACKUP_KEEP``
    How many backup files to keep, newest first (default 14).
``ANNALS_VACATION_DAYS``
    The most days away each seat may declare per game (default 14).
``ANNALS_OUT``
    Where the console writes board pictures (default `annals-out/`, which git ignores).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.store import DEFAULT_DB

DEFAULT_BACKUP_INTERVAL = 6 * 3600
DEFAULT_BACKUP_KEEP = 14
DEFAULT_VACATION_DAYS = 14
DEFAULT_OUT = Path("annals-out")  # board pictures; git ignores it

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw]?)", re.IGNORECASE)
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(ValueError):
    """A setting has a value we cannot use; the message names it."""


@dataclass(frozen=True)
class Config:
    """Everything ``python -m bot`` needs to know at start-up.

    Attributes:
        discord_token: the bot token, or None to run the local console.
        db_path: the SQLite database file.
        backup_dir: where backup files are written.
        backup_interval: seconds between scheduled backups (0: none).
        backup_keep: how many backup files to keep.
        vacation_days: the most days away per seat and game.
        out_dir: where the console writes board pictures.
        shard_ids: the gateway shards this process runs (None: all of ``shard_count``).
        shard_count: how many shards the bot has in all (None: no sharding).
    """

    discord_token: str | None
    db_path: str
    backup_dir: Path
    backup_interval: int = DEFAULT_BACKUP_INTERVAL
    backup_keep: int = DEFAULT_BACKUP_KEEP
    vacation_days: int = DEFAULT_VACATION_DAYS
    out_dir: Path = DEFAULT_OUT
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None


def parse_duration(text: str) -> int:
    """Seconds in a duration like ``90``, ``45s``, ``30m``, ``2h``, ``1d``, ``1w`` or ``1h30m``.

    Raises:
        ValueError: the text is not a duration.
    """
    cleaned = text.strip().lstrip("+").replace(" ", "")
    if not cleaned:
        raise ValueError("an empty duration")
    total = 0.0
    pos = 0
    for match in _DURATION.finditer(cleaned):
        if match.start() != pos or not match.group(0):
            break
        total += float(match.group(1)) * _UNITS[(match.group(2) or "s").lower()]
        pos = match.end()
    if pos != len(cleaned):
        raise ValueError(f"{text!r} is not a duration (try 90, 30m, 2h, 1d or 1h30m)")
    return round(total)


def parse_shards(text: str) -> tuple[int, ...]:
    """Shard ids from ``0-3``, ``5`` or ``0,2,4-6`` (sorted, each once).

    Raises:
        ValueError: the text is not such a list.
    """
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"{text!r} is not a list of shards (try 0-3 or 0,2,5)")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"{part!r}: a range of shards goes upwards, like 0-3")
        out.update(range(first, last + 1))
    return tuple(sorted(out))


def check_shards(shard_ids: tuple[int, ...] | None, shard_count: int | None) -> None:
    """Shards make sense only with their total, and each is below it.

    Raises:
        ConfigError: they do not; the message says what to set.
    """
    if shard_count is None:
        if shard_ids is not None:
            raise ConfigError("ANNALS_SHARDS (--shards) needs ANNALS_SHARD_COUNT (--shard-count): how many "
                              "shards the bot has in all")
        return
    if shard_count < 1:
        raise ConfigError(f"ANNALS_SHARD_COUNT (--shard-count) must be at least 1, not {shard_count}")
    outside = [s for s in shard_ids or () if s >= shard_count]
    if outside:
        raise ConfigError(f"shards {outside} are not below the shard count {shard_count} (shards are "
                          f"numbered 0 to {shard_count - 1})")


def parse_env_file(text: str) -> dict[str, str]:
    """The ``KEY=value`` pairs of a ``.env`` file.

    Blank lines and ``#`` comments are skipped; ``export KEY=value`` is allowed;
    values may be quoted with ``'`` or ``"`` (double quotes understand ``\\n``,
    ``\\"`` and ``\\\\``); an unquoted value ends at `` #``. Malformed lines are ignored.
    """
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not _KEY.match(key):
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == "'":
            value = value[1:-1]
        elif len(value) >= 2 and value[0] == value[-1] == '"':
            value = re.sub(r'\\([n"\\])', lambda m: "\n" if m.group(1) == "n" else m.group(1), value[1:-1])
        else:
            value = value.split(" #", 1)[0].rstrip()
        out[key] = value
    return out


def load_config(
    environ: Mapping[str, str] | None = None, env_file: str | os.PathLike[str] | None = ".env"
) -> Config:
    """Read the settings: ``environ`` (default ``os.environ``) over the ``.env`` file, if it exists.

    Raises:
        ConfigError: a number or duration cannot be read.
    """
    values: dict[str, str] = {}
    if env_file is not None:
        path = Path(env_file)
        if path.is_file():
            values.update(parse_env_file(path.read_text(encoding="utf-8")))
    values.update({k: v for k, v in (os.environ if environ is None else environ).items()})

    def get(key: str) -> str | None:
        value = values.get(key, "").strip()
        return value or None

    db_path = get("ANNALS_DB") or DEFAULT_DB
    backup_dir = Path(get("ANNALS_BACKUP_DIR") or Path(db_path).resolve().parent / "backups")
    interval_text = get("ANNALS_BACKUP_INTERVAL")
    if interval_text is None:
        interval = DEFAULT_BACKUP_INTERVAL
    elif interval_text.lower() in ("off", "no", "none", "never"):
        interval = 0
    else:
        try:
            interval = parse_duration(interval_text)
        except ValueError as exc:
            raise ConfigError(f"ANNALS_BACKUP_INTERVAL: {exc}") from exc
    shards_text = get("ANNALS_SHARDS")
    try:
        shard_ids = parse_shards(shards_text) if shards_text is not None else None
    except ValueError as exc:
        raise ConfigError(f"ANNALS_SHARDS: {exc}") from exc
    shard_count = _whole(get, "ANNALS_SHARD_COUNT", 0, low=1) if get("ANNALS_SHARD_COUNT") else None
    check_shards(shard_ids, shard_count)
    return Config(
        discord_token=get("DISCORD_TOKEN"),
        db_path=db_path,
        backup_dir=backup_dir,
        backup_interval=interval,
        backup_keep=_whole(get, "ANNALS_BACKUP_KEEP", DEFAULT_BACKUP_KEEP, low=1),
        vacation_days=_whole(get, "ANNALS_VACATION_DAYS", DEFAULT_VACATION_DAYS, low=0),
        out_dir=Path(get("ANNALS_OUT") or DEFAULT_OUT),
        shard_ids=shard_ids,
        shard_count=shard_count,
    )


def _whole(get: Callable[[str], str | None], key: str, default: int, *, low: int) -> int:
    text = get(key)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError as exc:
        raise ConfigError(f"{key} must be a whole number, not {text!r}") from exc
    if value < low:
        raise ConfigError(f"{key} must be at least {low}, not {value}")
    return value
