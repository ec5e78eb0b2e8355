"""The game pages: ``/play`` (pick a game, create, join, watch), ``/play/{id}`` (a match's lobby,
board, end screen) and ``/play/tables/{id}`` (a table's home, and ``/league``). One static page; its
modules read the address. No build step, nothing from another host."""

from __future__ import annotations

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from service.routers.page import STATIC_DIR

PLAY_PAGE = STATIC_DIR / "play" / "index.html"

router = APIRouter(include_in_schema=False)


@router.get("/play")
async def home() -> FileResponse:
    return FileResponse(PLAY_PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/play/{match_id}")
async def match(match_id: str = Path(pattern=r"^[A-Za-z0-9_-]{1,40}$")) -> FileResponse:  # noqa: ARG001
    # The page reads the id (and ?invite= or ?watch=1) from its own address.
    return FileResponse(PLAY_PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/play/tables/{table_id}")
async def table(table_id: str = Path(pattern=r"^[A-Za-z0-9_-]{1,40}$")) -> FileResponse:  # noqa: ARG001
    # A table's home: the page reads the id (and a "#player=" code, which no server sees) from its address.
    return FileResponse(PLAY_PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/play/tables/{table_id}/league")
async def league(table_id: str = Path(pattern=r"^[A-Za-z0-9_-]{1,40}$")) -> FileResponse:  # noqa: ARG001
    return FileResponse(PLAY_PAGE, headers={"Cache-Control": "no-cache"})
