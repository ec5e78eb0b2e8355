"""Seat tokens, invites and match ids (``matches.tokens``): random, URL-safe, stored only as digests,
and a token matches only its own digest."""

from __future__ import annotations

import hashlib
import re

from hypothesis import given
from hypothesis import strategies as st

from matches.tokens import digest, matches, new_match_id, new_seed, new_token

URL_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def test_tokens_are_128_random_bits_url_safe_and_never_repeat() -> None:
    made = {new_token() for _ in range(2000)}
    assert len(made) == 2000
    for token in made:
        assert URL_SAFE.match(token) and len(token) == 22  # 16 bytes in base64url, unpadded


def test_match_ids_are_72_random_bits_url_safe() -> None:
    made = {new_match_id() for _ in range(2000)}
    assert len(made) == 2000 and all(URL_SAFE.match(made_id) and len(made_id) == 12 for made_id in made)


def test_seeds_fit_a_signed_64_bit_column() -> None:
    seeds = [new_seed() for _ in range(2000)]
    assert all(0 <= seed < 2**63 for seed in seeds) and len(set(seeds)) == 2000
    assert max(seeds) >= 2**60  # all 63 bits are used, not a small range


def test_a_digest_is_the_tokens_sha256_and_not_the_token() -> None:
    token = new_token()
    assert digest(token) == hashlib.sha256(token.encode()).hexdigest() != token
    assert digest("\ud800") == hashlib.sha256(b"\xed\xa0\x80").hexdigest()  # a lone surrogate is still hashed


@given(st.text(max_size=40), st.text(max_size=40))
def test_a_token_matches_its_own_digest_only(token: str, other: str) -> None:
    assert matches(token, digest(token))
    assert matches(other, digest(token)) == (other == token)
