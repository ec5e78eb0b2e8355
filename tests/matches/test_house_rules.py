"""House rules in the server's store (SQLite and PostgreSQL) behind the book the judge and the match server
share (``indexes.house_rules.HouseRulesBook``): kept once, named by a match, and judging that match's words;
the store's migration from the schema before them."""

from __future__ import annotations

import pytest

import matches.lobby as match_lobby
from engine.adjudicator import HouseRulesAdjudicator
from engine.errors import IllegalMoveError
from indexes.house_rules import BadHouseRulesError, HouseRules, HouseRulesBook, UnknownHouseRulesError
from matches.errors import BadRequest
from matches.service import MatchService
from matches.store import MIGRATIONS, SCHEMA_VERSION, PostgresStore, SQLiteStore, Store, open_store
from tests.matches.conftest import FakeClock


def test_the_book_checks_keeps_and_finds_house_rules_for_the_match_server(service: MatchService) -> None:
    made = service.core.house_rules_book.make("Our table", ["za"], ["shmo"])
    assert made == HouseRules.make("Our table", ["za"], ["shmo"])
    assert service.core.house_rules(made.id) == made
    # Another process (the judge's, or another server's): a new book over the same store reads them.
    elsewhere = MatchService(service.store)
    assert elsewhere.core.house_rules(made.id) == made == HouseRulesBook(service.store).get(made.id)
    with pytest.raises(UnknownHouseRulesError, match="no house rules 'hr-aaaaaaaaaa'"):
        service.core.house_rules("hr-aaaaaaaaaa")
    with pytest.raises(BadHouseRulesError, match="both allowed and denied"):
        service.core.house_rules_book.make("T", ["za"], ["za"])


def test_the_schema_before_house_rules_is_migrated_and_its_matches_read_on(store_url: str) -> None:
    """A database made by the server before issue 17 (schema 1, one match in it) opens at the current
    schema (house rules, then the revision), its match at revision 0."""
    raw: Store = (
        PostgresStore(store_url) if store_url.startswith("postgresql") else SQLiteStore(store_url.removeprefix("sqlite://"))
    )
    with raw.transaction():
        raw._execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in MIGRATIONS[0]:
            raw._execute(statement)
        raw._execute("INSERT INTO schema_version (version) VALUES (1)")
        raw._execute(
            "INSERT INTO matches (id, game, options, seats, seed, status, public, invite_hash, version, created, "
            "updated, lexicon) VALUES ('old', 'pdq', '{}', 2, 7, 'waiting', 1, 'x', 0, 1.0, 1.0, 'standard')"
        )
    raw.close()
    store = open_store(store_url)
    try:
        assert store.migrate() == SCHEMA_VERSION
        old = store.match("old")
        assert old is not None and old.house_rules is None and old.lexicon == "standard" and old.revision == 0
        assert old.creator is None  # schema 4: made before the quotas, counted only in the total
        kept = HouseRules.make("T", [], ["za"])
        store.save_house_rules(kept, 1.0)
        assert store.load_house_rules(kept.id) == kept
    finally:
        store.close()


def _seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(match_lobby, "new_seed", lambda: seed)


def _letters(service: MatchService, match_id: str) -> str:
    state = service.core.load(match_id).state
    assert state is not None
    return str(state.view(None)["round"]["letters"])


def test_a_pdq_match_under_house_rules_judges_claims_by_them(
    service: MatchService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seeded(monkeypatch, 3)
    plain = service.lobby.create("pdq", {"players": 1}, name="Ann")
    letters = _letters(service, plain.match)
    game = service.core.load(plain.match).game
    best = game.adjudicator.pdq(letters, limit=1).words[0]
    made_up = letters.lower() + "zzq"  # holds the cards in order, starts with the first: no lexicon word
    assert game.adjudicator.pdq_check(letters, made_up).reason == "not_in_lexicon"
    rules = service.core.house_rules_book.make("Strict", [made_up], [best])

    ruled = service.lobby.create("pdq", {"players": 1}, name="Ann", house_rules=rules.id)
    assert _letters(service, ruled.match) == letters  # the same seed: the same row
    loaded = service.core.load(ruled.match)
    assert isinstance(loaded.game.adjudicator, HouseRulesAdjudicator)
    body = service.core.body(loaded, 0)
    assert body["house_rules"] == rules.to_json()  # the match says what it is judged by
    with pytest.raises(IllegalMoveError) as refused:
        service.gate.move(ruled.match, 0, f"claim {best}", 0)
    assert refused.value.details["reason"] == "denied_by_house_rules"
    assert "house rules 'Strict' deny it" in str(refused.value)
    moved = service.gate.move(ruled.match, 0, f"claim {made_up}", 0)  # a word only the house rules allow
    assert moved.breakdown.total == 3 and made_up.upper() in moved.breakdown.items[0].detail
    service.core.states.clear()
    service.core._games.clear()
    service.core.house_rules_book._known.clear()  # a restart: the rules come back from the store, and the match replays
    assert service.core.load(ruled.match).state.version == service.store.version(ruled.match)  # type: ignore[union-attr]


@pytest.mark.slow
def test_house_rules_travel_with_a_rematch_and_the_log(service: MatchService, clock: FakeClock) -> None:
    rules = service.core.house_rules_book.make("T", [], ["za"])
    made = service.lobby.create("bop", {"players": 2}, bots={"0": "greedy", "1": "greedy"}, house_rules=rules.id)
    for _ in range(400):
        clock.advance(1)
        if not service.scheduler.run_due(made.match) and service.core.load(made.match).row.status == "over":
            break
    assert service.core.load(made.match).row.status == "over"
    assert service.encoded.log(made.match)["house_rules"] == rules.to_json()
    again = service.lobby.rematch(made.match, 0)
    assert service.core.load(again).row.house_rules == rules.id


def test_house_rules_are_refused_for_a_game_without_words_or_an_unknown_id(service: MatchService) -> None:
    rules = service.core.house_rules_book.make("T", [], ["za"])
    with pytest.raises(BadRequest, match="played without words"):
        service.lobby.create("three2fifteen", {"players": 2}, house_rules=rules.id)
    with pytest.raises(UnknownHouseRulesError):
        service.lobby.create("pdq", {"players": 2}, house_rules="hr-aaaaaaaaaa")
