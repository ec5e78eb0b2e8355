"""Seat tokens, invite tokens and match ids: random, never stored in the clear, compared in constant time.

A token is 128 random bits (``secrets``), sent once, stored only as its SHA-256; a match id is 72
random bits, so neither can be guessed or enumerated.

>>> token = new_token(); len(token) >= 22 and matches(token, digest(token))
True
>>> matches("guess", digest(new_token()))
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_match_id() -> str:
    """72 random bits as 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    """A match's secret seed: 63 random bits (it fits a signed 64-bit column)."""
    return secrets.randbits(63)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored: str) -> bool:
    """Does ``token`` hash to ``stored``? Constant time in the comparison."""
    return hmac.compare_digest(digest(token), stored)
