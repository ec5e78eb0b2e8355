"""The last-resort handler: a bug answers a JSON 500 with no stack trace, and is logged for us.

The fuzz (``test_fuzz.py``) shows no input reaches this handler; here a route that fails on purpose,
added to a real app, shows what the handler does if a bug ever does.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from service.app import create_app
from service.settings import Settings


def test_a_bug_answers_a_json_500_without_a_stack_trace(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Settings(lexicons=("standard",)))

    async def broken() -> None:
        raise RuntimeError("a bug in the judge")

    app.add_api_route("/broken", broken)

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://judge.test") as client:
            return await client.get("/broken")

    with caplog.at_level(logging.ERROR, logger="tablejudge.service"):
        response = asyncio.run(ask())
    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "internal_error", "message": "the judge failed on this question; the error has been logged"}
    }
    assert "Traceback" not in response.text and "a bug in the judge" not in response.text
    assert any(record.exc_info and "a bug in the judge" in str(record.exc_info[1]) for record in caplog.records)
