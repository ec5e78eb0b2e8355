"""Refuse overlong input before any work is done: a long request target (414) or body (413).

A plain ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which costs a task per request).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import error_response


class InputLimits:
    def __init__(self, app: ASGIApp, max_target_bytes: int, max_body_bytes: int) -> None:
        self.app = app
        self.max_target_bytes = max_target_bytes
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string", b""))
        if target > self.max_target_bytes:
            response = error_response(
                414,
                "target_too_long",
                f"the request path and query are {target} bytes long; at most {self.max_target_bytes}",
            )
            await response(scope, receive, send)
            return
        declared = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body_bytes):
            response = error_response(
                413,
                "body_too_large",
                f"the request body is {declared.decode(errors='replace')[:20]} bytes "
                f"long; at most {self.max_body_bytes}",
            )
            await response(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        """A body sent without Content-Length (chunked) is counted as it arrives."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body_bytes:
                # FastAPI re-raises HTTPException from body reading; service.errors answers it.
                raise HTTPException(413, f"the request body is longer than {self.max_body_bytes} bytes")
            return message

        return counted
