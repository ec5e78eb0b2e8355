"""``tablejudge serve``: the HTTP challenge API and the phone page on 127.0.0.1:8000.

Every setting is an environment variable (``service.settings``: ``TABLEJUDGE_HOST``, ``_PORT``,
``_WORKERS``, ...), and the options here set the most used ones; an option given wins over its variable.
``--help`` lists them all, written from the settings' own declarations when it is asked for (the other
commands do not import them). Missing or stale indexes are built here, with their progress bar, before any
worker starts, so the workers only memory-map finished files.
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import TYPE_CHECKING, Any

from indexes.build import ensure_index

if TYPE_CHECKING:
    from service.settings import Settings

#: Each option: the field of ``service.settings.Settings`` it sets, and how argparse reads it.
OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "--host": ("host", {}),
    "--port": ("port", {}),
    "--workers": ("workers", {}),
    "--lexicon": ("lexicons", {"action": "append", "help": "one lexicon; repeat for more, the first is the default"}),
    "--cors-origin": ("cors_origins", {"action": "append", "help": "one origin; repeat for more"}),
    "--access-log": ("access_log", {"action": "store_true", "default": None}),
    "--data": ("data_dir", {}),
    "--database": ("database", {}),
    "--public-url": ("public_url", {}),
}
#: An option's help until ``--help`` is asked for: then its field's, its variable's and its default.
_SETTING = "(its setting's)"


class SettingsHelp(argparse.RawDescriptionHelpFormatter):
    """``serve --help``: each option's help from its field's declaration, and every variable after the options."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        fields = {field for field, _ in OPTIONS.values()}
        if action.dest not in fields:
            return action.help
        from service.settings import described

        words = described(action.dest).replace("%", "%%")
        return words if action.help == _SETTING else f"{action.help}: {words}"

    def format_help(self) -> str:
        from service.settings import help_text

        return super().format_help() + "\n" + help_text() + "\n"


def register(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser(
        "serve", help="run the HTTP API and the phone page", formatter_class=SettingsHelp,
        description="Serve the word judge, the match server and the phone page.",
    )  # fmt: skip
    for option, (field, how) in OPTIONS.items():
        serve.add_argument(option, dest=field, **{"help": _SETTING, **how})
    serve.set_defaults(run=run)


def settings_from(args: argparse.Namespace) -> Settings:
    """The environment's settings with the command line's options on top; a bad option is one line that
    names it."""
    from service.settings import Settings, SettingsError

    given = {field: getattr(args, field) for field, _ in OPTIONS.values() if getattr(args, field) is not None}
    if args.lexicons:
        given["lexicons"] = tuple(args.lexicons)
        given["default_lexicon"] = args.lexicons[0]
    if args.cors_origins:
        given["cors_origins"] = tuple(args.cors_origins)
    try:
        return Settings.from_env(**given)
    except SettingsError as error:
        named = error.variable.path if error.variable else ()
        option = next((option for option, (field, _) in OPTIONS.items() if (field,) == named and field in given), None)
        if option is None or error.variable is None:
            raise
        raise SettingsError(f"{option} must be {error.variable.accepts()}, got {error.value!r}") from None


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
    from service.settings import SettingsError

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
