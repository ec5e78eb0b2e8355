"""What the match server (``matches/``) and the judge service (``service/``) both answer with: JSON
bodies encoded by orjson, the one error body ``{"error": {"code", "message", ...}}``, and the client as
the limits and quotas count it.

Kept in the lower of the two layers (``matches`` below ``service``; ``tests/test_layout.py`` pins the
order), so the match server's routes need nothing of the judge, and the judge imports these names from
here, not through a module of its own.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import orjson
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict


class ORJSONResponse(JSONResponse):
    """JSON encoded by orjson: several times faster than the standard library on long word lists."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


class ErrorDetail(BaseModel):
    """``code`` and ``message`` always; an illegal move adds ``rule`` and ``details``, a stale one ``match``."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class ErrorBody(BaseModel):
    """The body of every 4xx and 5xx answer (documented in the OpenAPI schema)."""

    error: ErrorDetail


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, extra: dict[str, Any] | None = None
) -> Response:
    body = {"code": code, "message": message, **(extra or {})}
    return ORJSONResponse({"error": body}, status_code=status, headers=headers)


def client_key(address: str) -> str:
    """The client as the limits and quotas count it: an IPv4 address as it is, an IPv6 address by its
    /64 (one home, phone or server is given a whole /64, so counting each address would let one client
    take as many quotas as it has addresses), an IPv4-mapped IPv6 address as its IPv4 address.

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:203.0.113.7")
    ('203.0.113.7', '2001:db8:1:2::/64', '203.0.113.7')
    >>> client_key("testclient")
    'testclient'
    """
    if ":" not in address:
        return address
    try:
        parsed = ipaddress.IPv6Address(address.split("%", 1)[0])
    except ValueError:
        return address
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(parsed) >> 64 << 64, 64)))
