"""What players may say to each other in a match, as values: the match's table-talk settings, the fixed
reactions, and the checks on a line of free chat. No I/O: the part that acts on them is ``matches.social``.

- **Takebacks** are on by default in a casual match (no clock) and off in a timed one; a match may set them
  either way when it is made (``"takebacks": true``), except in a game that has none (PDQ's real-time rounds,
  a game at the table: ``Game.may_take_back``).
- **Reactions** are twelve fixed phrases and a few emoji, the same for everyone: nothing a stranger can
  write. **Free chat** is off unless a private match (not listed, invite only) turns it on when it is made:
  a line of at most ``CHAT_CHARS`` characters, no control characters, no links.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from engine.base import Game
from engine.values import JsonDict
from matches.errors import BadRequest

#: The fixed phrases, by the id a client sends, in the order a picker shows them.
PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "nice": "Nice!",
    "well_played": "Well played",
    "thinking": "Thinking…",
    "your_turn": "Your turn!",
    "one_moment": "One moment",
    "oops": "Oops",
    "unlucky": "Unlucky!",
    "thanks": "Thanks!",
    "good_game": "Good game",
    "rematch": "Rematch?",
}
#: The emoji a reaction may be, sent as themselves.
EMOJI: tuple[str, ...] = ("👍", "😀", "😮", "🎉", "🤔", "😅")
#: The longest line of free chat.
CHAT_CHARS = 200
#: How many of the last reactions a match's body shows (on the seats); the record keeps them all.
RECENT = 8

#: What reads as a link: a scheme, ``www.``, or a host name ending in a common top-level domain.
_LINK = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://|www\.|\b[\w-]+\.(?:com|net|org|io|co|me|ly|gg|app|dev|info|biz|xyz|link|ru|uk|de|fr|tk)\b)",
    re.IGNORECASE,
)


def talk_for(
    game: Game[Any, Any, Any], timed: bool, takebacks: Any = None, chat: Any = False, public: bool = True
) -> JsonDict:
    """A new match's table talk, checked: ``takebacks`` None takes the default (on unless ``timed``)."""
    if takebacks is not None and not isinstance(takebacks, bool):
        raise BadRequest("takebacks is true or false")
    if not isinstance(chat, bool):
        raise BadRequest("chat is true or false")
    if takebacks and not game.may_take_back:
        why = "a game at the table takes back with undo" if game.options.table else "its rounds are real time"  # type: ignore[attr-defined]
        raise BadRequest(f"{game.name} has no takebacks: {why}")
    if chat and public:
        raise BadRequest("free chat is only for a private match (public: false): a public one has reactions")
    on = (not timed) if takebacks is None else takebacks
    return {"takebacks": bool(on and game.may_take_back), "chat": chat}


def talk_of(talk: JsonDict | None, game: Game[Any, Any, Any], timed: bool) -> JsonDict:
    """A match's table talk as stored, or (a match made before there was any) its default."""
    return talk if talk is not None else {"takebacks": game.may_take_back and not timed, "chat": False}


def open_takeback(ask: JsonDict | None, version: int) -> bool:
    """Is ``ask`` (a match's stored takeback) waiting for answers at ``version``: asked for this version's move
    and declined by nobody? (A move since, the takeback's own included, closes it.)"""
    return ask is not None and ask.get("version") == version and ask.get("declined") is None


def asked_now(ask: JsonDict | None, version: int | None) -> JsonDict | None:
    """The takeback asked for the move that made ``version`` (open, or declined), else None."""
    return ask if ask is not None and ask.get("version") == version else None


def reaction_entry(reaction: Any, text: Any, chat: bool) -> JsonDict:
    """What a seat says, checked: one of the fixed reactions, or (where chat is on) a line of text."""
    if (reaction is None) == (text is None):
        raise BadRequest('say one thing: {"reaction": "nice"} (or, where chat is on, {"text": "..."})')
    if reaction is not None:
        if not isinstance(reaction, str) or (reaction not in PHRASES and reaction not in EMOJI):
            raise BadReaction(f"a reaction is one of {', '.join(PHRASES)} or {' '.join(EMOJI)}")
        return {"reaction": reaction}
    if not chat:
        raise ChatOff("this match has reactions, not free chat (a private match may turn chat on when it is made)")
    line = text.strip() if isinstance(text, str) else ""
    if not 1 <= len(line) <= CHAT_CHARS:
        raise BadRequest(f"a chat line is 1 to {CHAT_CHARS} characters")
    if any(is_control(char) for char in line):
        raise BadRequest("a chat line cannot hold control characters (a line break, a direction override)")
    if _LINK.search(line):
        raise BadRequest("a chat line cannot hold a link")
    return {"text": line}


#: Format characters a name may hold: the joiners of emoji sequences and the tags of flag emoji.
_JOINERS = frozenset("\u200c\u200d")


def is_control(char: str) -> bool:
    """A character a name or a chat line may not hold: a control character (NUL, a line break, an escape), a lone
    surrogate, or an invisible format character (a direction override), but the joiners of emoji."""
    kind = unicodedata.category(char)
    if kind == "Cf":
        return char not in _JOINERS and not "\U000e0020" <= char <= "\U000e007f"
    return kind in ("Cc", "Cs")


class ChatOff(BadRequest, code="chat_off", status=403):
    """Free text where the match has none: reactions only."""


class BadReaction(BadRequest, code="bad_reaction"):
    """A reaction that is none of the fixed ones."""
