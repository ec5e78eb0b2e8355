"""``indexes.remote.Client`` against a real server: the same values and exceptions as in-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.adjudicator import HttpAdjudicator, LocalAdjudicator
from indexes import Lexicon
from indexes.errors import BadLettersError, BadOptionError, BadWordError, UnknownLexiconError, UnknownVariantError
from indexes.remote import BopChallenge, Client, ServiceError

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def client(live_server: str) -> Iterator[Client]:
    with Client(live_server, timeout=10) as judge:
        yield judge


def test_every_query_returns_the_librarys_value(client: Client, lexicon: Lexicon) -> None:
    assert client.bop("FRS") == lexicon.bop("FRS")
    assert client.bop("C?WB", limit=3) == lexicon.bop("C?WB", limit=3)  # '?' percent-encoded in the path
    assert client.bop("??", limit=50, offset=10) == lexicon.bop("??", limit=50, offset=10)
    assert client.bop_check("C?WB", "cobweb") == lexicon.bop_check("C?WB", "cobweb")
    assert client.bop_check("FRS", "fast") == lexicon.bop_check("FRS", "fast")
    assert client.pdq("PNA", variant="anywhere", min_length=5, sort="longest", limit=7, offset=2) == lexicon.pdq(
        "PNA", variant="anywhere", min_length=5, sort="longest", limit=7, offset=2
    )
    assert client.pdq_check("PNA", "painter") == lexicon.pdq_check("PNA", "painter")
    assert client.pdq_check("XCN", "excellent", variant="start-end", min_length=3) == lexicon.pdq_check(
        "XCN", "excellent", variant="start-end", min_length=3
    )
    assert client.word("shmo", lexicon="standard") == lexicon.word("shmo")
    assert client.define("mojos") == lexicon.define("mojos") and client.define("the") is None
    # The API takes only the names its schema lists; the client forgives what the library forgives.
    assert client.pdq("PNA", variant="Left_To_Right", sort="LONGEST") == lexicon.pdq(
        "PNA", variant="left-to-right", sort="longest"
    )
    assert client.pdq_check("PNA", "pan", variant=" Anywhere") == lexicon.pdq_check("PNA", "pan", variant="anywhere")
    # "." is the BOP! tile too, and ".." (two of them) must not be resolved away as a path segment.
    assert client.bop("..", limit=5) == lexicon.bop("??", limit=5)
    assert client.bop_check("C.WB", "cobweb") == lexicon.bop_check("C?WB", "cobweb")


def test_a_challenge_returns_one_verdict_and_each_line(client: Client, lexicon: Lexicon) -> None:
    play = client.bop_challenge(["FRS", "SH"], lexicon="standard", limit=2)
    assert isinstance(play, BopChallenge)
    assert play.valid is True and play.lines == [lexicon.bop("FRS", limit=2), lexicon.bop("SH", limit=2)]
    challenged = client.bop_challenge(["SH", "XQZ"])
    assert challenged.valid is False and challenged.invalid_lines == [1]
    assert [line.valid for line in challenged.lines] == [True, False]


def test_lexicons_and_health(client: Client, lexicon: Lexicon) -> None:
    assert [entry["name"] for entry in client.lexicons()] == ["standard"]
    assert client.health()["lexicons"]["standard"] == lexicon.version


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda c: c.bop("FAS"), BadLettersError),
        (lambda c: c.pdq("PNAXT"), BadLettersError),
        (lambda c: c.bop_check("FRS", "f4rs"), BadWordError),
        (lambda c: c.word("r2d2"), BadWordError),
        (lambda c: c.pdq("PNA", variant="sideways"), UnknownVariantError),
        (lambda c: c.bop("FRS", limit=5000), BadOptionError),
        (lambda c: c.bop("FRS", lexicon="klingon"), UnknownLexiconError),
        (lambda c: c.bop_challenge(["FRS", "BOP"]), BadLettersError),
        # A "/" or a segment of dots cannot travel in a path as typed (once a ServiceError 404).
        (lambda c: c.word("a/b"), BadWordError),
        (lambda c: c.bop_check("FRS", ".."), BadWordError),
        (lambda c: c.bop("F/S"), BadLettersError),
        (lambda c: c.bop("."), BadLettersError),
        (lambda c: c.pdq_check("P/N", "pan"), BadLettersError),
    ],
)
def test_bad_input_raises_the_same_exception_as_in_process(client: Client, call, error) -> None:
    with pytest.raises(error) as raised:
        call(client)
    assert str(raised.value)  # the service's readable message travels with it


def test_an_error_that_is_not_about_input_is_a_service_error(client: Client) -> None:
    with pytest.raises(ServiceError) as raised:
        client.bop_challenge([])  # an empty play is a malformed body (422), not bad letters
    assert raised.value.status == 422 and raised.value.code == "malformed_body"


def test_the_http_adjudicator_agrees_with_the_local_one(client: Client, lexicon: Lexicon) -> None:
    remote, local = HttpAdjudicator(client), LocalAdjudicator(lexicon)
    assert remote.version == local.version and remote.lexicon == local.lexicon
    assert remote.is_word("whammy") and not remote.is_word("whmmy")
    assert remote.bop_lines(["FRS", "C?WB"], limit=3) == local.bop_lines(["FRS", "C?WB"], limit=3)
    assert remote.pdq_check("DRU", "drum") == local.pdq_check("DRU", "drum")
