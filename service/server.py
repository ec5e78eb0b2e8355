"""Run an ASGI app under uvicorn with the service's settings: one place for the server options.

``tablejudge serve`` uses it for the service; ``benchmarks/load.py`` uses it for the bare baseline
app, so both run on exactly the same server settings.
"""

from __future__ import annotations

import importlib.util
import logging

import uvicorn

from service.settings import Limits, Settings

log = logging.getLogger("tablejudge.service")


def _have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def server_options(settings: Settings) -> dict[str, object]:
    """uvicorn's options for these settings.

    uvloop and httptools by name, not "auto": uvloop sets TCP_NODELAY on every TCP connection it
    makes (``TCPTransport._set_nodelay``), httptools is the faster parser, and the plain asyncio
    loop with h11 has been seen to add ~40 ms (Nagle's algorithm meeting delayed ACKs) to every
    keep-alive request with several workers. ``tests/service/test_api.py`` checks the latency.
    """
    loop = "uvloop" if _have("uvloop") else "asyncio"
    http = "httptools" if _have("httptools") else "h11"
    if (loop, http) != ("uvloop", "httptools"):
        log.warning("uvloop/httptools missing: serving with %s + %s, expect higher latency", loop, http)
    options: dict[str, object] = {
        "host": settings.host,
        "port": settings.port,
        "workers": settings.workers,
        "loop": loop,
        "http": http,
        "access_log": settings.access_log,
        "log_level": settings.log_level,
        "server_header": False,
        # No permessage-deflate on the live sockets: a match update is a few KiB, and compressing
        # each one cost about a tenth of a move's CPU under load and tens of KiB of zlib state per
        # idle socket (benchmarks/matches.py). Node's ws turns it off on servers by default for
        # the same reasons.
        "ws_per_message_deflate": False,
        # uvicorn's own websockets (sans-I/O) protocol, with a writer of frames the app encoded itself,
        # written once a turn of the loop (``service.live_frames``; the live sockets use it).
        "ws": "service.live_frames:FramedWebSocketsProtocol",
        # A client's frame is at most this big (a move needs under 1 KiB): a bigger one is refused
        # with close code 1009 from its header, before its payload is read (matches/README.md).
        "ws_max_size": settings.live.max_frame_bytes,
        "proxy_headers": False,
        "timeout_graceful_shutdown": 5,
    }
    options.update(_connection_limits(settings, http))
    return options


def _connection_limits(settings: Settings, http: str) -> dict[str, object]:
    """The bounds on a connection (docs/deploy.md, "Limits"): an idle keep-alive connection is closed after
    ``keep_alive_s``; with httptools, ``service.connections`` also bounds the request head's size and
    the time to send a request (uvicorn bounds neither there); h11 has its own bound on the head."""
    limits: dict[str, object] = {"timeout_keep_alive": settings.limits.keep_alive_s}
    if http == "httptools":
        limits["http"] = "service.connections:BoundedHttpToolsProtocol"
    else:
        limits["h11_max_incomplete_event_size"] = settings.limits.max_header_bytes
    return limits


def bound_connections(limits: Limits) -> None:
    """Bound this process's connections as ``limits`` say, when it serves with httptools (a uvicorn worker
    imports the protocol class by name, so its bounds are the class's, set here as the worker's app is made)."""
    if _have("httptools"):
        from service.connections import BoundedHttpToolsProtocol

        BoundedHttpToolsProtocol.bound(limits.max_header_bytes, limits.request_timeout_s)


def run(app_import: str, settings: Settings, factory: bool = True) -> None:
    """Serve ``app_import`` (e.g. ``service.app:create_app``) until stopped.

    The settings go into the environment first: each worker is a fresh process and reads them
    back with ``Settings.from_env()``.
    """
    settings.export()
    uvicorn.run(app_import, factory=factory, **server_options(settings))  # type: ignore[arg-type]
