"""``tablejudge serve``: the HTTP challenge API and the phone page on 127.0.0.1:8000.

Every option also reads from an environment variable (``TABLEJUDGE_HOST``, ``_PORT``, ``_WORKERS``,
``_LEXICONS``, ``_CORS_ORIGINS``, ...; see ``service/README.md``); an option given here wins.
Missing or stale indexes are built here, with their progress bar, before any worker starts, so the
workers only memory-map finished files.
"""

from __future__ import annotations

import argparse
import dataclasses
import socket
import sys

from indexes.build import ensure_index
from service.settings import Settings, SettingsError


def register(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser("serve", help="run the HTTP API and the phone page")
    serve.add_argument("--host", help="address to listen on (TABLEJUDGE_HOST; default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (TABLEJUDGE_PORT; default 8000)")
    serve.add_argument("--workers", type=int, help="worker processes (TABLEJUDGE_WORKERS; default 1)")
    serve.add_argument(
        "--lexicon",
        action="append",
        dest="lexicons",
        help="serve this lexicon; repeat for more; the first is the default (TABLEJUDGE_LEXICONS; default: all)",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        dest="cors_origins",
        help="let a browser page on this origin call the API; repeat, or '*' (TABLEJUDGE_CORS_ORIGINS)",
    )
    serve.add_argument("--access-log", action="store_true", default=None, help="log every request")
    serve.add_argument(
        "--data", dest="data_dir", help="folder for the matches' SQLite database (TABLEJUDGE_DATA; default "
        "$XDG_DATA_HOME/tablejudge, i.e. ~/.local/share/tablejudge)",
    )  # fmt: skip
    serve.add_argument(
        "--database", help="postgresql://... to share matches between servers (TABLEJUDGE_DATABASE; default: SQLite)"
    )
    serve.add_argument("--public-url", help="the address invite links point to (TABLEJUDGE_PUBLIC_URL)")
    serve.set_defaults(run=run)


def settings_from(args: argparse.Namespace) -> Settings:
    """The environment's settings with the command line's options on top."""
    base = Settings.from_env()
    overrides: dict[str, object] = {
        name: getattr(args, name)
        for name in ("host", "port", "workers", "access_log", "data_dir", "database", "public_url")
        if getattr(args, name) is not None
    }
    if args.lexicons:
        overrides["lexicons"] = tuple(args.lexicons)
        overrides["default_lexicon"] = args.lexicons[0]
    if args.cors_origins:
        overrides["cors_origins"] = tuple(args.cors_origins)
    if "port" in overrides and not 1 <= int(overrides["port"]) <= 65535:  # type: ignore[call-overload]
        raise SettingsError(f"--port must be from 1 to 65535, got {overrides['port']}")
    if "workers" in overrides and not 1 <= int(overrides["workers"]) <= 64:  # type: ignore[call-overload]
        raise SettingsError(f"--workers must be from 1 to 64, got {overrides['workers']}")
    return dataclasses.replace(base, **overrides)  # type: ignore[arg-type]


def address_in_use(host: str, port: int) -> str | None:
    """Why the server could not listen there (a port in use, an unknown host), or None if it can.

    Asked before the indexes are built and the workers start, so that the mistake is one line
    and exit code 2, not uvicorn's log after a long wait.
    """
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind((host, port))
    except OSError as error:
        return error.strerror or str(error)
    return None


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
    except SettingsError as error:
        print(f"tablejudge serve: {error}", file=sys.stderr)
        return 2
    if (busy := address_in_use(settings.host, settings.port)) is not None:
        print(f"tablejudge serve: cannot listen on {settings.host}:{settings.port}: {busy}", file=sys.stderr)
        return 2
    for name in settings.lexicons:
        ensure_index(name)  # prints a progress bar when it builds
    print(
        f"tablejudge: serving {', '.join(settings.lexicons)} on http://{settings.host}:{settings.port}/ "
        f"with {settings.workers} worker(s)",
        file=sys.stderr,
    )
    from service.server import run as run_server  # uvicorn is imported only when serving

    run_server("service.app:served_app", settings)
    return 0
