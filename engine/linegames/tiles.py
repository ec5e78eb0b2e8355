"""Tiles of the line games: two attributes each, a face (a number or a shape) and a colour.

A tile is a two-character string, face then colour, as BOP!'s ``"Sy"`` is: ``"9y"`` is D!Git's
yellow 9, ``"Hg"`` Q!nto's green heart. A ``?`` in either place makes the tile wild in that
attribute: ``"?y"`` is any face in yellow (D!Git's blank yellow tile, Q!nto's yellow wild),
``"H?"`` a heart of any colour (Q!nto's heart wild), ``"??"`` any tile at all (the D!Git tile,
the Q!nto tile). Tiles are values: two yellow 9s would be interchangeable, so hands, piles and
boards hold these strings.

A :class:`TileKit` is one game's alphabet: its faces (in rank order) and colours, and the words
for its tiles.

>>> kit = TileKit("0123456789", "ygrkb", wild_names={"??": "D!Git tile", "?c": "blank {colour} tile"})
>>> kit.domain("?y")[:3], len(kit.domain("??")), kit.domain("9y")
(('0y', '1y', '2y'), 50, ('9y',))
>>> kit.parse_tiles("9y ?g ??"), kit.name("?g"), kit.name("??"), kit.name("7k")
(['9y', '?g', '??'], 'blank green tile', 'D!Git tile', 'black 7')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from engine.errors import NotationError

#: The wild mark, in the face or the colour place (or both).
WILD = "?"

#: Colour codes shared by the line games (BOP!'s, plus Match Five's orange).
COLOUR_NAMES: dict[str, str] = {"y": "yellow", "g": "green", "r": "red", "k": "black", "b": "blue", "o": "orange"}


def is_wild(tile: str) -> bool:
    """Does the tile stand for another (a ``?`` in its face or colour)?"""
    return WILD in tile


def face(tile: str) -> str:
    return tile[0]


def colour(tile: str) -> str:
    return tile[1]


@dataclass(frozen=True)
class TileKit:
    """One game's tiles: faces in rank order, colour codes, and names.

    ``face_names`` names faces (``{"H": "heart"}``; a face without a name is written as itself);
    ``wild_names`` names wild kinds by pattern: ``"??"`` (any tile), ``"?c"`` (a colour wild; ``{colour}``
    in the name is replaced), ``"f?"`` (a face wild; ``{face}``). Other tiles read
    ``"{colour} {face}"``: "yellow 9", "green heart".
    """

    faces: str
    colours: str
    face_names: Mapping[str, str] = field(default_factory=dict)
    wild_names: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def concrete(self) -> tuple[str, ...]:
        """Every tile that is not wild, faces in rank order, then colours in kit order."""
        return tuple(f + c for f in self.faces for c in self.colours)

    @cached_property
    def _domains(self) -> dict[str, tuple[str, ...]]:
        domains: dict[str, tuple[str, ...]] = {tile: (tile,) for tile in self.concrete}
        for c in self.colours:
            domains[WILD + c] = tuple(f + c for f in self.faces)
        for f in self.faces:
            domains[f + WILD] = tuple(f + c for c in self.colours)
        domains[WILD + WILD] = self.concrete
        return domains

    @cached_property
    def token(self) -> re.Pattern[str]:
        """One tile in notation: a face (or ``?``) then a colour code (or ``?``)."""
        return re.compile(f"[{re.escape(self.faces + WILD)}][{re.escape(self.colours + WILD)}]")

    def is_tile(self, text: str) -> bool:
        return text in self._domains

    def domain(self, tile: str) -> tuple[str, ...]:
        """The concrete tiles a tile can stand for (itself, for a concrete tile)."""
        return self._domains[tile]

    def parse_tiles(self, text: str) -> list[str]:
        """``"9y ?g ??"`` or ``"9y?g??"`` -> ``["9y", "?g", "??"]``; NotationError on anything else."""
        compact = re.sub(r"[\s,]+", "", text)
        tiles = self.token.findall(compact)
        if "".join(tiles) != compact or len(compact) % 2:
            raise NotationError(
                f"tiles {text!r}: write each tile as its face ({self.faces}, or ? for any) then its colour "
                f"({self.colours}, or ? for any), e.g. {self.concrete[-1]!r}"
            )
        return tiles

    def one_tile(self, text: str) -> str:
        """A draw's tile, checked (``draw 9y to 1``): NotationError unless ``text`` is one tile."""
        tiles = self.parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(f"{text!r}: a draw takes one tile")
        return tiles[0]

    def name(self, tile: str) -> str:
        """The tile in words: ``"yellow 9"``, ``"blank green tile"``, ``"Q!nto tile"``."""
        f, c = tile[0], tile[1]
        colour_name = COLOUR_NAMES.get(c, c)
        face_name = self.face_names.get(f, f)
        if f == WILD and c == WILD:
            return self.wild_names.get("??", "wild tile")
        if f == WILD:
            return self.wild_names.get("?c", "{colour} wild").format(colour=colour_name)
        if c == WILD:
            return self.wild_names.get("f?", "{face} wild").format(face=face_name)
        return f"{colour_name} {face_name}"

    def rank(self, tile: str) -> tuple[int, int]:
        """Sort key: face rank (wild faces last), then colour."""
        faces, colours = self.faces + WILD, self.colours + WILD
        return faces.index(tile[0]), colours.index(tile[1])
