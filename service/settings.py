"""The server's settings: one ``Settings``, read once at start-up from ``TABLEJUDGE_*`` environment
variables and handed down as plain typed values.

Each variable is declared once, as a field with its type, bounds, default and one line of help: the
server's own here (``Settings`` and its ``Limits``), the match server's where the match server keeps them
(``matches.settings``: ``MatchLimits``, ``Quotas``, ``TableLimits`` and ``TableMatchLimits``;
``matches.live_input.LiveLimits``; ``matches.push_setup.PushSettings``), since ``matches`` does not import
``service``. ``Settings`` holds those as parts, and a field's variable is ``TABLEJUDGE_`` and the field's
validation alias, or else its name, in capitals: ``Settings.port`` is ``TABLEJUDGE_PORT``,
``Settings.live.heartbeat`` is ``TABLEJUDGE_LIVE_HEARTBEAT_S``. pydantic-settings reads them through
``Variables``, the source that knows that rule; a blank variable is unset.

The environment is the way values reach uvicorn's workers, each a fresh process: ``tablejudge serve``
writes its options back into it (``Settings.export``) and every worker reads the same values.

``python -m service.settings --markdown limits`` prints the table of docs/deploy.md's "Limits" (``server``:
service/README.md's); ``--write`` writes every such table into its README, and
``tests/service/test_settings.py`` checks that they match.

>>> Settings.from_env({"TABLEJUDGE_PORT": "9000", "TABLEJUDGE_LIVE_QUEUE": "8"}).live.queue
8
>>> Settings.from_env({"TABLEJUDGE_WORKERS": "zero"})
Traceback (most recent call last):
...
service.settings.SettingsError: TABLEJUDGE_WORKERS must be a whole number from 1 to 64, got 'zero'
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, get_args, get_origin

import annotated_types
from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, InitSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

from indexes import DEFAULT_LEXICON, lexicon_names
from indexes.paths import user_data_dir
from matches.live_input import LiveLimits
from matches.push_setup import PushSettings
from matches.settings import MatchLimits, Quotas, TableLimits, TableMatchLimits, bounded, part

PREFIX = "TABLEJUDGE_"


class SettingsError(ValueError):
    """A setting that cannot be used: one line naming its variable and what it accepts."""

    def __init__(self, message: str, variable: Variable | None = None, value: object = None) -> None:
        super().__init__(message)
        #: The variable whose value was refused, and that value (None for a check of several together).
        self.variable, self.value = variable, value

    @classmethod
    def of(cls, error: ValidationError, environ: Mapping[str, str], values: Mapping[str, Any]) -> SettingsError:
        """pydantic's refusal (its first complaint) as one line, with the value as it was given: the
        variable's text, or a value given in code."""
        first = error.errors()[0]
        where = tuple(str(step) for step in first["loc"])
        named = [variable for variable in variables() if where[: len(variable.path)] == variable.path]
        if not named:  # a check of the whole, in its own words (the lexicons), or a field no variable sets
            reason = first.get("ctx", {}).get("error")
            return cls(str(reason) if reason is not None else f"{'.'.join(where)}: {first['msg']}")
        variable = named[0]
        field = variable.path[0]
        value = values[field] if len(variable.path) == 1 and field in values else environ.get(variable.name)
        return cls(f"{variable.name} must be {variable.accepts()}, got {value!r}", variable, value)


# --- types of our own, with what their variables accept ----------------------------------------------------
@dataclass(frozen=True)
class Accepts:
    """What a variable of a type of our own accepts, in words (its refusal, ``serve --help``, the READMEs)."""

    words: str


class Rate(NamedTuple):
    """A rate limit: ``requests`` in ``seconds``, a token bucket holding ``requests`` refilled over
    ``seconds`` (in a burst or spread out)."""

    requests: int
    seconds: float


