"""Schemathesis hooks for scripts/ofrep-conformance: the OFREP OpenAPI document read as its prose means.

The document (../shared/ofrep/service/openapi.yaml, read in place and never copied) is changed
here in memory only, after schemathesis reads it and before it builds anything from it.

Readings of the document, where its schemas say other than its prose (responses):

(a) evaluationSuccess is `allOf: [..., oneOf: [booleanFlag, ..., objectFlag, codeDefaultFlag]]`,
    and codeDefaultFlag is `{type: object, properties: {}}`, which every object matches: a
    response with a value matches its type's branch *and* codeDefaultFlag, so `oneOf` (exactly
    one) never holds. Its description says it is the response *without* `value` ("This schema
    has no `value` property"; ADR 0006): codeDefaultFlag gets `not: {required: [value]}`.
(b) An integer is also a number, so an integer value matches both integerFlag and floatFlag, and
    `oneOf` fails again. The branches list the types a value may have: `oneOf` becomes `anyOf`.
    With (a), `anyOf` still requires a value of one of the five types, or no value at all.
(c) The success `reason` enum lists STATIC, TARGETING_MATCH, SPLIT, DISABLED and UNKNOWN, and its
    description defers to OpenFeature's resolution reasons, which include DEFAULT (requirement
    2.2.5, ../shared/conformance/openfeature-spec/sections/02-providers.md); flagd answers it
    when a rule returns null (../shared/conformance/flagd-testbed/evaluator/gherkin/
    targeting.feature), and so does ensign serve: DEFAULT is added.
(d) A single evaluation's 400 is evaluationFailure, whose errorCode may be PARSE_ERROR,
    TARGETING_KEY_MISSING or GENERAL: errors of the flag (a broken definition, a split that needs
    a targeting key), which a well-formed request meets too. So a well-formed request answered
    400 with such a code, for the key it asked, is not a rejected request; schemathesis's
    positive_data_acceptance would call it one, and the run uses the check below instead.

What ensign serve accepts beyond the document, on purpose (requests; only what the server
documents as deliberate, so a new leniency still fails the run's negative_data_rejection):

(e) `context`, and `targetingKey` inside it, may be left out (OFREPEvaluationRequest in
    Sources/EnsignOFREP/Wire: OpenFeature's providers send anonymous contexts without a
    targeting key, and the Python provider 0.3.0 sends `{}`). Each keeps its type when present.
(f) `flagConfigLastModified` is informational and never read (OFREPHTTPRequest.query in
    Sources/EnsignOFREP/Service; ADR 0008 leaves its use to the server), so any text is accepted.

Each change checks the shape it changes and stops the run when the document no longer has it
(a newer document may have fixed it, or moved it), rather than quietly testing something else.
"""

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

VALUE_BRANCHES = [
    "#/components/schemas/booleanFlag",
    "#/components/schemas/stringFlag",
    "#/components/schemas/integerFlag",
    "#/components/schemas/floatFlag",
    "#/components/schemas/objectFlag",
    "#/components/schemas/codeDefaultFlag",
]
SINGLE_EVALUATION = "/ofrep/v1/evaluate/flags/{key}"
FLAG_ERROR_CODES = {"PARSE_ERROR", "TARGETING_KEY_MISSING", "GENERAL"}


class DocumentChanged(Exception):
    """The document is not the one these readings were written for."""


def _require(condition, what):
    if not condition:
        raise DocumentChanged(
            f"ofrep-conformance: the OFREP document changed ({what}); "
            "review Tests/Fixtures/OFREPConformance/schema_readings.py against it"
        )


@schemathesis.hook
def before_load_schema(context, raw_schema):
    components = raw_schema.get("components", {})
    schemas = components.get("schemas", {})

    # (a) codeDefaultFlag is the response without a value.
    code_default = schemas.get("codeDefaultFlag", {})
    _require(
        code_default.get("type") == "object"
        and code_default.get("properties") == {}
        and not ({"required", "not", "additionalProperties"} & code_default.keys()),
        "codeDefaultFlag is no longer any object",
    )
    code_default["not"] = {"required": ["value"]}

    # (b) The value branches: any that matches, not exactly one.
    success = schemas.get("evaluationSuccess", {})
    value_parts = [part for part in success.get("allOf", []) if "oneOf" in part]
    _require(len(value_parts) == 1, "evaluationSuccess has no single oneOf of value types")
    _require(
        [branch.get("$ref") for branch in value_parts[0]["oneOf"]] == VALUE_BRANCHES,
        "evaluationSuccess's value branches are not booleanFlag … codeDefaultFlag",
    )
    value_parts[0]["anyOf"] = value_parts[0].pop("oneOf")

    # (c) DEFAULT is a success reason.
    reasons = [
        part["properties"]["reason"]
        for part in success["allOf"]
        if "reason" in part.get("properties", {})
    ]
    _require(len(reasons) == 1 and "enum" in reasons[0], "evaluationSuccess's reason has no enum")
    _require("DEFAULT" not in reasons[0]["enum"], "the reason enum has DEFAULT already")
    reasons[0]["enum"].append("DEFAULT")

    # (e) No context, or a context without a targeting key, is the anonymous context.
    for name, member in [
        ("evaluationRequest", "context"),
        ("bulkEvaluationRequest", "context"),
        ("context", "targetingKey"),
    ]:
        _require(schemas.get(name, {}).get("required") == [member], f"{name} no longer requires {member} alone")
        del schemas[name]["required"]

    # (f) The re-fetch hint is not read, so any value is accepted.
    last_modified = components.get("parameters", {}).get("flagConfigLastModified", {})
    _require(
        last_modified.get("in") == "query" and "oneOf" in last_modified.get("schema", {}),
        "flagConfigLastModified is no longer a query parameter of two forms",
    )
    last_modified["schema"] = {"type": "string"}


@schemathesis.check
def positive_data_acceptance_but_flag_errors(ctx, response, case):
    """positive_data_acceptance, except a single evaluation's 400 for an error of the flag (d)."""
    if case.path == SINGLE_EVALUATION and response.status_code == 400:
        try:
            body = response.json()
        except ValueError:
            body = None
        if (
            isinstance(body, dict)
            and body.get("errorCode") in FLAG_ERROR_CODES
            and body.get("key") == case.path_parameters.get("key")
        ):
            return None
    return positive_data_acceptance(ctx, response, case)
