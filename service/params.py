"""The path and query parameters the routes share, with their bounds (documented in /docs).

Bounds that FastAPI checks here answer 400 like the library's own checks (``service.errors``);
the library still parses every value, so the rules live in one place (``indexes.notation``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

#: The API pages word lists: at most this many words per answer (the library allows more).
MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000

BopLetters = Annotated[
    str,
    Path(
        max_length=64,
        description="BOP! consonant tiles, e.g. `FRS`; `?` (percent-encoded as `%3F`), `.` or `_` is the BOP! tile",
        examples=["WHMMY"],
    ),
]
PdqLetters = Annotated[
    str,
    Path(max_length=16, description="2 to 4 PDQ cards as dealt, left to right, e.g. `PNA`", examples=["PNA"]),
]
ClaimedWord = Annotated[str, Path(max_length=128, description="the claimed word, letters a-z", examples=["whammy"])]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description=f"words to list, 1 to {MAX_LIMIT}")]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="words to skip first (for paging)")]
Variant = Annotated[
    str,
    Query(
        max_length=32,
        description="PDQ variant: classic, left-to-right, start-end, any-order or anywhere",
        examples=["classic"],
    ),
]
MinLength = Annotated[int, Query(ge=1, le=64, description="shortest word allowed (the sheet's default: 4)")]
Sort = Annotated[str, Query(max_length=16, description="listing order: common (most familiar first), longest, alpha")]