def _rate(value: object) -> object:
    """``COUNT/SECONDS`` (``30/60``: 30 a minute) as a ``Rate``; ``0``, ``off`` or ``none``: None (no limit)."""
    if not isinstance(value, str):
        return value
    cleaned = value.strip().lower()
    if cleaned in ("0", "off", "none"):
        return None
    count, _, seconds = cleaned.partition("/")
    try:
        return Rate(int(count), float(seconds or "1"))
    except ValueError:
        raise ValueError("not COUNT/SECONDS") from None


def _rate_bounded(rate: Rate | None) -> Rate | None:
    if rate is not None and not (1 <= rate.requests <= 1_000_000 and 0.001 <= rate.seconds <= 86_400):
        raise ValueError("out of bounds")
    return rate


def _names(value: object) -> object:
    """A comma-separated list as a tuple, blanks dropped."""
    if not isinstance(value, str):
        return value
    return tuple(name.strip() for name in value.split(",") if name.strip())


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


def _database(url: str) -> str:
    if url and not url.startswith(("postgresql://", "postgres://", "sqlite://")):
        raise ValueError("not a database URL")
    return url


RateLimit = Annotated[
    Rate | None,
    BeforeValidator(_rate),
    AfterValidator(_rate_bounded),
    Accepts("COUNT/SECONDS or off (30/60: 30 a minute; COUNT at most 1000000, SECONDS at most 86400)"),
]
Names = Annotated[tuple[str, ...], BeforeValidator(_names), Accepts("a comma-separated list")]
DatabaseUrl = Annotated[str, AfterValidator(_database), Accepts("postgresql://..., sqlite:///PATH or empty")]


# --- the settings --------------------------------------------------------------------------------------------
class Limits(BaseModel):
    """What one client can ask of the server: rates per client address, and the bounds on a request and
    a connection (docs/deploy.md, "Limits"). Rates are counted per server process."""

    model_config = part()

    rate_create: RateLimit = Rate(30, 60.0)
    """match creations, rematches, new house rules, new tables and their matches from one client address; beyond: 429
    with Retry-After"""
    rate_join: RateLimit = Rate(60, 60.0)
    """joins of matches and tables, and player links made or taken, from one client address"""
    rate_moves: RateLimit = Rate(600, 60.0)
    """moves and previews from one client address, over HTTP and live sockets together (a live hello that resends missed
    moves costs 1, and 1 more per 100 moves)"""
    rate_lists: RateLimit = Rate(120, 60.0)
    """a device's list of games, a table's page, league, history and export, and a player's seats, from one client
    address"""
    rate_talk: RateLimit = Rate(120, 60.0)
    """takeback asks and answers and reactions from one client address (each seat's reactions have a limit of their own:
    TABLEJUDGE_REACTIONS_PER_MINUTE)"""
    rate_judge: RateLimit = Rate(1200, 60.0)
    """judge questions (/v1/bop, /v1/pdq, /v1/words, /v1/house-rules/{id}) from one client address"""
    rate_seats: RateLimit = Rate(30, 60.0)
    """resignations, vacations (taken and ended) and requests to end a game from one client address"""
    trusted_proxies: Names = ()
    """proxies (exact addresses) whose PROXY_HEADER names the real client; anyone else's header is ignored"""
    proxy_header: Annotated[str, BeforeValidator(_lower)] = "x-forwarded-for"
    """where a trusted proxy names the client: the last address in it that is not a trusted proxy"""
    max_target_bytes: int = bounded(2048, 256, 65536)
    """longest request target (path and query); longer: 414"""
    max_body_bytes: int = bounded(16384, 1024, 1_048_576)
    """largest request body (chunked ones counted too); larger: 413"""
    max_header_bytes: int = bounded(16_384, 1024, 1_048_576)
    """largest request head (request line and headers); larger: 431, the connection closed"""
    request_timeout_s: int = bounded(10, 1, 3600)
    """seconds a client has to send a whole request, from its connection's start or its last answer; slower: 408 if
    begun, else closed"""
    keep_alive_s: int = bounded(5, 1, 3600)
    """seconds an idle keep-alive connection is kept"""

    def rate(self, kind: str) -> Rate | None:
        """``rate_<kind>``: None when off."""
        rate: Rate | None = getattr(self, f"rate_{kind}")
        return rate


