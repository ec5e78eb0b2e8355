"""The load test's baseline: a bare FastAPI endpoint returning a constant JSON body.

``benchmarks/load.py`` serves it with ``service.server.run``, so it runs on exactly the server
settings of ``tablejudge serve`` (uvloop, httptools, no access log, the same worker count).
"""

from __future__ import annotations

from fastapi import FastAPI

CONSTANT = {"letters": "FRS", "valid": True, "count": 3, "words": ["fears", "fires", "furious"]}


def create_app() -> FastAPI:
    app = FastAPI()

    @app.get("/constant")
    async def constant() -> dict[str, object]:
        return CONSTANT

    return app


if __name__ == "__main__":
    import sys

    from service.server import run
    from service.settings import Settings

    port, workers = int(sys.argv[1]), int(sys.argv[2])
    run("load_baseline:create_app", Settings(port=port, workers=workers, lexicons=("standard",)))
