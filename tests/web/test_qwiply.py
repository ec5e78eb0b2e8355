"""A round of Qwiply between three people, each on a phone of their own (a browser context at 360 x
740, by tapping), against ``tablejudge serve --workers 2``.

Ann creates the game from the home page (three players, bids hidden); Bob and Cy open the invite.
Each sets up by tapping: crossings and bids, sealed until all three are in. The dice appear on every
phone alike; the start player declares the lead; each claims a die: a tapped die shows on the sheet
where it must go, or, when the rule leaves a choice, where it may go, and the claim is confirmed (one
of them by keyboard alone). Afterwards every phone shows the same round, the same sheets, and no
one's bids but their own.

Screenshots (the home page, the set-up, the lead, a claim with a choice, the round's end for each
player) are saved under the test's temporary folder; their paths are printed: look at them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import CHANCE, load_game
from tests.web.pages import SMALL_TARGETS, create_as_ann, new_game_radio, shot
from tests.web.test_fit import reached_all

pytestmark = [pytest.mark.browser, pytest.mark.server]

SUITS = ("sun", "palm", "drink", "glasses", "water")
TITLES = {"sun": "Sun", "palm": "Palm Tree", "drink": "Drink", "glasses": "Sunglasses", "water": "Water",
          "starfish": "Starfish"}  # fmt: skip
#: Each player crosses out a different number in each main row, so that whatever the dice show, some
#: lead leaves a claimer a die that is marked in the lead row: a choice of rows.
CROSSINGS = {"Ann": (1, 2, 3, 4, 5), "Bob": (2, 3, 4, 5, 6), "Cy": (3, 4, 5, 6, 1)}
#: Bids, as each player taps them from the default of 3 each (the sheet's advice: 15 in all).
BIDS = {"Ann": (3, 3, 3, 3, 3), "Bob": (0, 1, 5, 2, 8), "Cy": (4, 4, 2, 2, 1)}

SHEET_MARKS = """(root) => [...root.querySelectorAll('.q-row')].map((row) =>
  [...row.querySelectorAll('.q-cell')].map((cell) => [...cell.classList].find((c) => c.startsWith('m-'))))"""


def set_up(page: Any, who: str) -> None:
    """Tap a crossing in every main row and the bids up or down from 3."""
    for suit, number, bid in zip(SUITS, CROSSINGS[who], BIDS[who], strict=True):
        page.get_by_label(f"Cross out {number} in {TITLES[suit]}", exact=True).check()
        button = "more" if bid > 3 else "fewer"
        for _ in range(abs(bid - 3)):
            page.get_by_role("button", name=f"Bid one {button} {TITLES[suit]} win", exact=True).click()
        assert page.locator(f"#q-bid-{suit}").inner_text() == str(bid)


def tab_to(page: Any, focused: str) -> None:
    """Press Tab until ``focused`` (a script) is true of the focused element."""
    for _ in range(60):
        if page.evaluate(focused):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached: {focused}")


def plan_the_round(view: dict[str, Any], seats: dict[int, str]) -> tuple[str, list[int], int]:
    """A lead, the die each claimer takes (in claim order), and which claimer gets a choice of rows:
    a claimer whose crossing in the lead row shows on a die, the claimers before them leaving it."""
    players = len(seats)
    order = [(view["start"] + step) % players for step in range(1, players + 1)]
    dice = list(view["purple"])
    for at, seat in enumerate(order):
        for suit, crossed in zip(SUITS, CROSSINGS[seats[seat]], strict=True):
            if crossed in dice:
                rest = list(dice)
                rest.remove(crossed)
                taken = [rest.pop() for _ in range(at)] + [crossed] + [rest.pop() for _ in range(players - at - 1)]
                return suit, taken, at
    raise AssertionError(f"no lead gives a choice with dice {dice}")


@pytest.mark.slow
def test_a_qwiply_round_between_three_phones(phones: Any, tables: Any, live_server: str, tmp_path: Path) -> None:
    ann, bob, cy = phones("Ann"), phones("Bob"), phones("Cy")

    # Ann offers Qwiply from the home page: its options in words, three players, bids hidden.
    home = ann.open("/play")
    new_game_radio(home, "Qwiply").check()
    home.get_by_label("Players").select_option("3")
    home.get_by_label("Bids").select_option("hidden")
    bots = home.locator("#seat-1 option").all_inner_texts()
    assert {"Easy bot", "Normal bot", "Hard bot", "Bot (random)"} <= {text.split(":")[0] for text in bots}
    create_as_ann(home, tmp_path, "q1-home")
    link = home.locator("#invite-link").input_value()
    match = link.split("/play/")[1].split("?")[0]
    pages = {"Ann": home}
    for who, phone in (("Bob", bob), ("Cy", cy)):
        page = phone.open(link.removeprefix(live_server))
        page.get_by_label("Your name").fill(who)
        page.get_by_role("button", name="Take a seat").click()
        pages[who] = page
    for page in pages.values():
        page.wait_for_selector("#q-setup")
        assert page.locator("#status").inner_text() == "Your turn: set up"
    table = tables(match)
    seats = {table.seat_of(phone): who for who, phone in (("Ann", ann), ("Bob", bob), ("Cy", cy))}
    seat_of = {who: seat for seat, who in seats.items()}

    # The set-ups: by tapping; the hint counts the bids without enforcing the sheet's "about 15".
    set_up(pages["Ann"], "Ann")
    assert pages["Ann"].locator("#q-bid-total").inner_text().startswith("Your bids total 15.")
    shot(pages["Ann"], tmp_path, "q2-setup")
    assert pages["Ann"].evaluate(SMALL_TARGETS) == []
    pages["Ann"].get_by_role("button", name="Hand in my set-up").click()
    pages["Ann"].wait_for_selector(".q-mine .q-sheet")  # her own sheet, sealed
    assert "sealed" in pages["Ann"].locator(".q-mine caption").inner_text()
    assert pages["Ann"].locator("#status").inner_text() == "Waiting for Bob and Cy to set up"
    pages["Bob"].wait_for_function("document.querySelector('.players').textContent.includes('set up')")
    set_up(pages["Bob"], "Bob")
    assert "any bids are allowed" in pages["Bob"].locator("#q-bid-total").inner_text()
    pages["Bob"].get_by_role("button", name="Hand in my set-up").click()
    set_up(pages["Cy"], "Cy")
    assert pages["Cy"].locator("#q-bid-total").inner_text().startswith("Your bids total 13.")
    assert "any bids are allowed" in pages["Cy"].locator("#q-bid-total").inner_text()
    pages["Cy"].get_by_role("button", name="Hand in my set-up").click()

    # Every sheet is on the table: the same dice on every phone; bids only one's own.
    for page in pages.values():
        page.wait_for_selector(".q-purple [data-number]")
    view = table.body()["view"]
    purple = [str(n) for n in view["purple"]]
    for who, page in pages.items():
        assert page.locator(".q-white").get_attribute("aria-label") == f"White die: {view['white']}"
        shown = page.locator(".q-purple [data-number]").evaluate_all("(dice) => dice.map((d) => d.dataset.number)")
        assert shown == purple
        own = page.locator(".q-mine .q-bid").all_inner_texts()
        assert own[:5] == [str(bid) for bid in BIDS[who]]
        assert page.locator(".q-other summary").all_inner_texts() and all(
            "bids hidden" in text for text in page.locator(".q-other summary").all_inner_texts()
        )
        scores = page.locator(".player .p-score").all_inner_texts()
        assert [text == "?" for text in scores] == [seat != seat_of[who] for seat in range(3)]
    starter = seats[view["start"]]
    lead, taken, chooser_at = plan_the_round(view, seats)
    order = [(view["start"] + step) % 3 for step in range(1, 4)]

    # The start player declares the lead (the starfish is not offered); the others wait.
    page = pages[starter]
    assert page.locator("#status").inner_text() == "Your turn: lead a suit"
    assert page.locator(".q-lead-choice").count() == 5 and page.locator("[data-suit='starfish']").count() == 0
    page.locator(".q-lead-choice[data-suit='water']").click()
    assert page.locator("#q-confirm").inner_text() == "Lead Water"
    page.locator(f".q-mine .q-row-{lead}").click()  # a tap on its row on the sheet chooses it too
    assert page.locator(".q-lead-choice[aria-pressed='true']").get_attribute("data-suit") == lead
    assert page.locator(".q-mine .q-row.lead .q-suit-name").inner_text() == TITLES[lead]
    assert page.locator("#q-confirm").inner_text() == f"Lead {TITLES[lead]}"
    shot(page, tmp_path, "q3-lead")
    assert page.evaluate(SMALL_TARGETS) == []
    assert len(reached_all(page, ".q-white, .q-purple .q-die")) == 1 + 4  # every die in view, the white one too
    page.locator("#q-confirm").click()
    for each in pages.values():
        each.wait_for_function(f"document.querySelector('#q-lead .q-suit-name')?.textContent === {TITLES[lead]!r}")

    # Each claims a die in turn: the sheet shows where it goes before the claim is confirmed. The claimer
    # after the one with a choice plays by keyboard alone (Tab, Space, Enter).
    keyboard_at = (chooser_at + 1) % 3
    for at, (seat, number) in enumerate(zip(order, taken, strict=True)):
        who = seats[seat]
        page = pages[who]
        page.wait_for_function("document.getElementById('status').textContent === 'Your turn: claim a die'")
        rows = [c for c in table.body(table.tokens[seat])["view"]["choices"] if c["number"] == number]
        if at == keyboard_at:
            page.locator("#status").click()
            tab_to(page, f"document.activeElement.dataset.number === '{number}'")
            assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
            page.keyboard.press("Space")
        else:
            page.locator(f"button.q-die[data-number='{number}']").first.click()
        targets = page.locator(".q-mine .q-cell.target")
        if len(rows) > 1:
            # A choice: the die is marked in the lead row already; every open row is offered.
            assert [r["rule"] for r in rows] == ["alternate"] * len(rows)
            assert targets.count() == len(rows) and page.locator(".q-mine .q-cell.target.chosen").count() == 0
            assert page.locator("#q-confirm").is_disabled()
            if at == chooser_at:
                for part in ("button.q-die", ".q-mine .q-row-starfish", "#q-confirm"):  # all under one thumb
                    box = page.locator(part).first.bounding_box()
                    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, part
                screen = tmp_path / "q4-claim-choice-screen.png"
                page.screenshot(path=str(screen))  # the screen as it is: dice, sheet, the confirm bar
                print(f"screenshot: {screen}")
                shot(page, tmp_path, "q4-claim-choice")
                assert page.evaluate(SMALL_TARGETS) == []
            if at == keyboard_at:
                tab_to(page, "document.activeElement.dataset.row === 'starfish'")
                page.keyboard.press("Space")
            else:
                page.locator(".q-mine .q-row-starfish").click()  # a tap on the row chooses it too
            assert page.locator(".q-row-choice[aria-pressed='true']").get_attribute("data-row") == "starfish"
            chosen = page.locator(".q-mine .q-row-starfish .q-cell.target.chosen")
            assert chosen.count() == 1 and "circled, a win" in chosen.inner_text()
            assert page.locator(".q-mine .q-for.preview").count() == 1  # the lead suit written above it
            assert page.locator("#q-confirm").inner_text() == f"Claim {number}: Starfish"
        else:
            assert at != chooser_at
            [row] = rows  # follow suit, the one row the rule leaves, or a penalty: it must go there
            assert targets.count() == (0 if row["row"] is None else 1)
            if row["row"] is not None:
                assert page.locator(f".q-mine .q-row-{row['row']} .q-cell.target.must").count() == 1
            assert page.locator("#q-confirm").inner_text().startswith(f"Claim {number}:")
        if at == keyboard_at:
            tab_to(page, "document.activeElement.id === 'q-confirm'")
            page.keyboard.press("Enter")
        else:
            page.locator("#q-confirm").click()
        page.wait_for_function(f"document.querySelectorAll('.sheet-list > li').length === {3 + 1 + at + 1}")

    # The round is over and the next one rolled: every phone tells the same round, and the same sheets.
    for page in pages.values():
        page.wait_for_function("document.querySelectorAll('#q-claims li').length === 3")
        page.wait_for_function("document.getElementById('q-round')?.textContent.startsWith('Round 2')")
    watch = phones("Eve (watching)").open(f"/play/{match}?watch=1")  # a spectator, arriving now
    watch.wait_for_function("document.querySelectorAll('#q-claims li').length === 3")
    assert watch.locator(".q-mine .q-sheet").count() == 0 and watch.locator(".q-other").count() == 3
    assert all("bids hidden" in text for text in watch.locator(".q-other summary").all_inner_texts())
    told = {who: page.locator(".q-log").inner_text() for who, page in {**pages, "Eve": watch}.items()}
    assert len(set(told.values())) == 1, told
    claims = pages["Ann"].locator("#q-claims li").all_inner_texts()
    assert [line.split(" took ")[0] for line in claims] == [seats[seat] for seat in order]
    assert "Starfish" in claims[chooser_at] and f"a win for {TITLES[lead]}" in claims[chooser_at]
    assert all(re.fullmatch(r"\w+ took \d: (follow|alternate) suit: .+", line) for line in claims), claims
    for seat, who in seats.items():
        sheet = table.body(table.tokens[seat])["view"]["sheets"][seat]
        marks = [[f"m-{mark or 'open'}" for mark in sheet["rows"][row]] for row in (*SUITS, "starfish")]
        assert pages[who].locator(".q-mine .q-sheet").evaluate(SHEET_MARKS) == marks
        bids = f"bids {' '.join(map(str, BIDS[who]))}"
        for other, page in pages.items():
            if other != who:
                seen = page.locator(f".q-other[data-seat='{seat}'] .q-sheet").evaluate(SHEET_MARKS)
                assert seen == marks, f"{other} sees {who}'s sheet otherwise"
                assert bids not in page.content(), f"{other} sees {who}'s bids"
    state = table.body()["view"]
    assert state["rounds_played"] == 1 and state["lead"] is None
    for who, page in pages.items():  # the score as it stands, by suit: the chart's lines add up to the engine's
        page.locator(".q-score summary").click()
        lines = page.locator(".q-score-lines b").all_inner_texts()
        engine_score = table.body(table.tokens[seat_of[who]])["view"]["scores"][seat_of[who]]
        assert len(lines) == 5 and sum(int(text.replace("−", "-")) for text in lines) == engine_score
        assert page.locator(".q-score summary").inner_text() == f"Score as it stands: {engine_score} point" + (
            "" if engine_score == 1 else "s"
        )
    for who, page in pages.items():
        shot(page, tmp_path, f"q5-after-round-{who}")
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


MOUNT = """async ({ view, you }) => {
  const plugin = (await import("/static/play/games/qwiply.js")).default;
  const root = document.createElement("div");
  root.className = "board board-qwiply";
  document.querySelector("main").replaceChildren(root);
  window.sent = [];
  const body = { status: "playing", version: view.version, to_act: view.acting, must_act: view.acting, you, view,
                 seats: [{ seat: 0, name: "Ann", joined: true }, { seat: 1, name: "Bob", joined: true }] };
  const ctx = { root, you, match: "harness", body, name: (seat) => body.seats[seat].name, announce: () => {},
                move: async (text) => { window.sent.push(text); return { version: body.version + 1 }; },
                turns: async () => [], preview: async () => null, review: async () => null, api: async () => null };
  plugin.mount(ctx).update(body, null);
}"""


def test_a_die_that_fits_nowhere_shows_its_penalty_before_the_claim(phones: Any, tmp_path: Path) -> None:
    """The board drawn from an engine's own view (a game whose dice are entered, so they are known): in
    round 1 Ann's 6 can only go to the starfish (she crossed out 6 in every main row); in round 2 a 6 is
    marked in every row of hers: the penalty box it would cross is shown, and the claim says so."""
    game = load_game("qwiply(players=2,first_player=0)")
    state = game.new_initial_state(seed=None)
    state.act(0, "setup x=6,6,6,6,6 bid=3,3,3,3,3")
    state.act(1, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    state.act(CHANCE, "roll W4 1 2 6")
    state.act(0, "lead sun")
    state.act(1, "claim 1")
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")

    page.evaluate(MOUNT, {"view": state.view(0), "you": 0})
    page.locator("button.q-die[data-number='6']").click()
    assert page.locator(".q-prompt b").inner_text() == "Your 6 must go to Starfish: "
    must = page.locator(".q-mine .q-row-starfish .q-cell.target.must.p-win")
    assert must.count() == 1 and "Starfish 6" in must.inner_text()
    assert "would be won for Sun" in page.locator(".q-mine .q-for.preview").inner_text()  # written above it
    page.locator("#q-confirm").click()
    assert page.evaluate("window.sent") == ["claim 6"]

    state.act(0, "claim 6")
    state.act(CHANCE, "roll W3 2 6 6")
    state.act(1, "lead drink")
    page.evaluate(MOUNT, {"view": state.view(0), "you": 0})
    assert page.locator(".q-mine .q-row-starfish .q-cell.m-win").count() == 1
    assert page.locator(".q-mine .q-for.filled").get_attribute("class") == "q-for filled"
    page.locator("button.q-die[data-number='6']").first.click()
    assert "fits nowhere" in page.locator(".q-prompt").inner_text()
    assert "penalty: 6 is marked in every row (−2 to your score)" in page.locator(".q-prompt").inner_text()
    assert page.locator(".q-mine .q-cell.target").count() == 0
    assert page.locator(".q-mine .q-pen-box.target").count() == 1
    assert "your die would cost one more" in page.locator(".q-mine .q-penalties").get_attribute("aria-label")
    assert page.locator("#q-confirm").inner_text() == "Claim 6: penalty"
    shot(page, tmp_path, "q6-penalty")
    page.locator("#q-confirm").click()
    assert page.evaluate("window.sent") == ["claim 6"]  # a new board: what it sent
    state.act(0, "claim 6")
    page.evaluate(MOUNT, {"view": state.view(1), "you": 1})  # Bob's phone: Ann's penalty on her sheet
    assert page.locator(".q-other[data-seat='0'] .q-pen-box.used").count() == 1
    assert "1 penalty" in page.locator(".q-other[data-seat='0'] summary").inner_text()


REVIEW = """async ({ review, body, turns }) => {
  const plugin = (await import("/static/play/games/qwiply.js")).default;
  const element = document.createElement("div");
  element.id = "harness-review";
  document.querySelector("main").replaceChildren(element);
  plugin.renderReview(review, element, body);
  return plugin.reviewSteps(turns, body).map((step) => [step.version, step.seat, step.label]);
}"""


def test_the_after_game_review_shows_the_engines_best_leads_and_claims(phones: Any, tmp_path: Path) -> None:
    """The review of a lead and of a claim, drawn by the board's module from the engine's own review()
    (what GET /review carries): every listed choice in order, with its worth, and the move played marked."""
    state = load_game("qwiply(players=2,first_player=0)").new_initial_state(seed=None)
    state.act(0, "setup x=1,2,3,4,5 bid=4,3,2,3,3")
    state.act(1, "setup x=6,6,6,6,6 bid=0,1,5,2,7")
    state.act(CHANCE, "roll W4 1 2 6")
    lead_review = state.review(0)
    state.act(0, "lead water")
    claim_review = state.review(1)
    assert lead_review is not None and claim_review is not None
    played = claim_review["best"][-1]["move"]  # not the best claim: the review must say which was played
    breakdown = state.act(1, played)
    body = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}], "view": state.view(0)}
    turns = [
        {"version": 1, "seat": 0, "move": "setup sealed"},
        {"version": 2, "seat": 1, "move": "setup sealed"},
        {"version": 3, "seat": 0, "move": "lead water"},
        {"version": 4, "seat": 1, "move": played, "breakdown": breakdown.to_json()},
    ]
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")

    answer = {"match": "m", "version": 3, "seat": 0, "mover": 0, "move": "lead water", "review": lead_review}
    steps = page.evaluate(REVIEW, {"review": answer, "body": body, "turns": turns})
    assert [(version, seat) for version, seat, _ in steps] == [(3, 0), (4, 1)], "leads and claims, not set-ups"
    assert steps[0][2] == "Move 3: Ann led Water" and steps[1][2].startswith(f"Move 4: Bob took {played.split()[1]}")
    items = page.locator("#harness-review li").all_inner_texts()
    assert len(items) == len(lead_review["best"]) == 5
    for rank, (text, best) in enumerate(zip(items, lead_review["best"], strict=True), start=1):
        detail = best["breakdown"]["items"][0]["detail"]  # "the rolled dice are worth N points to you under SUIT, ..."
        worth, suit = detail.split(" are worth ")[1].split(" to you")[0], detail.split(" under ")[1].split(",")[0]
        assert text.startswith(f"{rank}. {suit}: {worth}"), text
        assert text.endswith("(the move played)") == (best["move"] == "lead water")

    answer = {"match": "m", "version": 4, "seat": 1, "mover": 1, "move": played, "review": claim_review}
    page.evaluate(REVIEW, {"review": answer, "body": body, "turns": turns})
    intro = page.locator("#harness-review > p").first.inner_text()
    assert intro == f"Bob had {claim_review['choices']} choices. The best, by what each scored then:"
    items = page.locator("#harness-review li").all_inner_texts()
    assert len(items) == len(claim_review["best"])
    for rank, (text, best) in enumerate(zip(items, claim_review["best"], strict=True), start=1):
        points = best["points"]
        shown = f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")
        assert text.startswith(f"{rank}. {shown}: took {best['move'].split()[1]}"), text
        assert text.endswith("(the move played)") == (best["move"] == played)
    shot(page, tmp_path, "q7-review")
