"""Turn alerts in the game page (issue 27, item 4), in Debian's headless Chromium against a real server.

Headless Chromium cannot make a real push subscription (it has no push service to register with), so the
page's ``PushManager.subscribe`` is replaced, before the page loads, by one that answers a subscription
whose endpoint is this test's loopback push service and whose keys the test made. Everything else is
real: the control in the page, its call to the server with the subscription's JSON, the server's
encrypted push after a move, the test's decryption of it, and the service worker's ``push`` handler,
to which the decrypted message is delivered through DevTools (``ServiceWorker.deliverPushMessage``)
and which shows the notification. Not covered: a tap on the notification (``notificationclick``),
which DevTools cannot dispatch.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.matches.pushing import (
    Browser,
    PushService,
    push_service,  # noqa: F401  (the loopback push service, a fixture)
    wait_for,
)
from tests.matches.servers import Server
from tests.service.test_page import PHONE
from tests.web import busy
from tests.web.conftest import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: Replaces the browser's push subscription by one the test holds the keys of (see the module's text).
FAKE_PUSH = """
(([endpoint, p256dh, auth]) => {
  let made = null;
  PushManager.prototype.subscribe = async function (options) {
    window.tablejudgePushAsked = {
      userVisibleOnly: options.userVisibleOnly,
      key: Array.from(new Uint8Array(options.applicationServerKey)),
    };
    made = {
      endpoint,
      options: { applicationServerKey: options.applicationServerKey },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => true,
    };
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return made; };
})(%s);
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("push_page"), env={"TABLEJUDGE_PUSH_HTTP_LOOPBACK": "1"}).start()
    yield server
    server.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_script(match_id: str, token: str, seat: int) -> str:
    """Puts the seat in this browser's localStorage, as the page keeps it once joined (``net.js`` seats)."""
    facts = {match_id: {"token": token, "seat": seat, "game": "bop", "saved": 1}}
    kept = json.dumps(json.dumps(facts))
    return f"if (!localStorage.getItem('tablejudge.seats')) localStorage.setItem('tablejudge.seats', {kept});"


@pytest.mark.slow
def test_the_page_subscribes_a_seat_and_the_service_worker_shows_the_servers_alert(
    browser: Any,  # noqa: F811
    server: Server,
    push_service: PushService,  # noqa: F811
) -> None:
    http = busy.client(server.url)
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    match_id = made["match"]
    joined = http.post(f"/v1/matches/{match_id}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    bob = Browser(f"{push_service.url}/page/{match_id}")
    subscription = bob.subscription()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        context.grant_permissions(["notifications"], origin=server.url)
        context.add_init_script(seat_script(match_id, tokens[1], 1))
        context.add_init_script(FAKE_PUSH % json.dumps([bob.endpoint, *subscription["keys"].values()]))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/play/{match_id}")
        page.locator("#seat-menu-button").click()  # the seat's menu, in the header (menu.js)
        toggle = page.locator("#push-toggle")
        toggle.wait_for(state="visible", timeout=15_000)
        toggle.check()
        page.locator("#push .push-note", has_text="You will be told").wait_for(timeout=15_000)
        asked = page.evaluate("() => window.tablejudgePushAsked")
        key = http.get("/v1/push/key").json()["key"]
        assert asked["userVisibleOnly"] is True
        assert bytes(asked["key"]) == base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))

        # The server has it for seat 2: a move that makes it seat 2's turn is pushed there, encrypted.
        body = http.get(f"/v1/matches/{match_id}", headers=auth(tokens[0])).json()
        version = body["version"]
        if body["must_act"] == [1]:  # Bob is first: he passes, so that Ann's move makes it his turn
            assert http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version},
                             headers=auth(tokens[1])).status_code == 200  # fmt: skip
            version += 1
        moved = http.post(
            f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": version}, headers=auth(tokens[0])
        )
        assert moved.status_code == 200, moved.text
        [message] = wait_for(lambda: push_service.at(f"/page/{match_id}"), "the server's push to the page's endpoint")
        alert = bob.decrypt(message.body)
        assert alert["match"] == match_id and alert["kind"] == "turn" and alert["seat"] == 1
        assert alert["title"] == "Tablejudge: BOP!"

        # The service worker shows it (the match's page is not open any more: the lobby is).
        page.goto(f"{server.url}/play")
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        scope = f"{server.url}/"
        deadline = time.monotonic() + 10
        while not any(r["scopeURL"] == scope for r in registrations):  # events come in while Playwright waits
            assert time.monotonic() < deadline, f"no service worker registration for {scope}: {registrations}"
            page.wait_for_timeout(50)
        registration = next(r for r in registrations if r["scopeURL"] == scope)
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server.url, "registrationId": registration["registrationId"], "data": json.dumps(alert)},
        )
        shown = """() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) =>
            all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))"""
        deadline = time.monotonic() + 10
        notes: list[dict[str, Any]] = []
        while not notes and time.monotonic() < deadline:
            notes = page.evaluate(shown)
            if not notes:
                page.wait_for_timeout(50)
        assert notes == [
            {"title": alert["title"], "body": alert["body"], "tag": f"match-{match_id}",
             "url": f"{server.url}/play/{match_id}"},
        ]  # fmt: skip
        assert errors == []
    finally:
        context.close()
        http.close()


def test_without_a_secure_context_the_page_says_why_there_are_no_alerts(browser: Any, server: Server) -> None:  # noqa: F811
    http = busy.client(server.url)
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    context = browser.new_context(viewport=PHONE)
    try:
        # As a phone that opened http://192.168.1.5:8000 on the table's Wi-Fi sees it.
        context.add_init_script("Object.defineProperty(window, 'isSecureContext', { value: false });")
        context.add_init_script(seat_script(made["match"], made["token"], 0))
        page = context.new_page()
        page.goto(f"{server.url}/play/{made['match']}")
        page.locator("#seat-menu-button").click()  # the seat's menu, in the header (menu.js)
        page.locator("#push", has_text="need HTTPS").wait_for(timeout=15_000)
        assert page.locator("#push-toggle").count() == 0
    finally:
        context.close()
        http.close()
