"""Every game by name: ``load_game("bop(players=3,mode=challenge)")`` (OpenSpiel's ``load_game``).

A new engine registers itself here, in :data:`GAMES`, and nowhere else: the command line
(``tablejudge play NAME``), the match server and the conformance suite all find it through this
registry. Entries name where the game's class lives, so that nothing is imported (no lexicon
opened) until a game is loaded.

>>> registered_games()[:2]
['bop', 'pdq']
>>> load_game("bop(players=3,mode=challenge)").spec()
'bop(players=3,mode=challenge)'
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.base import Game, State
from engine.errors import ConfigError, StateError
from engine.values import read_options_text

if TYPE_CHECKING:
    from engine.adjudicator import Adjudicator

#: Registry name -> "module:Class" of the game. One line per engine.
GAMES: dict[str, str] = {
    "bop": "engine.bop.game:BopGame",
    "pdq": "engine.pdq.game:PdqGame",
    "qwiply": "engine.qwiply.game:QwiplyGame",
    "three2fifteen": "engine.three2fifteen.game:Three2FifteenGame",
    "qnto": "engine.qnto.game:QntoGame",
    "matchfive": "engine.matchfive.game:MatchFiveGame",
    "digit": "engine.digit.game:DigitGame",
}

_SPEC = re.compile(r"\s*(?P<name>[a-z][a-z0-9_]*)\s*(?:\((?P<options>.*)\))?\s*", re.S)


def register(name: str, where: str) -> None:
    """Add a game (``"module:Class"``) under ``name``: for games outside this package (a test's toy)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ConfigError(f"a game's name is lower-case letters, digits and _, not {name!r}")
    GAMES[name] = where


def registered_games() -> list[str]:
    """The names of every registered game, in registration order."""
    return list(GAMES)


def game_class(name: str) -> type[Game[Any, Any, Any]]:
    """The class of the game registered as ``name`` (ConfigError if there is none)."""
    where = GAMES.get(name)
    if where is None:
        raise ConfigError(f"no game called {name!r}; the games are {', '.join(GAMES)}")
    module, _, attribute = where.partition(":")
    cls: type[Game[Any, Any, Any]] = getattr(importlib.import_module(module), attribute)
    return cls


def parse_spec(spec: str) -> tuple[str, str]:
    """``"bop(players=3)"`` -> ``("bop", "players=3")``; ``"pdq"`` -> ``("pdq", "")``."""
    match = _SPEC.fullmatch(spec) if isinstance(spec, str) else None
    if match is None:
        raise ConfigError(f"cannot read the game {spec!r}; write NAME or NAME(option=value,...), e.g. bop(players=3)")
    return match["name"], match["options"] or ""


def load_game(
    spec: str,
    options: Mapping[str, Any] | None = None,
    adjudicator: Adjudicator | None = None,
    lexicon: str | None = None,
) -> Game[Any, Any, Any]:
    """A game from its spec (``"bop(players=3,mode=challenge)"``); ``options`` add to the spec's."""
    name, text = parse_spec(spec)
    cls = game_class(name)
    return cls({**read_options_text(text), **dict(options or {})}, adjudicator=adjudicator, lexicon=lexicon)


def load_state(
    data: Mapping[str, Any],
    adjudicator: Adjudicator | None = None,
    replay: bool = False,
) -> State[Any]:
    """Rebuild any saved state (``state.to_json()``) of any registered game.

    ``replay``: a state saved under another lexicon version is replayed under this one rather than
    refused.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
        raise StateError("a saved state is a JSON object naming its game")
    try:
        cls = game_class(data["game"])
    except ConfigError as error:
        raise StateError(f"the saved state's game: {error}") from None
    options = data.get("options")
    if not isinstance(options, Mapping):
        raise StateError("a saved state names its options")
    lexicon = data.get("lexicon")
    name = lexicon.get("name") if isinstance(lexicon, Mapping) and adjudicator is None else None
    try:
        game = cls(dict(options), adjudicator=adjudicator, lexicon=name)
    except ConfigError as error:
        raise StateError(f"the saved state's options: {error}") from None
    return game.state_from_json(data, replay=replay)
