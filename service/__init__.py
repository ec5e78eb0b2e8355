"""Tablejudge's HTTP challenge API and phone page (FastAPI on uvicorn).

``create_app()`` in ``service.app`` builds the app from ``service.settings.Settings``; each resource
has its router in ``service.routers``; errors become answers in ``service.errors``; the engines'
HTTP client is ``indexes.remote``. Run it with ``tablejudge serve``.
"""
