#!/usr/bin/env python3
"""Draw the app's icons (a letter tile with a T on the page's accent colour) as PNG files, with no imaging library.

    python service/static/icons/make_icons.py      # rewrites icon-192/512.png and maskable-192/512.png here

"any" icons: the tile fills most of the square. "maskable" icons: full-bleed colour, the tile inside the
central 40% radius a launcher may keep (the maskable safe zone), so no mask cuts into it. Deterministic:
the same script gives the same bytes.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ACCENT = (0x2F, 0x6F, 0x73)
TILE = (0xF6, 0xF4, 0xEF)
INK = (0x1F, 0x2A, 0x30)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(size: int, pixel: object) -> bytes:
    """An RGB PNG of ``size`` x ``size`` whose pixel (x, y) is ``pixel(x, y)``."""
    rows = bytearray()
    for y in range(size):
        rows.append(0)  # filter: none
        for x in range(size):
            rows.extend(pixel(x, y))  # type: ignore[operator]
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _chunk(b"IEND", b"")
    )


def icon(size: int, tile_share: float) -> bytes:
    """The accent square with a rounded tile of ``tile_share`` of its side, a T on the tile."""
    side = size * tile_share
    low, high = (size - side) / 2, (size + side) / 2
    radius = side * 0.12

    def pixel(x: int, y: int) -> tuple[int, int, int]:
        cx, cy = x + 0.5, y + 0.5
        if not (low <= cx <= high and low <= cy <= high):
            return ACCENT
        # rounded corners: outside the corner circle is background
        dx = max(low + radius - cx, 0, cx - (high - radius))
        dy = max(low + radius - cy, 0, cy - (high - radius))
        if dx * dx + dy * dy > radius * radius:
            return ACCENT
        u, v = (cx - low) / side, (cy - low) / side  # 0..1 on the tile
        bar = 0.22 <= v <= 0.36 and 0.2 <= u <= 0.8
        stem = 0.36 <= v <= 0.8 and 0.43 <= u <= 0.57
        return INK if bar or stem else TILE

    return png(size, pixel)


def main() -> None:
    here = Path(__file__).resolve().parent
    for size in (192, 512):
        (here / f"icon-{size}.png").write_bytes(icon(size, 0.84))
        (here / f"maskable-{size}.png").write_bytes(icon(size, 0.5))


if __name__ == "__main__":
    main()
