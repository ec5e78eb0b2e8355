"""The service's settings: one frozen value, read from ``TABLEJUDGE_*`` environment variables.

The environment is the single source because uvicorn starts each worker in a fresh process:
``tablejudge serve`` writes its command-line options back into the environment
(:meth:`Settings.to_env`) and every worker reads the same values with :meth:`Settings.from_env`.

>>> Settings.from_env({"TABLEJUDGE_PORT": "9000", "TABLEJUDGE_CORS_ORIGINS": "http://a.test, http://b.test"}).port
9000
>>> Settings.from_env({"TABLEJUDGE_WORKERS": "zero"})
Traceback (most recent call last):
...
service.settings.SettingsError: TABLEJUDGE_WORKERS must be a whole number from 1 to 64, got 'zero'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from indexes import DEFAULT_LEXICON, lexicon_names

PREFIX = "TABLEJUDGE_"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the variable and the accepted values."""


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _whole(name: str, text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise SettingsError(f"{PREFIX}{name} must be a whole number from {low} to {high}, got {text!r}")
    return value


def _flag(name: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise SettingsError(f"{PREFIX}{name} must be 1/true/yes/on or 0/false/no/off, got {text!r}")


@dataclass(frozen=True)
class Settings:
    """Everything the service can be told. Defaults suit one table on one machine."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    #: The lexicons served (their indexes are built on start); empty means every word list found.
    lexicons: tuple[str, ...] = ()
    default_lexicon: str = DEFAULT_LEXICON
    #: Origins allowed to call the API from a browser (``*`` for any); empty: same origin only.
    cors_origins: tuple[str, ...] = ()
    #: How long a phone or proxy may reuse an answer without asking again (the ETag still applies).
    cache_max_age: int = 3600
    access_log: bool = False
    log_level: str = "info"
    #: Longest request target (path + query) accepted; longer answers 414.
    max_target_bytes: int = 2048
    #: Largest request body accepted (the challenge POST); larger answers 413.
    max_body_bytes: int = 16384
    #: Each worker's cache of recent encoded answers, in MiB; 0 turns it off.
    answer_cache_mb: int = 16
    #: Where the match server keeps its SQLite database (created on first start).
    data_dir: str = ""
    #: The matches' database: empty for SQLite in ``data_dir``, or ``postgresql://...`` to share it.
    database: str = ""
    #: The address invite links point to (default: http://HOST:PORT/).
    public_url: str = ""
    #: How long bots wait before a turn-based move (ms), so that people can follow.
    bot_delay_ms: int = 600
    #: How a move is committed: ``normal`` survives a killed server (SQLite ``synchronous=NORMAL``,
    #: PostgreSQL ``synchronous_commit=off``), ``full`` also a power cut (an fsync per move).
    sync: str = "normal"

    def __post_init__(self) -> None:
        served = self.lexicons or tuple(lexicon_names())
        unknown = [name for name in served if name not in lexicon_names()]
        if unknown:
            known = ", ".join(lexicon_names()) or "none"
            raise SettingsError(f"{PREFIX}LEXICONS: no word list for {', '.join(unknown)}; known lexicons: {known}")
        if self.default_lexicon not in served:
            raise SettingsError(
                f"{PREFIX}DEFAULT_LEXICON {self.default_lexicon!r} is not served; served: {', '.join(served)}"
            )
        if self.sync not in ("normal", "full"):
            raise SettingsError(f"{PREFIX}SYNC must be normal or full, got {self.sync!r}")
        if self.database and not self.database.startswith(("postgresql://", "postgres://", "sqlite://")):
            raise SettingsError(f"{PREFIX}DATABASE must be postgresql://... or sqlite:///path, got {self.database!r}")
        if self.log_level not in LOG_LEVELS:
            raise SettingsError(f"{PREFIX}LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {self.log_level!r}")
        object.__setattr__(self, "lexicons", served)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            return env.get(PREFIX + name)

        values: dict[str, object] = {}
        if (host := get("HOST")) is not None:
            values["host"] = host.strip() or "127.0.0.1"
        if (port := get("PORT")) is not None:
            values["port"] = _whole("PORT", port, 1, 65535)
        if (workers := get("WORKERS")) is not None:
            values["workers"] = _whole("WORKERS", workers, 1, 64)
        if (lexicons := get("LEXICONS")) is not None:
            values["lexicons"] = _split(lexicons)
        if (default := get("DEFAULT_LEXICON")) is not None:
            values["default_lexicon"] = default.strip()
        if (origins := get("CORS_ORIGINS")) is not None:
            values["cors_origins"] = _split(origins)
        if (max_age := get("CACHE_MAX_AGE")) is not None:
            values["cache_max_age"] = _whole("CACHE_MAX_AGE", max_age, 0, 31_536_000)
        if (access_log := get("ACCESS_LOG")) is not None:
            values["access_log"] = _flag("ACCESS_LOG", access_log)
        if (log_level := get("LOG_LEVEL")) is not None:
            values["log_level"] = log_level.strip().lower()
        if (target := get("MAX_TARGET_BYTES")) is not None:
            values["max_target_bytes"] = _whole("MAX_TARGET_BYTES", target, 256, 65536)
        if (body := get("MAX_BODY_BYTES")) is not None:
            values["max_body_bytes"] = _whole("MAX_BODY_BYTES", body, 1024, 1_048_576)
        if (cache_mb := get("ANSWER_CACHE_MB")) is not None:
            values["answer_cache_mb"] = _whole("ANSWER_CACHE_MB", cache_mb, 0, 4096)
        if (data_dir := get("DATA")) is not None:
            values["data_dir"] = data_dir.strip()
        if (database := get("DATABASE")) is not None:
            values["database"] = database.strip()
        if (public_url := get("PUBLIC_URL")) is not None:
            values["public_url"] = public_url.strip().rstrip("/")
        if (delay := get("BOT_DELAY_MS")) is not None:
            values["bot_delay_ms"] = _whole("BOT_DELAY_MS", delay, 0, 60_000)
        if (sync := get("SYNC")) is not None:
            values["sync"] = sync.strip().lower()
        if "default_lexicon" not in values and "lexicons" in values and values["lexicons"]:
            # Serving only other lexicons: the first one named becomes the default.
            lexicon_list = values["lexicons"]
            assert isinstance(lexicon_list, tuple)
            if DEFAULT_LEXICON not in lexicon_list:
                values["default_lexicon"] = lexicon_list[0]
        return cls(**values)  # type: ignore[arg-type]

    def to_env(self) -> dict[str, str]:
        """The environment variables that make :meth:`from_env` give back these settings."""
        return {
            PREFIX + "HOST": self.host,
            PREFIX + "PORT": str(self.port),
            PREFIX + "WORKERS": str(self.workers),
            PREFIX + "LEXICONS": ",".join(self.lexicons),
            PREFIX + "DEFAULT_LEXICON": self.default_lexicon,
            PREFIX + "CORS_ORIGINS": ",".join(self.cors_origins),
            PREFIX + "CACHE_MAX_AGE": str(self.cache_max_age),
            PREFIX + "ACCESS_LOG": "1" if self.access_log else "0",
            PREFIX + "LOG_LEVEL": self.log_level,
            PREFIX + "MAX_TARGET_BYTES": str(self.max_target_bytes),
            PREFIX + "MAX_BODY_BYTES": str(self.max_body_bytes),
            PREFIX + "ANSWER_CACHE_MB": str(self.answer_cache_mb),
            PREFIX + "DATA": self.data_dir,
            PREFIX + "DATABASE": self.database,
            PREFIX + "PUBLIC_URL": self.public_url,
            PREFIX + "BOT_DELAY_MS": str(self.bot_delay_ms),
            PREFIX + "SYNC": self.sync,
        }

    def data_path(self) -> Path:
        """The data folder: ``data_dir`` (``TABLEJUDGE_DATA``), or ``$XDG_DATA_HOME/tablejudge``
        (``~/.local/share/tablejudge``)."""
        folder = self.data_dir or os.environ.get(PREFIX + "DATA", "")
        if folder:
            return Path(folder).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "tablejudge"

    def database_url(self) -> str:
        return self.database or f"sqlite:///{self.data_path() / 'matches.sqlite3'}"

    def base_url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return self.public_url or f"http://{host}:{self.port}"
