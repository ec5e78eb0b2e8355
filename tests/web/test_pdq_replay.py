"""PDQ's replay on a phone (issue 26): the cards each player took, a run of 40 letters with no space, ran
past the right edge at 360 x 740. The replay of a whole game takes minutes to reach with bots, so the
plug-in's ``renderReplay`` is given the end of one (the tallies of a game the stranger's kind of table
played: 33 and 45 cards) in the end screen's replay box, at each size, and nothing in it may run wider
than its box or the screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.web.conftest import Phone
from tests.web.pages import shot

pytestmark = [pytest.mark.browser, pytest.mark.server]

SCREENS = {"portrait": (360, 740), "landscape": (740, 360), "tablet": (768, 1024)}
TALLIES = ["NUFMUQTMSEHBESEWOPJNGCAASLRPLDRTX", "IVLDNIDCNOYIBPHAIRKATXFWPSEOCSDTECHCRMRABSGZT"]

#: The end screen's replay box with the last position drawn in it by the PDQ plug-in; the elements in it
#: whose text runs wider than they are, or past the screen's right edge.
DRAWN = """async (tallies) => {
  const pdq = (await import('/static/play/games/pdq.js')).default;
  const main = document.querySelector('main');
  const box = document.createElement('section');
  box.className = 'card replay';
  const picture = document.createElement('div');
  picture.className = 'replay-board';
  box.append(picture);
  main.replaceChildren(box);
  const view = {collected: tallies, rounds: [], round: null};
  pdq.renderReplay(view, picture, {seats: [{name: 'Bot 1'}, {name: 'Bot 2'}], view});
  return {
    text: picture.innerText,
    wide: [...box.querySelectorAll('*')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)
      .map((e) => `${e.tagName} ${e.scrollWidth} > ${e.clientWidth}`),
  };
}"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_replay_tally_fits_the_screen(screen: str, phones: Callable[[str], Phone], tmp_path: Path) -> None:
    page = phones("Ann").open("/play")
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_selector("main")
    drawn = page.evaluate(DRAWN, TALLIES)
    assert drawn["wide"] == [], drawn
    assert "Bot 1, 33 cards: N U F M" in drawn["text"] and "Bot 2, 45 cards: I V L D" in drawn["text"]
    shot(page, tmp_path, f"pdq-replay-tally-{screen}")
