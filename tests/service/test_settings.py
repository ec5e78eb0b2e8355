"""Settings from the environment and from ``tablejudge serve``'s options; a bad one is one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, get_args, get_origin

import annotated_types
import pytest
from pydantic import ValidationError

from indexes import lexicon_names
from matches.live_input import LiveLimits
from matches.settings import MatchSettings
from service.server import server_options
from service.settings import TABLES, Rate, Settings, SettingsError, Variable, markdown, readme_table, variables
from tablejudge.cli import build_parser, main
from tablejudge.commands.serve import settings_from


def test_defaults_listen_on_loopback_8000_and_serve_every_lexicon() -> None:
    settings = Settings.from_env({})
    assert (settings.host, settings.port, settings.workers) == ("127.0.0.1", 8000, 1)
    assert settings.lexicons == tuple(lexicon_names()) and settings.default_lexicon == "standard"
    assert settings.cors_origins == () and settings.access_log is False


def test_environment_variables_set_everything_and_round_trip() -> None:
    env = {
        "TABLEJUDGE_HOST": "0.0.0.0",
        "TABLEJUDGE_PORT": "9001",
        "TABLEJUDGE_WORKERS": "2",
        "TABLEJUDGE_LEXICONS": "standard",
        "TABLEJUDGE_CORS_ORIGINS": "http://a.test, http://b.test",
        "TABLEJUDGE_CACHE_MAX_AGE": "60",
        "TABLEJUDGE_ACCESS_LOG": "yes",
        "TABLEJUDGE_LOG_LEVEL": "WARNING",
        "TABLEJUDGE_ANSWER_CACHE_MB": "0",
    }
    settings = Settings.from_env(env)
    assert settings.port == 9001 and settings.workers == 2 and settings.lexicons == ("standard",)
    assert settings.cors_origins == ("http://a.test", "http://b.test")
    assert settings.cache_max_age == 60 and settings.access_log is True and settings.log_level == "warning"
    assert settings.answer_cache_mb == 0
    assert Settings.from_env(settings.to_env()) == settings


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"TABLEJUDGE_PORT": "eighty"}, "TABLEJUDGE_PORT"),
        ({"TABLEJUDGE_WORKERS": "0"}, "TABLEJUDGE_WORKERS"),
        ({"TABLEJUDGE_LEXICONS": "klingon"}, "klingon"),
        ({"TABLEJUDGE_DEFAULT_LEXICON": "klingon"}, "klingon"),
        ({"TABLEJUDGE_ACCESS_LOG": "maybe"}, "TABLEJUDGE_ACCESS_LOG"),
        ({"TABLEJUDGE_LOG_LEVEL": "loud"}, "TABLEJUDGE_LOG_LEVEL"),
    ],
)
def test_a_bad_setting_names_itself(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_env(env)


def test_command_line_options_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEJUDGE_PORT", "9002")
    monkeypatch.setenv("TABLEJUDGE_WORKERS", "3")
    args = build_parser().parse_args(["serve", "--port", "9003", "--lexicon", "standard", "--cors-origin", "*"])
    settings = settings_from(args)
    assert settings.port == 9003 and settings.workers == 3
    assert settings.lexicons == ("standard",) and settings.default_lexicon == "standard"
    assert settings.cors_origins == ("*",)


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["serve", "--workers", "0"], "--workers"), (["serve", "--lexicon", "klingon"], "klingon")],
)
def test_serve_refuses_bad_options_with_exit_code_2(capsys: pytest.CaptureFixture[str], argv, named) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert named in err and err.count("\n") == 1


def test_the_server_runs_uvloop_and_httptools_without_an_access_log() -> None:
    options = server_options(Settings.from_env({}))
    # httptools, through service.connections' bounds on the request head and the time to send it
    assert options["loop"] == "uvloop" and options["http"] == "service.connections:BoundedHttpToolsProtocol"
    assert options["access_log"] is False and options["host"] == "127.0.0.1" and options["port"] == 8000


def test_serve_on_a_port_in_use_is_one_line_and_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert main(["serve", "--port", str(port), "--lexicon", "standard"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err and "in use" in err
    assert main(["serve", "--host", "no-such-host.invalid", "--lexicon", "standard"]) == 2
    assert "cannot listen on no-such-host.invalid:8000" in capsys.readouterr().err


# --- one declaration each: every variable read, bounded, refused in words, listed and documented ----------
#: Every variable a deployment (and ../shared/peerbench) may set, as they were named before the settings
#: were one object: renaming one breaks them.
NAMES = [
    "HOST", "PORT", "WORKERS", "LEXICONS", "DEFAULT_LEXICON", "CORS_ORIGINS", "CACHE_MAX_AGE", "ANSWER_CACHE_MB",
    "ACCESS_LOG", "LOG_LEVEL", "DATA", "DATABASE", "PUBLIC_URL", "SYNC",
    "RATE_CREATE", "RATE_JOIN", "RATE_MOVES", "RATE_JUDGE", "RATE_SEATS", "TRUSTED_PROXIES", "PROXY_HEADER",
    "MAX_TARGET_BYTES", "MAX_BODY_BYTES", "MAX_HEADER_BYTES", "REQUEST_TIMEOUT_S", "KEEP_ALIVE_S",
    "BOT_DELAY_MS", "ENGINE_WORKERS", "BOT_BUDGET_MS", "READ_BUDGET_MS", "ENGINE_QUEUE", "ENGINE_RESERVED",
    "BOT_ONLY_QUEUE", "WORKER_MEMORY_MB", "MAX_MOVES", "UNWATCHED_BOT_DELAY_MS", "ABANDON_DAYS",
    "MAX_WAITING_PER_CLIENT", "MAX_WAITING", "WAITING_EXPIRY_S", "MAX_BOT_ONLY_PER_CLIENT", "MAX_BOT_ONLY",
    "RATE_LISTS", "MAX_TABLES_PER_CLIENT", "MAX_TABLES", "TABLE_PLAYERS", "MY_GAMES", "MY_GAMES_DAYS",
    "LIVE_HEARTBEAT_S", "LIVE_QUEUE", "LIVE_SEND_TIMEOUT_S", "LIVE_MAX_FRAME_BYTES", "LIVE_HELLO_TIMEOUT_S",
    "LIVE_RATE", "LIVE_BURST", "LIVE_MAX_SOCKETS_PER_ADDRESS",
    "PUSH", "PUSH_SUBJECT", "PUSH_HTTP_LOOPBACK", "PUSH_PER_SEAT", "PUSH_QUEUE", "PUSH_CONCURRENCY", "PUSH_TIMEOUT_S",
    "PUSH_TTL_S", "PUSH_SLOW_CLOCK_S",
]  # fmt: skip


def test_every_variable_keeps_its_name_and_is_declared_once() -> None:
    names = [variable.name for variable in variables()]
    assert sorted(names) == sorted(f"TABLEJUDGE_{name}" for name in NAMES)
    assert len(set(names)) == len(names)


def bounds(variable: Variable) -> tuple[Any, Any]:
    low = next(item.ge for item in variable.field.metadata if isinstance(item, annotated_types.Ge))
    high = next(item.le for item in variable.field.metadata if isinstance(item, annotated_types.Le))
    return low, high


#: Values of the variables whose type says too little (text, lists): one accepted (its text and the value
#: it gives) and those refused.
SPECIAL: dict[str, tuple[str, Any, list[str]]] = {
    "TABLEJUDGE_HOST": ("0.0.0.0", "0.0.0.0", []),
    "TABLEJUDGE_LEXICONS": (" standard ,", ("standard",), ["klingon", "standard,klingon"]),
    "TABLEJUDGE_DEFAULT_LEXICON": ("complete", "complete", ["klingon"]),
    "TABLEJUDGE_CORS_ORIGINS": ("http://a.test, http://b.test", ("http://a.test", "http://b.test"), []),
    "TABLEJUDGE_DATA": ("/srv/tablejudge", "/srv/tablejudge", []),
    "TABLEJUDGE_DATABASE": ("postgres://db.test/matches", "postgres://db.test/matches", ["mysql://db.test/x"]),
    "TABLEJUDGE_PUBLIC_URL": ("https://table.test/", "https://table.test", []),
    "TABLEJUDGE_TRUSTED_PROXIES": ("10.0.0.1,10.0.0.2", ("10.0.0.1", "10.0.0.2"), []),
    "TABLEJUDGE_PROXY_HEADER": ("X-Real-IP", "x-real-ip", []),
    "TABLEJUDGE_LOG_LEVEL": ("WARNING", "warning", ["loud"]),
    "TABLEJUDGE_SYNC": ("Full", "full", ["fast"]),
    "TABLEJUDGE_PUSH_SUBJECT": ("mailto:ops@table.test", "mailto:ops@table.test", []),
}


def example(variable: Variable) -> tuple[str, Any, list[str]]:
    """A text the variable accepts, the value it gives, and texts it refuses: from its declaration."""
    if variable.name in SPECIAL:
        return SPECIAL[variable.name]
    kind = variable.field.annotation
    if kind is bool:
        return ("off", False, ["maybe", "2"]) if variable.field.default else ("yes", True, ["maybe", "2"])
    if get_origin(kind) is not None and Rate in get_args(kind):  # a rate
        return "7/3", Rate(7, 3.0), ["seven", "7/0", "7/100000", "2000000/60", "7/nan"]
    low, high = bounds(variable)
    if kind is int:
        return f" {high} ", high, [str(high + 1), str(low - 1), "many", "1.5"]
    assert kind is float, variable
    return str(high), float(high), [str(high * 2 + 1), str(low - 1), "many", "nan", "inf"]


@pytest.mark.parametrize("variable", variables(), ids=lambda variable: variable.name)
def test_each_variable_sets_its_field_within_its_bounds_and_refuses_in_one_line(variable: Variable) -> None:
    text, value, refused = example(variable)
    settings = Settings.from_env({variable.name: text})
    assert variable.value(settings) == value
    assert Settings.from_env({variable.name: "  "}) == Settings.from_env({})  # blank: unset
    assert Settings.from_env(settings.to_env()) == settings
    for bad in refused:
        with pytest.raises(SettingsError) as refusal:
            Settings.from_env({variable.name: bad})
        message = str(refusal.value)
        assert message.startswith(variable.name) and "klingon" in message or message == (
            f"{variable.name} must be {variable.accepts()}, got {bad!r}"
        ), message
        assert "\n" not in message


def test_the_spellings_deployments_use_are_read_as_before() -> None:
    settings = Settings.from_env({
        "TABLEJUDGE_RATE_CREATE": "30/60", "TABLEJUDGE_RATE_JOIN": "off", "TABLEJUDGE_RATE_MOVES": "0",
        "TABLEJUDGE_RATE_JUDGE": "1000000/1", "TABLEJUDGE_PUSH": "off", "TABLEJUDGE_PUSH_HTTP_LOOPBACK": "1",
        "TABLEJUDGE_ACCESS_LOG": "true", "TABLEJUDGE_LIVE_HEARTBEAT_S": "0.5", "TABLEJUDGE_ENGINE_WORKERS": "0",
        "TABLEJUDGE_LIVE_MAX_SOCKETS_PER_ADDRESS": "100000", "TABLEJUDGE_LIVE_RATE": "100000",
        "TABLEJUDGE_WAITING_EXPIRY_S": "86400",
    })  # fmt: skip
    assert settings.rate("create") == (30, 60.0) and settings.rate("join") is None and settings.rate("moves") is None
    assert settings.rate("judge") == (1_000_000, 1.0)
    assert settings.push.enabled is False and settings.push.http_loopback is True and settings.access_log is True
    assert settings.live.heartbeat == 0.5 and settings.match.engine_workers == 0
    assert settings.live.max_sockets_per_address == 100_000 and settings.live.rate == 100_000.0
    assert settings.quotas.waiting_expiry_s == 86_400.0


def test_serving_only_other_lexicons_makes_the_first_the_default() -> None:
    assert Settings.from_env({"TABLEJUDGE_LEXICONS": "complete"}).default_lexicon == "complete"
    assert Settings.from_env({"TABLEJUDGE_LEXICONS": "complete,standard"}).default_lexicon == "standard"


def test_values_given_in_code_win_over_the_environment_and_are_checked_too() -> None:
    env = {"TABLEJUDGE_PORT": "9000", "TABLEJUDGE_LIVE_QUEUE": "8"}
    settings = Settings.from_env(env, port=9001, live=LiveLimits(queue=16))
    assert settings.port == 9001 and settings.live.queue == 16
    with pytest.raises(SettingsError, match="TABLEJUDGE_PORT must be a whole number from 1 to 65535, got 0"):
        Settings.from_env(env, port=0)
    with pytest.raises(ValidationError):
        MatchSettings(engine_workers=65)  # the match server's parts are bounded in code as from a variable


def test_exported_settings_are_what_a_worker_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve`` writes its settings into the environment; each uvicorn worker, a fresh process, reads them."""
    monkeypatch.setattr(os, "environ", {"TABLEJUDGE_LIVE_QUEUE": "8"})
    settings = Settings.from_env(port=9004, workers=3, cors_origins=("*",))
    settings.export()
    assert os.environ["TABLEJUDGE_PORT"] == "9004" and os.environ["TABLEJUDGE_LIVE_QUEUE"] == "8"
    assert Settings.from_env() == settings


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_readmes_tables_are_written_from_the_settings(table: str) -> None:
    readme = TABLES[table][1]
    assert readme_table(table) == markdown(table), f"{readme} differs: run python -m service.settings --write"


def test_serve_help_lists_every_setting_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    for variable in variables():
        default = "" if variable.default() == "(none)" else variable.default()
        assert f"  {variable.name}={default}\n" in shown, variable.name
    assert "--workers WORKERS     worker processes (TABLEJUDGE_WORKERS; default 1)" in shown


def test_the_other_commands_do_not_import_the_settings() -> None:
    """The serve command's help is written when asked for: the judge's commands start without pydantic."""
    script = "import sys, tablejudge.cli as c; c.build_parser(); print('pydantic' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"
