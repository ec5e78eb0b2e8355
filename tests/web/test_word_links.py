"""Words a reader taps for their meaning read as a sentence (issue 38): the review's word links were
spaced "real ,  role ," (each a 44 px button, its comma a word apart), and the full stop after them stood
on a line of its own. The comma and the full stop sit inside each button, right after its word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import Phone
from tests.web.test_fit import SCREENS

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: ``meaningWords`` drawn as BOP!'s review draws them (a narrow column, a full stop after the last word):
#: the text read, and for each word the gap between its end and its mark, and whether they share a line.
DRAWN = """async (width) => {
  const { meaningWords } = await import("/static/play/ui.js");
  const column = document.createElement("p");
  column.style.width = `${width}px`;
  column.append("CTM: ", meaningWords(["acetum", "actium", "octamer", "acetamide", "cotmate"], { end: "." }));
  document.querySelector("main").append(column);
  const links = [...column.querySelectorAll("button.word-link")];
  return {
    text: column.textContent,
    marks: links.map((link) => {
      const word = link.querySelector(".word-link-word").getBoundingClientRect();
      const mark = link.querySelector(".word-link-mark").getBoundingClientRect();
      return {gap: mark.left - word.right, sameLine: Math.abs(mark.top - word.top) < 2};
    }),
    targets: links.map((link) => link.getBoundingClientRect().height),
  };
}"""


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_word_links_keep_their_commas_and_full_stop(orientation: str, phones: Callable[[str], Phone]) -> None:
    page: Any = phones("Ann").open("/play")
    page.set_viewport_size(SCREENS[orientation])
    page.locator("#create").wait_for()
    drawn = page.evaluate(DRAWN, 150)  # (narrow: every word wraps onto a line of its own)
    assert drawn["text"] == "CTM: acetum, actium, octamer, acetamide, cotmate.", drawn["text"]
    assert len(drawn["marks"]) == 5 and all(-0.5 <= m["gap"] <= 1.5 and m["sameLine"] for m in drawn["marks"]), drawn
    assert min(drawn["targets"]) >= 44  # still a thumb's target