class Settings(BaseSettings):
    """Everything the server can be told. The defaults suit one table on one machine."""

    model_config = SettingsConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, validate_by_name=True, validate_by_alias=True,
        use_attribute_docstrings=True,
    )

    host: str = "127.0.0.1"
    """address to listen on (0.0.0.0 for phones on the local network)"""
    port: int = bounded(8000, 1, 65535)
    """port to listen on"""
    workers: int = bounded(1, 1, 64)
    """worker processes"""
    lexicons: Names = ()
    """lexicons to serve (their indexes are built on start); empty: every word list found"""
    default_lexicon: str = DEFAULT_LEXICON
    """the lexicon of a request that names none (standard, or else the first served)"""
    cors_origins: Names = ()
    """origins allowed to call the API from a browser, or *; empty: the same origin only"""
    cache_max_age: int = bounded(3600, 0, 31_536_000)
    """seconds a phone or proxy may reuse an answer without asking again (the ETag still applies)"""
    answer_cache_mb: int = bounded(16, 0, 4096)
    """each worker's cache of recent encoded answers, in MiB; 0 turns it off"""
    access_log: bool = False
    """log every request (it costs throughput)"""
    log_level: Annotated[Literal["critical", "error", "warning", "info", "debug"], BeforeValidator(_lower)] = "info"
    """uvicorn's log level"""
    data_dir: str = Field("", validation_alias="data")
    """the folder of the matches' SQLite database; empty: $XDG_DATA_HOME/tablejudge (~/.local/share/tablejudge)"""
    database: DatabaseUrl = ""
    """the matches' database: postgresql://... to share it between servers; empty: SQLite in the data folder"""
    public_url: Annotated[str, AfterValidator(lambda url: url.rstrip("/"))] = ""
    """the address invite links point to; empty: http://HOST:PORT"""
    sync: Annotated[Literal["normal", "full"], BeforeValidator(_lower)] = "normal"
    """how a move is committed: normal survives a killed server (SQLite synchronous=NORMAL, PostgreSQL
    synchronous_commit=off), full a power cut too (an fsync per move)"""

    # The parts, each with its fields' variables (this module's docstring).
    limits: Limits = Field(default_factory=Limits)
    match: MatchLimits = Field(default_factory=MatchLimits)
    quotas: Quotas = Field(default_factory=Quotas)
    table: TableMatchLimits = Field(default_factory=TableMatchLimits)
    tables: TableLimits = Field(default_factory=TableLimits)
    live: LiveLimits = Field(default_factory=LiveLimits)
    push: PushSettings = Field(default_factory=PushSettings)

    @model_validator(mode="after")
    def _served_lexicons(self) -> Settings:
        """Every lexicon named has a word list, and the default is served (when it was not named, the first
        one served stands in for ``standard`` if that is not)."""
        known = lexicon_names()
        served = self.lexicons or tuple(known)
        unknown = [name for name in served if name not in known]
        if unknown:
            raise ValueError(
                f"{PREFIX}LEXICONS: no word list for {', '.join(unknown)}; known lexicons: {', '.join(known) or 'none'}"
            )
        default = self.default_lexicon
        if "default_lexicon" not in self.model_fields_set and default not in served and served:
            default = served[0]
        if default not in served:
            raise ValueError(f"{PREFIX}DEFAULT_LEXICON {default!r} is not served; served: {', '.join(served)}")
        # Frozen: the validator completes the value it checked (as a dataclass's __post_init__ would).
        object.__setattr__(self, "lexicons", served)
        object.__setattr__(self, "default_lexicon", default)
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Values given in code win over the variables; no ``.env`` file, no secrets folder."""
        return init_settings, Variables(settings_cls)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **values: Any) -> Settings:
        """The settings of ``environ`` (this process's environment by default) with ``values`` given in code
        on top (``serve``'s options); a value that cannot be used raises ``SettingsError`` naming its variable."""
        variables_source = Variables(cls, environ)
        try:
            return cls(_build_sources=((InitSettingsSource(cls, values), variables_source), values))
        except ValidationError as error:
            raise SettingsError.of(error, variables_source.environ, values) from None

    def to_env(self) -> dict[str, str]:
        """The variables that make :meth:`from_env` give back these settings."""
        return {variable.name: as_text(variable.value(self)) for variable in variables()}

    def export(self) -> None:
        """Write these settings into this process's environment, where uvicorn's workers read them."""
        os.environ.update(self.to_env())

    def rate(self, kind: str) -> Rate | None:
        return self.limits.rate(kind)

    def data_path(self) -> Path:
        """The data folder: ``data_dir`` (``TABLEJUDGE_DATA``), or ``$XDG_DATA_HOME/tablejudge``."""
        return Path(self.data_dir).expanduser() if self.data_dir else user_data_dir()

    def database_url(self) -> str:
        return self.database or f"sqlite:///{self.data_path() / 'matches.sqlite3'}"

    def base_url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return self.public_url or f"http://{host}:{self.port}"


# --- the variables ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variable:
    """One ``TABLEJUDGE_*`` variable and the field it sets: ``path`` is the field's name, after its part's
    (``("live", "queue")``) for a part's field."""

    name: str
    path: tuple[str, ...]
    field: FieldInfo

    @property
    def part(self) -> str:
        """The part the field belongs to; "" for the server's own."""
        return self.path[0] if len(self.path) > 1 else ""

    def value(self, settings: BaseModel) -> Any:
        for step in self.path:
            settings = getattr(settings, step)
        return settings

    def help(self) -> str:
        """The field's help (its docstring) on one line."""
        return " ".join((self.field.description or "").split())

    def accepts(self) -> str:
        """What the variable accepts, in words."""
        metadata = self.field.metadata
        for item in metadata:
            if isinstance(item, Accepts):
                return item.words
        kind = self.field.annotation
        low = next((item.ge for item in metadata if isinstance(item, annotated_types.Ge)), None)
        high = next((item.le for item in metadata if isinstance(item, annotated_types.Le)), None)
        if kind is bool:
            return "on or off (1/0, true/false, yes/no)"
        if kind in (int, float) and low is not None and high is not None:
            number = "a whole number" if kind is int else "a number"
            return f"{number} from {as_text(low)} to {as_text(high)}"
        if get_origin(kind) is Literal:
            return "one of " + ", ".join(get_args(kind))
        return "text"

    def default(self) -> str:
        """The default, as the variable would spell it ("(none)" for an empty one); a default worked out
        where the server runs, in the words of its function's docstring."""
        if self.field.default_factory is not None:
            return (self.field.default_factory.__doc__ or "").strip()
        return as_text(self.field.default) or "(none)"


def as_text(value: object) -> str:
    """A setting's value as its variable spells it: ``30/60`` or ``off`` for a rate, ``on``/``off``, a
    comma-separated list, ``15`` for 15.0."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Rate):
        return f"{value.requests}/{as_text(value.seconds)}"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, tuple):
        return ",".join(str(each) for each in value)
    return str(value)


def _fields(model: type[BaseModel], within: tuple[str, ...] = ()) -> list[Variable]:
    found: list[Variable] = []
    for name, field in model.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found += _fields(kind, within + (name,))
        else:
            alias = field.validation_alias if isinstance(field.validation_alias, str) else name
            found.append(Variable(PREFIX + alias.upper(), within + (name,), field))
    return found


_VARIABLES: list[Variable] = []


def variables() -> list[Variable]:
    """Every variable, in the order of ``Settings``' fields and its parts'."""
    if not _VARIABLES:
        _VARIABLES.extend(_fields(Settings))
    return _VARIABLES


class Variables(PydanticBaseSettingsSource):
    """The values of the ``TABLEJUDGE_*`` variables, each under the field it names (this module's
    docstring). pydantic-settings' own environment source would read a part from one variable of JSON, or
    from names joined by a delimiter, where every variable here keeps its one flat name."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str] | None = None) -> None:
        super().__init__(settings_cls)
        self.environ = os.environ if environ is None else environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        raise NotImplementedError("every value is read by __call__")

    def __call__(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for variable in variables():
            text = self.environ.get(variable.name, "").strip()
            if text:
                *parts, name = variable.path
                holder = values
                for step in parts:
                    holder = holder.setdefault(step, {})
                holder[name] = text
        return values


# --- the variables in words: tablejudge serve --help, and the READMEs' tables -----------------------------
#: Each generated table: the parts whose variables it lists ("" for the server's own fields), and the
#: README that carries it between ``<!-- settings:NAME -->`` and ``<!-- /settings -->``.
TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "server": (("", "push"), "service/README.md"),
    "limits": (("limits", "quotas", "tables", "table", "match", "live"), "docs/deploy.md"),
}
_ROOT = Path(__file__).resolve().parent.parent


def markdown(table: str) -> str:
    """A README's table of the variables of ``TABLES[table]``'s parts."""
    parts, _ = TABLES[table]
    rows = ["| variable | default | accepts | what |", "|---|---|---|---|"]
    for part_name in parts:
        for variable in variables():
            if variable.part == part_name:
                default = variable.default()
                shown = default if default == "(none)" or " " in default else f"`{default}`"
                cells = (f"`{variable.name}`", shown, variable.accepts(), variable.help())
                rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def _marked(table: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- settings:{table} -->\n)(.*?)(<!-- /settings -->)", re.DOTALL)


def readme_table(table: str) -> str | None:
    """The table as its README has it now (None: the README has no place for it)."""
    found = _marked(table).search((_ROOT / TABLES[table][1]).read_text())
    return found.group(2) if found else None


def write_readmes() -> list[str]:
    """Write every generated table into its README; the READMEs that changed."""
    changed = []
    for table, (_, readme) in TABLES.items():
        path = _ROOT / readme
        text = path.read_text()
        found = _marked(table).search(text)
        if found is None:
            raise SystemExit(f"{readme} has no <!-- settings:{table} --> ... <!-- /settings --> for its table")
        written = text[: found.start(2)] + markdown(table) + text[found.end(2) :]
        if written != text:
            path.write_text(written)
            changed.append(readme)
    return changed


def described(field_path: str) -> str:
    """A field's help with its variable and default, for the command-line option that sets it."""
    variable = next(each for each in variables() if ".".join(each.path) == field_path)
    default = variable.default()
    return f"{variable.help()} ({variable.name}" + ("" if default == "(none)" else f"; default {default}") + ")"


def help_text(width: int = 100) -> str:
    """Every variable with its default, what it accepts and its help: the end of ``serve --help``."""
    lines = ["settings: each is an environment variable; an option above wins over its variable"]
    for variable in variables():
        lines.append(f"  {variable.name}={'' if variable.default() == '(none)' else variable.default()}")
        words = f"{variable.help()}. Accepts {variable.accepts()}."
        lines += textwrap.wrap(words, width, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return "\n".join(lines)


#: What tells FastAPI to export telemetry when named in the environment (OpenTelemetry's variables and
#: FastAPI's own; read by ``service.app._telemetry``).
TELEMETRY_VARIABLES = (
    "OTEL_PYTHON_TRACER_PROVIDER",
    "OTEL_PYTHON_METER_PROVIDER",
    "OTEL_PYTHON_LOGGER_PROVIDER",
    "FASTAPI_OTEL_AUTO_CONFIGURE",
)


def telemetry_named(environ: Mapping[str, str] | None = None) -> bool:
    """Does the environment name a telemetry provider, or ask FastAPI to set one up?"""
    env = os.environ if environ is None else environ
    return any(env.get(name) for name in TELEMETRY_VARIABLES)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.settings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", choices=sorted(TABLES), help="print this README table")
    parser.add_argument("--write", action="store_true", help="write every table into its README")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(args.markdown), end="")
    if args.write:
        for readme in write_readmes():
            print(f"wrote {readme}", file=sys.stderr)
    if not (args.markdown or args.write):
        print(help_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
