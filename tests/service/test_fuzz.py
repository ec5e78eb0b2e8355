"""Fuzz the API from its own OpenAPI schema: whatever arrives, nothing answers 5xx.

In-process (schemathesis's own ASGI transport), a few hundred cases in all; answers must also
match the schema they were documented with (the error body included).
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from service.app import create_app
from service.settings import Settings

pytestmark = pytest.mark.slow

app = create_app(Settings(lexicons=("standard",)))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

#: About 40 cases for each of the 8 operations: a few hundred in all.
CASES_PER_OPERATION = 40


@schema.parametrize()
@settings(
    max_examples=CASES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_input_makes_the_service_fail(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance, content_type_conformance])
