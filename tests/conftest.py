"""Shared fixtures. Tests run on the real bundled lexicons (no mocks)."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

from indexes import Lexicon, open_lexicon

# The tests keep their matches in a folder of their own, never in the user's data folder (an app made
# in-process, or a server the tests start, would otherwise open ~/.local/share/tablejudge).
os.environ["TABLEJUDGE_DATA"] = tempfile.mkdtemp(prefix="tablejudge-tests-")
os.environ.pop("TABLEJUDGE_DATABASE", None)
# Every server the tests (and benchmarks/matches.py) start is asked by one address, loopback, hundreds
# of matches over: the per-address rate limits, match caps and live-socket cap are set out of their
# reach (the limiter still runs); tests/service/test_limits.py, tests/matches/test_quotas.py and
# tests/matches/test_socket_limits.py set their own.
for _name in ("CREATE", "JOIN", "MOVES", "JUDGE", "LISTS", "TALK"):
    os.environ.setdefault(f"TABLEJUDGE_RATE_{_name}", "1000000/1")
os.environ.setdefault("TABLEJUDGE_MAX_WAITING_PER_CLIENT", "1000000")
os.environ.setdefault("TABLEJUDGE_MAX_WAITING", "10000000")
os.environ.setdefault("TABLEJUDGE_MAX_BOT_ONLY_PER_CLIENT", "1000000")
os.environ.setdefault("TABLEJUDGE_MAX_BOT_ONLY", "10000000")
os.environ.setdefault("TABLEJUDGE_MAX_TABLES_PER_CLIENT", "1000000")
os.environ.setdefault("TABLEJUDGE_LIVE_MAX_SOCKETS_PER_ADDRESS", "1000000")

# Deterministic property tests in CI (a failure reproduces); a few hundred examples each.
settings.register_profile(
    "tablejudge",
    derandomize=True,
    deadline=None,
    max_examples=int(os.environ.get("TABLEJUDGE_EXAMPLES", "200")),
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("tablejudge")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` chooses the tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives Chromium is ``slow`` too (a browser, the served pages and a game each): the
    quick lane, ``-m "not slow"``, leaves the pages to the whole run."""
    for item in items:
        if item.get_closest_marker("browser") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The default ``standard`` lexicon (built on first use)."""
    return open_lexicon("standard")


# --- a real Tablejudge server on loopback (service tests, the engines' HTTP adjudicator) -------

#: The origin the live server lets call it from a browser (the CORS tests use it).
LIVE_SERVER_CORS_ORIGIN = "http://game.test"


def free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory):  # -> Iterator[str]
    """``tablejudge serve --workers 2`` on a free loopback port, as users run it; yields its base URL.

    Two workers, because that is how the service is deployed and where a latency bug (Nagle's
    algorithm) showed up elsewhere. Its output goes to a log file shown if it fails to start.
    """
    import subprocess
    import sys
    import time

    import httpx

    port = free_port()
    log_path = tmp_path_factory.mktemp("live_server") / "serve.log"
    env = {
        **os.environ,
        "TABLEJUDGE_CORS_ORIGINS": LIVE_SERVER_CORS_ORIGIN,
        "TABLEJUDGE_LOG_LEVEL": "warning",
        "TABLEJUDGE_DATA": str(tmp_path_factory.mktemp("live_server_data")),
        "TABLEJUDGE_BOT_DELAY_MS": "50",
        # Every browser test's table matches come from this one loopback address within a day.
        "TABLEJUDGE_TABLE_PER_CLIENT": "100000",
        "TABLEJUDGE_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    command = [sys.executable, "-m", "tablejudge.cli", "serve", "--port", str(port), "--workers", "2"]
    command += ["--lexicon", "standard"]
    base_url = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120  # the first run may build the index
        while True:
            if server.poll() is not None:
                pytest.fail(f"tablejudge serve exited with {server.returncode}:\n{log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"tablejudge serve did not answer /healthz in time:\n{log_path.read_text()[-2000:]}")
            time.sleep(0.1)
        yield base_url
    finally:
        from tests.serving import stop

        stop(server)
