"""Settings from the environment and from ``tablejudge serve``'s options; a bad one is one clear line."""

from __future__ import annotations

import pytest

from indexes import lexicon_names
from service.server import server_options
from service.settings import Settings, SettingsError
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
