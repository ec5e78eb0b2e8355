"""The game pages in Debian's headless Chromium at phone size, against the real ``live_server``:
each player a browser context of its own (its own localStorage, its own socket). The fixtures:
``browser`` (one Chromium per module), ``phones`` (``phones("Ann")``: a ``Phone``) and ``tables``
(``tables(match)``: a ``pages.Table``). What the tests share besides is in ``pages.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.service.test_page import PHONE, browser  # noqa: F401  (the module's Chromium, a fixture)
from tests.web.pages import Table, clients_closed


class Phone:
    """One person's phone: a browser context at 360 x 740 with touch, and what it logged."""

    def __init__(self, chromium: Any, base: str, who: str) -> None:
        self.base, self.who = base, who
        # bypass_csp: the tests' string predicates (wait_for_function) are evaluated in the page, which the
        # server's Content-Security-Policy forbids; tests/service/test_csp.py plays the pages under it.
        self.context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.other_hosts: list[str] = []
        self.errors: list[str] = []
        own = (base, base.replace("http://", "ws://"))
        self.page.on("request", lambda r: None if r.url.startswith(own) else self.other_hosts.append(r.url))
        self.page.on("pageerror", lambda error: self.errors.append(f"{error} {getattr(error, 'stack', '')}"))

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def phones(browser: Any, live_server: str) -> Iterator[Callable[[str], Phone]]:  # noqa: F811 (the fixture)
    made: list[Phone] = []

    def phone(who: str) -> Phone:
        made.append(Phone(browser, live_server, who))
        return made[-1]

    yield phone
    for each in made:
        assert each.other_hosts == [], f"{each.who}'s page loaded from another host: {each.other_hosts}"
        assert each.errors == [], f"{each.who}'s page failed: {each.errors}"
        each.close()


@pytest.fixture
def tables(live_server: str) -> Iterator[Callable[[str], Table]]:
    """``tables(match)``: the server's side of that match (``pages.Table``), its client closed after the test."""
    with clients_closed(lambda match: Table(live_server, match)) as table:
        yield table
