"""Schemathesis against a real server, as an outside client would run it: every check, every operation.

This is ``schemathesis run URL/openapi.json --checks all`` (its own CLI, in a subprocess) against
``tablejudge serve``, bounded to ``EXAMPLES`` generated cases per operation (and the coverage phase's
boundary cases) with a fixed seed, so CI reproduces what it finds. Any failure of any check fails
the test, not only a 5xx: a request the schema admits refused (ST202) or one it refuses accepted
(ST201), an answer unlike its documentation, a wrong ``Allow`` on a 405, and the rest.

Every operation the served schema documents is tried, so an endpoint joins by being documented.
Beyond schemathesis' defaults, the run expects what the repository's ``schemathesis.toml`` says
(a request may be refused for its size) and what each operation documents: one that documents
401, 403, 409 or 422 may answer it to a request its schema admits (no token, not this seat's
turn, a stale version, a move the rules refuse), except a 422 documented as the malformed-body
answer, which only a body the schema refuses gets.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.errors import BODY_ERROR_RESPONSES

pytestmark = [pytest.mark.server, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[2]
#: Generated cases per operation, on top of the coverage phase's: about 700 cases in all, ~20 s on 2 cores.
EXAMPLES = int(os.environ.get("TABLEJUDGE_FUZZ_EXAMPLES", "50"))
SEED = os.environ.get("TABLEJUDGE_FUZZ_SEED", "18")

#: Statuses that refuse a request whatever its form, for what a schema cannot say: who asks (401,
#: 403), the state of things (409), the rules of a game (422). schemathesis' defaults for a request
#: the schema admits: 2xx, 3xx, 401, 403, 404, 409, 429, 5xx (a 5xx fails another check).
REFUSALS = ("401", "403", "409", "422")
POSITIVE_DEFAULTS = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
MALFORMED_BODY = BODY_ERROR_RESPONSES[422]["description"]


def refusals(operation: dict[str, Any]) -> list[str]:
    """The refusals this operation documents, which a request its schema admits may get."""
    documented = operation.get("responses", {})
    return [
        status
        for status in REFUSALS
        if status in documented and documented[status].get("description") != MALFORMED_BODY
    ]


def run_config(schema: dict[str, Any]) -> str:
    """The repository's schemathesis.toml, and each operation's documented refusals."""
    config = (REPO_ROOT / "schemathesis.toml").read_text()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            extra = [status for status in refusals(operation) if status not in POSITIVE_DEFAULTS]
            if extra:  # by name, "POST /v1/...": an include-path and an include-method would each select alone
                config += (
                    f"\n[[operations]]\ninclude-name = {json.dumps(f'{method.upper()} {path}')}\n"
                    f"checks.positive_data_acceptance.expected-statuses = {json.dumps(POSITIVE_DEFAULTS + extra)}\n"
                )
    return config


def test_each_operation_may_get_the_refusals_it_documents() -> None:
    move = {"responses": {"200": {}, "401": {}, "409": {"description": "stale version"}, "422": {"description": "no"}}}
    challenge = {"responses": {"200": {}, "400": {}, "413": {}, "422": {"description": MALFORMED_BODY}}}
    assert refusals(move) == ["401", "409", "422"] and refusals(challenge) == []
    config = tomllib.loads(run_config({"paths": {"/v1/matches/{id}/moves": {"post": move}, "/v1/bop/challenge": {}}}))
    assert config["operations"] == [
        {
            "include-name": "POST /v1/matches/{id}/moves",
            "checks": {"positive_data_acceptance": {"expected-statuses": [*POSITIVE_DEFAULTS, "422"]}},
        }
    ]
    assert "414" in config["checks"]["negative_data_rejection"]["expected-statuses"]  # the repository's own


def test_the_schema_says_exactly_what_the_server_takes(live_server: str, tmp_path: Path) -> None:
    schema = httpx.get(f"{live_server}/openapi.json", timeout=10).json()
    config = tmp_path / "schemathesis.toml"
    config.write_text(run_config(schema))
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
    command += [f"{live_server}/openapi.json", "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", SEED]
    command += ["--workers", "1", "--request-timeout", "10", "--no-color"]
    # In a scratch folder: schemathesis keeps its example database and crash cache in the working directory.
    ran = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"schemathesis found failures:\n{ran.stdout[-8000:]}\n{ran.stderr[-2000:]}"
    tested = {line.strip() for line in ran.stdout.splitlines() if "Tested:" in line}
    documented = sum(1 for operations in schema["paths"].values() for _ in operations)
    assert tested == {f"Tested: {documented}"}, ran.stdout[-3000:]
