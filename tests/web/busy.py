"""The tests' HTTP client of the server the pages use: it asks again after a 503, as a page does.

A 503 (``busy``: the engine's workers are all taken, with ``Retry-After``) is the server's clear answer on
a loaded machine, never a refusal of the input: the pages ask again after it (``net.js``), and so does a
test that stands in for a person. Without this, a test on a loaded CI machine mistook a busy preview for
"no such play" and failed. The tests of the 503 itself (``tests/matches/test_hostile.py``,
``test_faults.py``) use clients of their own and see every answer.
"""

from __future__ import annotations

import time

import httpx

#: How often a request answered 503 is made again, and the longest pause before each.
TRIES = 6
LONGEST_PAUSE_S = 4.0


class AsksAgainWhenBusy(httpx.HTTPTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        for tried in range(1, TRIES + 1):
            response = super().handle_request(request)
            if response.status_code != 503 or tried == TRIES:
                return response
            response.read()
            response.close()
            pause = min(LONGEST_PAUSE_S, float(response.headers.get("Retry-After") or 1))
            time.sleep(pause)  # the server's own Retry-After: what it asked, not a guess at a state
        raise AssertionError("unreachable")


def client(base: str) -> httpx.Client:
    """A client of the server at ``base`` that asks again after a 503 (``AsksAgainWhenBusy``)."""
    return httpx.Client(base_url=base, timeout=30, transport=AsksAgainWhenBusy())
