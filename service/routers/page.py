"""The phone page: static files, no build step, nothing from another host.

Besides the page itself: its service worker and manifest at the site's root (a service worker's scope
is its own folder, and the page's is the root), and the offline judge's data (``indexes.offline``):
``/offline/index.json``, what a phone may keep, always revalidated; and the files it names, whose names
carry the lexicon's version, so they are cached for a year and never revalidated.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from indexes.offline import offline_catalogue, offline_files
from matches.http import ORJSONResponse, error_response

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
#: A file named by its content's version never changes: a year, and no revalidation.
IMMUTABLE = "public, max-age=31536000, immutable"
#: A phone revalidates (cheaply, by ETag or Last-Modified) so that a new release shows at once.
REVALIDATE = "no-cache"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": REVALIDATE})


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    return FileResponse(STATIC_DIR / "sw.js", media_type="text/javascript", headers={"Cache-Control": REVALIDATE})


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    return FileResponse(
        STATIC_DIR / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": REVALIDATE},
    )


def _served(request: Request) -> tuple[list[str], str]:
    state = request.app.state
    return list(state.lexicons), state.settings.default_lexicon


@router.get("/offline/index.json")
async def offline_index(request: Request) -> Response:
    names, default = _served(request)
    catalogue = getattr(request.app.state, "offline_catalogue", None)
    if catalogue is None:  # made once per worker: the lexicons served never change while it runs
        catalogue = request.app.state.offline_catalogue = offline_catalogue(names, default, server=True)
    return ORJSONResponse(catalogue, headers={"Cache-Control": REVALIDATE})


@router.get("/offline/{name}")
async def offline_file(request: Request, name: str) -> Response:
    files = getattr(request.app.state, "offline_files", None)
    if files is None:
        files = request.app.state.offline_files = offline_files(_served(request)[0])
    path = files.get(name)
    if path is None:
        return error_response(404, "not_found", f"no offline file {name[:60]!r}: offline/index.json names them")
    # Sent as the gzip'd bytes they are (no Content-Encoding): the page's worker unpacks them, as it must
    # from any static host, and what travels is the compressed size.
    return FileResponse(path, media_type="application/gzip", headers={"Cache-Control": IMMUTABLE})
