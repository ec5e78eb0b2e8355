"""Your turn, even with the phone down (issue 26): when the other phone makes it this seat's turn, the page
asks for a vibration and, while its tab is hidden, shows a system notification; the settings panel turns
vibration off and sound on (a chime, then, on each turn), and a PDQ round dealt to a seat that was already
acting counts as a new turn.

The device's side is recorded, not performed: ``navigator.vibrate``, ``Notification``, the service
worker's ``showNotification`` and the tones made by ``AudioContext`` are replaced or counted before the
page loads, and the tab's visibility is set by the test (headless Chromium's tabs are always visible)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web import busy
from tests.web.conftest import Phone
from tests.web.test_push_page import seat_script

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: Records what the page asks of the device; ``window.__hidden`` is the tab's visibility.
DEVICE = """
window.__alerts = { vibrate: [], notified: [], tones: 0 };
window.__hidden = false;
const getter = (get) => ({ configurable: true, get });
Object.defineProperty(Document.prototype, "visibilityState", getter(() => (window.__hidden ? "hidden" : "visible")));
Object.defineProperty(Document.prototype, "hidden", getter(() => window.__hidden));
// Whether the person has touched the page (Playwright's evaluate counts as a gesture in Chromium, so the
// browser's own flag is always set in a test): a tap sets it, as on a phone.
window.__touched = false;
addEventListener("pointerdown", () => { window.__touched = true; }, true);
Object.defineProperty(Navigator.prototype, "userActivation", getter(() => ({ hasBeenActive: window.__touched })));
const vibrate = (pattern) => window.__alerts.vibrate.push(pattern) > 0;
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, value: vibrate });
const record = (title, options, by) =>
  window.__alerts.notified.push({ title, body: options.body, tag: options.tag, by });
window.Notification = class {
  constructor(title, options) { record(title, options, "page"); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
  close() {}
};
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__alerts.tones += 1; return super.createOscillator(); }
};
if (window.ServiceWorkerRegistration) {
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    record(title, options, "worker");
    return Promise.resolve();
  };
}
"""

HIDE = "(hidden) => { window.__hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); }"
PASS = "() => window.tablejudgeMatch.move('pass').then(() => true)"


def recorded(page: Any) -> dict[str, list[Any]]:
    alerts: dict[str, list[Any]] = page.evaluate("() => window.__alerts")
    return alerts


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("(v) => window.tablejudgeMatch && window.tablejudgeMatch.body.version >= v", arg=version)


def first_turn_to_bob(http: httpx.Client, match: str, ann: str) -> int:
    """If Ann (seat 0) moves first she passes, so that Bob's move is what makes it her turn; the version."""
    headers = {"Authorization": f"Bearer {ann}"}
    body = http.get(f"/v1/matches/{match}", headers=headers).json()
    version: int = body["version"]
    if body["must_act"] == [0]:
        moved = http.post(f"/v1/matches/{match}/moves", json={"move": "pass", "version": version}, headers=headers)
        assert moved.status_code == 200, moved.text
        version += 1
    return version


@pytest.mark.slow
def test_a_hidden_tab_is_notified_and_buzzed_when_the_other_phone_makes_it_its_turn(
    phones: Any, live_server: str
) -> None:
    with busy.client(live_server) as http:
        made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
        match = made["match"]
        joined = http.post(f"/v1/matches/{match}/join", json={"invite": made["invite"], "name": "Bob"}).json()
        version = first_turn_to_bob(http, match, made["token"])
    ann: Phone = phones("Ann")
    bob: Phone = phones("Bob")
    ann.context.add_init_script(DEVICE)
    ann.context.add_init_script(seat_script(match, made["token"], 0))
    bob.context.add_init_script(seat_script(match, joined["token"], 1))
    annp = ann.open(f"/play/{match}")
    bobp = bob.open(f"/play/{match}")
    for page in (annp, bobp):
        wait_version(page, version)
    assert recorded(annp) == {"vibrate": [], "notified": [], "tones": 0}  # opening a match is no alert

    # Ann puts her phone down (the tab is hidden); Bob passes on his phone: it is her turn.
    annp.evaluate(HIDE, True)
    bobp.evaluate(PASS)
    annp.wait_for_function("() => window.__alerts.notified.length > 0")
    alerts = recorded(annp)
    # Nobody has touched her page yet: the browser would block a vibration (and log it), so none is asked.
    assert alerts["vibrate"] == []
    [note] = alerts["notified"]
    assert note["title"] == "Tablejudge: BOP!" and note["body"] == "It is your turn."
    assert note["tag"] == f"match-{match}"  # the server's push for the match replaces it, not beside it
    assert annp.title().startswith("Your turn")

    def round_trip(hidden: bool, until: str, at: int) -> None:
        """Ann (her tab hidden or not) passes, then Bob: her turn again, once ``until`` holds on her page."""
        annp.evaluate(HIDE, hidden)
        annp.evaluate(PASS)
        wait_version(bobp, at)
        bobp.evaluate(PASS)
        annp.wait_for_function(until)

    # She taps her page, and looks at it: a buzz, no notification.
    annp.locator("h1").first.click()
    round_trip(False, "() => window.__alerts.vibrate.length === 1", version + 2)
    assert recorded(annp)["vibrate"] == [[180, 90, 180]]
    assert len(recorded(annp)["notified"]) == 1

    assert recorded(annp)["tones"] == 0  # sound is off until the player turns it on

    # Vibration turned off and sound on in the settings (kept on the phone): the next turn asks for no
    # vibration and plays the chime (two tones; turning sound on played it once as a sample).
    annp.locator("#seat-menu-button").click()  # the seat's menu, in the header (menu.js)
    annp.get_by_text("Alert settings").click()
    annp.get_by_label("Vibrate").uncheck()
    annp.get_by_label("Play a sound").check()
    kept = annp.evaluate("() => JSON.parse(localStorage.getItem('tablejudge.alerts'))")
    assert kept == {"vibrate": False, "sound": True, "notify": True}
    assert recorded(annp)["tones"] == 2
    round_trip(True, "() => window.__alerts.notified.length === 2", version + 4)
    assert len(recorded(annp)["vibrate"]) == 1
    assert recorded(annp)["tones"] == 4


def test_a_pdq_deal_is_a_new_turn_and_a_watcher_gets_no_alert(phones: Any) -> None:
    page = phones("Ann").open("/play")
    page.locator("#create").wait_for()
    changes = page.evaluate(
        """async () => {
          const { turnChange } = await import("/static/play/alerts.js");
          const body = (version, acting, round, status = "playing") =>
            ({ match: "m1", version, status, must_act: acting, view: round ? { round: { number: round } } : {} });
          const acting = body(4, [0, 1], 2);
          return {
            first_sight: turnChange(acting, acting, 0),
            became_mine: turnChange(body(3, [1], 0), body(4, [0], 0), 0),
            still_mine: turnChange(body(4, [0, 1], 2), body(5, [0, 1], 2), 0),
            dealt: turnChange(body(5, [0, 1], 2), body(6, [0, 1], 3), 0),
            others: turnChange(body(3, [0], 0), body(4, [1], 0), 0),
            watcher: turnChange(body(3, [1], 0), body(4, [0], 0), null),
            over: turnChange(body(3, [1], 0), body(4, [0], 0, "over"), 0),
          };
        }"""
    )
    assert changes == {
        "first_sight": None,
        "became_mine": "turn",
        "still_mine": None,
        "dealt": "deal",
        "others": None,
        "watcher": None,
        "over": None,
    }
