"""House rules: a table's named overlay on the lexicon, made once and named by id by a challenge, a
check or a match (``indexes.house_rules``): kept in the ``HouseRulesBook`` the app shares between the judge
and the match server (``app.state.house_rules``), owned by neither."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from indexes.house_rules import HOUSE_NAME, HOUSE_RULES_ID, HOUSE_WORD, MAX_HOUSE_WORDS, MAX_NAME_LENGTH
from indexes.notation import openapi_pattern
from matches.http import ErrorBody
from service.errors import BODY_ERROR_RESPONSES, TARGET_TOO_LONG_RESPONSES

router = APIRouter(prefix="/v1/house-rules", tags=["house rules"])

#: Each constraint from the one definition the library checks (``indexes.house_rules``).
HouseWord = Annotated[str, Field(pattern=openapi_pattern(HOUSE_WORD), min_length=1, max_length=64)]
HouseWords = Annotated[list[HouseWord], Field(max_length=MAX_HOUSE_WORDS)]


class HouseRulesBody(BaseModel):
    """A named overlay: words the table allows and words it denies, lower-case a-z, at most 250 of each."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Our table", "allow": ["qi"], "deny": ["za"]}]},
    )

    name: str = Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=openapi_pattern(HOUSE_NAME),
        description="what the table calls them (no control characters)",
    )
    allow: HouseWords = Field(default_factory=list, description="words that stand at this table, lexicon or not")
    deny: HouseWords = Field(default_factory=list, description="words that never stand at this table")


class HouseRules(BaseModel):
    id: str = Field(description="name it as `house_rules` in a check, a challenge or a match")
    name: str
    allow: list[str]
    deny: list[str]


RULES_ID = Annotated[str, Path(pattern=openapi_pattern(HOUSE_RULES_ID), description="the house rules' id")]


@router.post(
    "",
    status_code=201,
    response_model=HouseRules,
    summary="Make house rules: a named list of words allowed and denied",
    responses={
        **BODY_ERROR_RESPONSES,
        422: {
            "model": ErrorBody,
            "description": "the body is not the JSON this route takes, or its lists contradict each other "
            "(a word both allowed and denied)",
        },
    },
)
async def make_house_rules(request: Request, body: HouseRulesBody) -> Any:
    """Check and keep house rules; the answer's `id` names them. The id is a digest of the content, so
    the same rules made twice get the same id. They never change: make new ones to change them."""
    rules = request.app.state.house_rules.make(body.name, body.allow, body.deny)
    return rules.to_json()


@router.get(
    "/{rules_id}",
    response_model=HouseRules,
    summary="House rules by id",
    responses={
        400: {"model": ErrorBody, "description": "not a house rules id (hr- and ten characters)"},
        404: {"model": ErrorBody, "description": "no house rules with that id"},
        **TARGET_TOO_LONG_RESPONSES,
    },
)
async def get_house_rules(request: Request, rules_id: RULES_ID) -> Any:
    return request.app.state.house_rules.get(rules_id).to_json()
