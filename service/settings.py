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


def parse_rate(name: str, text: str) -> tuple[int, float] | None:
    """A rate limit written ``COUNT/SECONDS`` (``30/60``: 30 requests a minute, in a burst or spread
    out); ``0`` or ``off`` turns it off.

    >>> parse_rate("RATE_CREATE", "30/60"), parse_rate("RATE_JUDGE", "off")
    ((30, 60.0), None)
    """
    cleaned = text.strip().lower()
    if cleaned in ("0", "off", "none", ""):
        return None
    count, _, seconds = cleaned.partition("/")
    try:
        parsed = (int(count), float(seconds or "1"))
    except ValueError:
        parsed = (0, 0.0)
    if not (1 <= parsed[0] <= 1_000_000 and 0.001 <= parsed[1] <= 86_400):
        raise SettingsError(
            f"{PREFIX}{name} must be COUNT/SECONDS (e.g. 30/60: 30 a minute) or off, got {text!r}"
        )
    return parsed


def _flag(name: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise SettingsError(f"{PREFIX}{name} must be 1/true/yes/on or 0/false/no/off, got {text!r}")


#: The match server's engine work and limits (``Settings.match_limits``): each setting, with the range
#: its ``TABLEJUDGE_<NAME>`` variable accepts.
MATCH_LIMITS: tuple[tuple[str, int, int], ...] = (
    ("engine_workers", 0, 64),
    ("bot_budget_ms", 100, 600_000),
    ("read_budget_ms", 100, 600_000),
    ("engine_queue", 1, 10_000),
    ("engine_reserved", 0, 64),
    ("bot_only_queue", 1, 10_000),
    ("worker_memory_mb", 0, 1_048_576),
    ("max_moves", 1, 10_000_000),
    ("unwatched_bot_delay_ms", 0, 3_600_000),
)


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
    # --- the match server's engine work and its limits (issue 24): matches/README.md, "Engine work
    # and limits". Passed to ``matches.service.MatchSettings`` by ``match_limits``. ---------------------
    #: Worker processes for engine work whose cost grows with a game (bots, score sheets, replays,
    #: reviews, legal-move lists); 0 runs it on the event loop (only for a trusted table).
    engine_workers: int = min(2, os.cpu_count() or 1)
    #: How long a bot may think (ms); past it its worker is killed and the bot plays its greedy move.
    bot_budget_ms: int = 10_000
    #: How long a read's engine work may take (ms); past it: 503 with Retry-After.
    read_budget_ms: int = 5_000
    #: Engine calls that may wait for a busy worker; one more answers 503 at once.
    engine_queue: int = 32
    #: Workers the thinking of bots in matches with no person seated never holds, kept for matches with
    #: people and for reads (it holds at least one); its calls that may wait, in a queue of their own.
    engine_reserved: int = 1
    bot_only_queue: int = 8
    #: Each engine worker's address space in MiB (RLIMIT_AS); 0: no limit.
    worker_memory_mb: int = 1024
    #: The most moves one match may hold (409 ``move_limit`` beyond).
    max_moves: int = 20_000
    #: A match with no person seated that no live socket watches moves at most once per this many ms.
    unwatched_bot_delay_ms: int = 5_000
    #: How a move is committed: ``normal`` survives a killed server (SQLite ``synchronous=NORMAL``,
    #: PostgreSQL ``synchronous_commit=off``), ``full`` also a power cut (an fsync per move).
    sync: str = "normal"

    # --- limits: see README.md, "Limits". Defaults that a table of friends never meets. ---------------
    #: Requests per client address, ``COUNT/SECONDS`` (a token bucket holding COUNT, refilled over
    #: SECONDS) or ``off``: match creation (also rematches and house rules), joins, moves (and
    #: previews), and judge queries. Beyond it: 429 with ``Retry-After``.
    rate_create: str = "30/60"
    rate_join: str = "60/60"
    rate_moves: str = "600/60"
    rate_judge: str = "1200/60"
    #: Proxies (exact client addresses) whose ``proxy_header`` names the real client; none by default,
    #: and the header of anyone else is ignored.
    trusted_proxies: tuple[str, ...] = ()
    proxy_header: str = "x-forwarded-for"
    #: Matches waiting for players: at most this many created from one address, and in all (409 beyond).
    max_waiting_per_client: int = 20
    max_waiting: int = 2000
    #: Matches with no person seated (a bot in every seat), playing: at most this many created from one
    #: address (429 beyond), and in all (409 beyond).
    max_bot_only_per_client: int = 8
    max_bot_only: int = 64
    #: A waiting match nobody joined for this long (seconds) is removed; its invite then answers 404.
    waiting_expiry_s: int = 86_400
    #: Largest request head (request line and headers) in bytes; larger answers 431 and closes.
    max_header_bytes: int = 16_384
    #: Seconds a client has to send a whole request (head and body) once its connection is open or
    #: its previous answer sent; slower (or silent) connections are closed.
    request_timeout_s: int = 10
    #: Seconds an idle keep-alive connection is kept between two requests.
    keep_alive_s: int = 5

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
        for name in ("rate_create", "rate_join", "rate_moves", "rate_judge"):
            parse_rate(name.upper(), getattr(self, name))
        object.__setattr__(self, "lexicons", served)
        object.__setattr__(self, "proxy_header", self.proxy_header.strip().lower())

    def rate(self, kind: str) -> tuple[int, float] | None:
        """``rate_<kind>`` as (count, seconds), None when off."""
        return parse_rate(f"RATE_{kind.upper()}", getattr(self, f"rate_{kind}"))

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
        for name, low, high in MATCH_LIMITS:
            if (limit := get(name.upper())) is not None:
                values[name] = _whole(name.upper(), limit, low, high)
        if (sync := get("SYNC")) is not None:
            values["sync"] = sync.strip().lower()
        for kind in ("create", "join", "moves", "judge"):
            if (rate := get(f"RATE_{kind.upper()}")) is not None:
                values[f"rate_{kind}"] = rate.strip()
        if (proxies := get("TRUSTED_PROXIES")) is not None:
            values["trusted_proxies"] = _split(proxies)
        if (header := get("PROXY_HEADER")) is not None:
            values["proxy_header"] = header.strip().lower() or "x-forwarded-for"
        if (per_client := get("MAX_WAITING_PER_CLIENT")) is not None:
            values["max_waiting_per_client"] = _whole("MAX_WAITING_PER_CLIENT", per_client, 1, 1_000_000)
        if (waiting := get("MAX_WAITING")) is not None:
            values["max_waiting"] = _whole("MAX_WAITING", waiting, 1, 10_000_000)
        if (bot_only_per_client := get("MAX_BOT_ONLY_PER_CLIENT")) is not None:
            values["max_bot_only_per_client"] = _whole("MAX_BOT_ONLY_PER_CLIENT", bot_only_per_client, 1, 1_000_000)
        if (bot_only := get("MAX_BOT_ONLY")) is not None:
            values["max_bot_only"] = _whole("MAX_BOT_ONLY", bot_only, 1, 10_000_000)
        if (expiry := get("WAITING_EXPIRY_S")) is not None:
            values["waiting_expiry_s"] = _whole("WAITING_EXPIRY_S", expiry, 1, 365 * 86_400)
        if (header_bytes := get("MAX_HEADER_BYTES")) is not None:
            values["max_header_bytes"] = _whole("MAX_HEADER_BYTES", header_bytes, 1024, 1_048_576)
        if (request_timeout := get("REQUEST_TIMEOUT_S")) is not None:
            values["request_timeout_s"] = _whole("REQUEST_TIMEOUT_S", request_timeout, 1, 3600)
        if (keep_alive := get("KEEP_ALIVE_S")) is not None:
            values["keep_alive_s"] = _whole("KEEP_ALIVE_S", keep_alive, 1, 3600)
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
            **{PREFIX + name.upper(): str(getattr(self, name)) for name, _, _ in MATCH_LIMITS},
            PREFIX + "SYNC": self.sync,
            PREFIX + "RATE_CREATE": self.rate_create,
            PREFIX + "RATE_JOIN": self.rate_join,
            PREFIX + "RATE_MOVES": self.rate_moves,
            PREFIX + "RATE_JUDGE": self.rate_judge,
            PREFIX + "TRUSTED_PROXIES": ",".join(self.trusted_proxies),
            PREFIX + "PROXY_HEADER": self.proxy_header,
            PREFIX + "MAX_WAITING_PER_CLIENT": str(self.max_waiting_per_client),
            PREFIX + "MAX_WAITING": str(self.max_waiting),
            PREFIX + "MAX_BOT_ONLY_PER_CLIENT": str(self.max_bot_only_per_client),
            PREFIX + "MAX_BOT_ONLY": str(self.max_bot_only),
            PREFIX + "WAITING_EXPIRY_S": str(self.waiting_expiry_s),
            PREFIX + "MAX_HEADER_BYTES": str(self.max_header_bytes),
            PREFIX + "REQUEST_TIMEOUT_S": str(self.request_timeout_s),
            PREFIX + "KEEP_ALIVE_S": str(self.keep_alive_s),
        }

    def match_limits(self) -> dict[str, int]:
        """The match server's engine work and limits, as ``MatchSettings`` takes them."""
        return {name: getattr(self, name) for name, _, _ in MATCH_LIMITS}

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
