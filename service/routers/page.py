"""The phone page: static files, no build step, nothing from another host."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def page() -> FileResponse:
    # no-cache: a phone revalidates (cheaply, by ETag) so a new release shows at once.
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})
