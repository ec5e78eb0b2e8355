"""The worker's answer cache and the ETag comparison, on real values."""

from __future__ import annotations

import pytest

from service.responses import AnswerCache, etag_matches


def test_the_answer_cache_keeps_the_most_recently_used_within_its_bytes() -> None:
    cache = AnswerCache(max_bytes=800)
    for n in range(10):
        cache.put((f"/v1/bop/{n}".encode(), b""), f'"{n}"', b"x" * 90)
    assert cache.bytes <= 800 and len(cache) < 10
    assert cache.get((b"/v1/bop/0", b"")) is None  # the oldest went first
    newest = cache.get((b"/v1/bop/9", b""))
    assert newest == ('"9"', b"x" * 90)

    # Touching an entry keeps it: the least recently *used* goes next, not the least recently added.
    oldest_kept = min(n for n in range(10) if cache.get((f"/v1/bop/{n}".encode(), b"")) is not None)
    cache.get((f"/v1/bop/{oldest_kept}".encode(), b""))
    cache.put((b"/v1/bop/new", b""), '"new"', b"y" * 90)
    assert cache.get((f"/v1/bop/{oldest_kept}".encode(), b"")) is not None


def test_one_huge_answer_does_not_flush_the_cache() -> None:
    cache = AnswerCache(max_bytes=8000)
    cache.put((b"/a", b""), '"a"', b"a" * 100)
    cache.put((b"/huge", b"limit=1000"), '"h"', b"h" * 5000)
    assert cache.get((b"/huge", b"limit=1000")) is None and cache.get((b"/a", b"")) is not None


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('"abc"', True),
        ('W/"abc"', True),
        ('"x", "abc"', True),
        ("*", True),
        ('"abd"', False),
        ("", False),
        (None, False),
    ],
)
def test_if_none_match_uses_the_weak_comparison(header: str | None, matches: bool) -> None:
    assert etag_matches(header, '"abc"') is matches
