"""The words of a challenge's verdict, as the score sheet, the replay and the play screen read them.

A verdict names players only as ``player N's`` (a possessive, and only after a sentence's start or a
preposition): the page puts in a name ("Ann's") or, on that player's own phone, "your"/"Your", and
the sentence is right either way. ``player N loses a turn`` would not be ("you loses"). A play is
named by the lines it made (``RXD``, the whole line), not by the tiles put down (``XD``).
"""

from __future__ import annotations

from collections.abc import Sequence


def points_words(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"


def play_name(lines: Sequence[str]) -> str:
    """The play as the lines it made read: "RXD", "WMNZR and MH"."""
    return " and ".join(lines)


def upheld(challenged: int, lines: Sequence[str], problems: Sequence[str], points: int) -> str:
    """The play is withdrawn: which line is no word, and what the challenged player gets back."""
    scored = f"the {points_words(points)} it scored are taken off" if points else "it scored nothing"
    return (
        f"player {challenged}'s play {play_name(lines)} is withdrawn: {'; '.join(problems)}. "
        f"The tiles go back to player {challenged}'s rack and {scored}."
    )


def failed(challenger: int, challenged: int, lines: Sequence[str], words: Sequence[tuple[str, Sequence[str]]],
           turn_now: bool) -> str:  # fmt: skip
    """The play stands, each line with a few words it stands for; the challenger's turn is lost:
    this one (``turn_now``: it was theirs) or their next."""
    justified = "; ".join(f"{letters} ({', '.join(examples) or 'a word'})" for letters, examples in words)
    lost = f"player {challenger}'s turn is over" if turn_now else f"player {challenger}'s next turn is skipped"
    return f"player {challenged}'s play {play_name(lines)} stands: {justified}. {lost}."
