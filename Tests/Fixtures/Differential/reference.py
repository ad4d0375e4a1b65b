"""The reference side of Ensign's differential harness (Tests/EnsignTests/Conformance/Differential).

Runs flagd's Python core, openfeature-flagd-core 1.0.0 (v2 fractional hashing, like the
flagd testbed's current cases), on cases read as JSON lines from stdin, and writes one JSON
line of results per case to stdout, flushed, so the harness can also ask one case at a time
while it shrinks a mismatch.

A case is one flag set and the evaluations made against it:
  {"id": 7, "config": "<the flag set's JSON text>",
   "evaluations": [{"flag": "f", "type": "bool|string|int|float|object", "context": {...}}]}
Its results:
  {"id": 7, "loadError": null | "ParseError: ...", "loadEvents": [...],
   "results": [{"value": ..., "variant": ..., "reason": ..., "errorCode": ..., "events": [...]}]}

Besides evaluating, the runner watches the evaluation for the situations in which flagd's Go
daemon (which Ensign follows) is known to answer differently from this Python core (the
FlagdSemantics article, Sources/Ensign/Ensign.docc/FlagdSemantics.md, goes through them), and
lists the ones reached as "events". The harness explains a mismatch only by an event that was
reached (or by a predicate of its own on the flag set); each event is named after a mismatch
class in MismatchCatalog.swift. The watchers call the original operators and return their
results unchanged, so they observe and never alter what the reference answers.
"""

import json
import logging
import math
import re
import sys
from decimal import Decimal

from json_logic import apply as jl_apply
from json_logic import builtins as jl_builtins
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import OpenFeatureError
from openfeature.contrib.tools.flagd.core import FlagdCore
import openfeature.contrib.tools.flagd.core.flagd_core as flagd_core_module
import openfeature.contrib.tools.flagd.core.targeting.targeting  # noqa: F401 (the module, not its function)

logging.disable(logging.CRITICAL)

# The package re-exports the function `targeting` under its module's name, so take the module itself.
flagd_targeting = sys.modules["openfeature.contrib.tools.flagd.core.targeting.targeting"]

# The caller's defaults, the same on both sides of the harness.
DEFAULTS = {"bool": False, "string": "fallback", "int": -1, "float": -1.5, "object": {"fallback": True}}

EVENTS = set()


def event(name):
    EVENTS.add(name)


# --- value kinds, as Go's jsonlogic sees JSON values ---------------------------------------


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


BIG = 2**53
GO_FLOAT = re.compile(
    r"^[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])$"
)


def go_parse_float(text):
    """strconv.ParseFloat(text, 64) on decimal text (no trimming), or None where it fails."""
    return float(text) if GO_FLOAT.match(text) else None


def same_number(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def go_compare_number(text):
    """javascript.ToNumber, which Go's comparisons use: blank is 0, unparsable is NaN."""
    if text.strip() == "":
        return 0.0
    parsed = go_parse_float(text)
    return math.nan if parsed is None else parsed


def go_arithmetic_number(text):
    """typing.ToNumber, which Go's arithmetic uses: unparsable (blank too) is 0."""
    parsed = go_parse_float(text)
    return 0.0 if parsed is None else parsed


def python_number(text):
    return float(jl_builtins.to_number(text))


def compares_otherwise(text):
    """Whether a string read as a number in a comparison reads differently in Go and in Python."""
    return not same_number(go_compare_number(text), python_number(text))


def is_big(value):
    return is_number(value) and isinstance(value, int) and abs(value) > BIG


def structured(value):
    return isinstance(value, (list, dict))


# --- watchers over json_logic's operators ---------------------------------------------------


def watch_loose_equality(a, b):
    ka, kb = kind(a), kind(b)
    if is_big(a) or is_big(b):
        event("number-precision")
    if structured(a) or structured(b):
        event("loose-equality-structured")
    elif ka != kb and "null" in (ka, kb):
        event("loose-equality-null")
    elif ka != kb and "string" in (ka, kb) and compares_otherwise(a if ka == "string" else b):
        event("numeric-text-coercion")


def watch_strict_equality(a, b):
    if structured(a) or structured(b):
        event("strict-equality-structured")
    elif {kind(a), kind(b)} == {"bool", "number"}:
        event("strict-equality-bool-number")


def watch_ordering(args):
    operands = list(args[:3])
    if len(operands) < 2:
        event("too-few-operands")
    if len(operands) == 3 and operands[2] is None:
        event("ordering-null-third-operand")
    if any(structured(x) for x in operands):
        event("ordering-structured")
    if any(is_big(x) for x in operands):
        event("number-precision")
    kinds = {kind(x) for x in operands}
    if "null" in kinds and "string" in kinds:
        event("ordering-null-string")
    if "string" in kinds and kinds != {"string"}:
        if any(isinstance(x, str) and compares_otherwise(x) for x in operands):
            event("numeric-text-coercion")


def watch_arithmetic(op, args):
    for arg in args:
        if arg is None or isinstance(arg, bool) or structured(arg):
            event("arithmetic-non-number")
        elif isinstance(arg, str) and not same_number(go_arithmetic_number(arg), python_number(arg)):
            event("numeric-text-coercion")
        elif is_big(arg):
            event("number-precision")
    if op in ("/", "%") and len(args) < 2:
        event("too-few-operands")
    if op in ("-", "/", "%") and len(args) > 2:
        event("chained-operands")
    if op in ("min", "max") and not args:
        event("min-max-empty")
    if op in ("/", "%") and len(args) >= 2:
        divisor = jl_builtins.to_number(args[1])
        dividend = jl_builtins.to_number(args[0])
        if divisor == 0:
            event("division-by-zero")
        elif op == "%" and not math.isnan(divisor) and not math.isnan(dividend) and dividend * divisor < 0:
            event("modulo-sign")


def go_format_float(value):
    """strconv.FormatFloat(value, 'f', -1, 64): the shortest digits that read back, never an exponent."""
    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def watch_cat(args):
    for arg in args:
        if arg is None or isinstance(arg, bool) or structured(arg):
            event("cat-non-scalar")
        elif isinstance(arg, float) and jl_builtins.to_string(arg) != go_format_float(arg):
            event("cat-number-format")
        elif is_big(arg):
            event("number-precision")
    if len(args) >= 2:
        joined = "".join(jl_builtins.to_string(a) for a in args)
        if joined != joined.strip():
            event("cat-trims")


def watch_substr(args):
    if len(args) < 2:
        event("too-few-operands")
        return
    subject = args[0]
    if not isinstance(subject, str) and not is_number(subject):
        event("substr-non-string")
        return
    text = jl_builtins.to_string(subject)
    start = jl_builtins.to_number(args[1])
    if math.isnan(start):
        return
    start = int(start)
    if start > len(text) or (start == len(text) and len(text) > 0):
        event("substr-start-past-end")
    if start < 0 and len(text) + start < 0:
        event("substr-start-before-beginning")
    if len(args) >= 3 and args[2] is not None:
        length = jl_builtins.to_number(args[2])
        begin = start if start >= 0 else max(len(text) + start, 0)
        if not math.isnan(length) and int(length) < 0 and len(text) + int(length) < begin:
            event("substr-end-before-start")
        elif not math.isnan(length) and begin + int(length) > len(text):
            event("substr-length-past-end")


def watch_missing(data, args):
    keys = args[0] if args and isinstance(args[0], list) else list(args)
    for key in keys:
        if structured(key):
            event("missing-nested-keys")
        elif original_var(data, key) == "":
            event("missing-empty-string")


def watch_var(data, args):
    key = args[0] if args else None
    if key is None and args:
        event("var-null-path")
        return
    if is_number(key):
        event("var-numeric-path")
        return
    if isinstance(key, bool) or structured(key):
        event("var-odd-path")
        return
    if not isinstance(key, str) or key == "":
        if data is CURRENT_ROOT and isinstance(data, dict) and data.get("targetingKey") is None:
            event("python-targeting-key-null")
        return
    props = key.split(".")
    if len(props) > 1 and "" in props:
        event("var-empty-segment")
    current = data
    for prop in props:
        if isinstance(current, list):
            if not (prop.isascii() and prop.isdigit() and str(int(prop)) == prop):
                event("var-array-segment")
                return
            index = int(prop)
            if index >= len(current):
                return
            current = current[index]
        elif isinstance(current, str):
            event("var-string-segment")
            return
        elif isinstance(current, dict):
            current = current.get(prop)
        else:
            return


def watch_in(args):
    if not args:
        event("too-few-operands")
        return
    needle = args[0]
    haystack = args[1] if len(args) > 1 else None
    if structured(needle):
        event("in-structured")
    if isinstance(haystack, str):
        if not isinstance(needle, str):
            event("in-non-string-needle")
    elif isinstance(haystack, list):
        for element in haystack:
            if structured(element):
                event("in-structured")
            elif kind(needle) in ("number", "bool") and kind(element) != kind(needle):
                event("in-mixed-kinds")
    elif haystack is not None:
        event("in-odd-haystack")


def watch_fractional(args):
    if not args:
        return
    first = args[0]
    if first == "":
        event("fractional-empty-key")
    if first is None:
        event("fractional-null-key")
    buckets = args[1:] if isinstance(first, str) or first is None else args
    for bucket in buckets:
        if not isinstance(bucket, list) or not bucket:
            continue
        if structured(bucket[0]):
            event("fractional-structured-variant")
        if len(bucket) > 2:
            event("fractional-weight-form")
        elif len(bucket) == 2:
            weight = bucket[1]
            if weight is None or (isinstance(weight, float) and weight.is_integer()):
                event("fractional-weight-form")


SEMVER_SHORT_SUFFIX = re.compile(r"^[vV]?[0-9]+(\.[0-9]+)?[-+]")


def watch_sem_ver(args):
    if len(args) != 3:
        return
    for version in (args[0], args[2]):
        if isinstance(version, str) and SEMVER_SHORT_SUFFIX.match(version):
            event("semver-short-with-suffix")
        if is_big(version):
            # Go formats the float64 with %v: 9.007199254740992e+15, not a version.
            event("number-precision")


# Operators whose operand must be an array in Go's jsonlogic (a scalar panics: PARSE_ERROR).
ARRAY_OPERAND = {
    "if", "?:", "and", "or", "==", "===", "!=", "!==", "<", "<=", ">", ">=", "in", "substr", "max", "min",
    "*", "-", "/", "%", "some", "all", "none", "filter", "map", "reduce", "missing_some",
}
ITERATING = {"some", "all", "none", "filter", "map", "reduce"}
SHADOWING = {"some", "none", "filter"}
CURRENT_ROOT = None


def variable_paths(logic):
    """The string paths of every var in a rule."""
    if isinstance(logic, list):
        for item in logic:
            yield from variable_paths(item)
    elif isinstance(logic, dict):
        for op, args in logic.items():
            if op == "var":
                path = args[0] if isinstance(args, list) and args else args
                if isinstance(path, str):
                    yield path
            yield from variable_paths(args)


def watch_structure(logic, data, operations):
    op = next(iter(logic))
    args = logic[op]
    if (op in ARRAY_OPERAND and not isinstance(args, list)) or (op == "merge" and args is None):
        event("scalar-operand")
        return
    if op not in ITERATING:
        return
    if len(args) < 2:
        event("too-few-operands")
        return
    items = original_apply(args[0], data, operations)
    # Go's some/all/none first test the collection's truthiness; filter/map/reduce do not, so
    # any value but null or an array ("" and {} included) makes them fail.
    quantifier = op in ("some", "all", "none")
    if isinstance(args[0], dict) and not isinstance(items, list) and (
            go_truthy(items) if quantifier else items is not None):
        event("iteration-over-non-array")
    if op in SHADOWING:
        for path in variable_paths(args[1]):
            if path and not path.startswith(".") and original_var(data, path) is not None:
                event("iteration-outer-variable")
    if op == "reduce":
        initial = args[2] if len(args) > 2 else None
        if not isinstance(items, list) or not isinstance(args[0], (list, dict)):
            event("reduce-no-collection")
        if isinstance(initial, dict):
            event("reduce-initial-expression")
        elif initial is None or structured(initial):
            event("reduce-initial-type")
        if isinstance(items, list) and any(item is None for item in items):
            event("reduce-null-element")
        if isinstance(items, list) and not isinstance(initial, dict):
            accumulator = initial
            for item in items:
                step = original_apply(args[1], {"current": item, "accumulator": accumulator}, operations)
                if kind(step) != kind(initial):
                    event("reduce-accumulator")
                    break
                accumulator = step


def go_truthy(value):
    if isinstance(value, bool):
        return value
    if is_number(value):
        return value != 0
    if isinstance(value, (str, list, dict)):
        return len(value) > 0
    return False


def traced_apply(logic, data=None, operations=jl_builtins.BUILTINS):
    global CURRENT_ROOT
    if CURRENT_ROOT is None:
        CURRENT_ROOT = data
    if isinstance(logic, dict) and len(logic) == 1:
        watching(watch_structure, logic, data, operations)
    result = original_apply(logic, data, operations)
    if isinstance(logic, dict) and len(logic) == 1 and next(iter(logic)) in ("if", "?:"):
        if isinstance(result, dict) and len(result) == 1:
            event("if-object-result")
    return result


def traced_to_bool(value=None):
    if value == {} or (isinstance(value, float) and math.isnan(value)):
        event("truthiness")
    return original_to_bool(value)


def traced_not(value=None):
    if value == {} or (isinstance(value, float) and math.isnan(value)):
        event("truthiness")
    return original_not(value)


def watching(watcher, *args):
    """Runs a watcher; one that fails reports nothing, and never changes what the core answers."""
    try:
        watcher(*args)
    except Exception as error:  # a watcher's own bug: say so on stderr, evaluate as usual
        sys.stderr.write(f"watcher {watcher.__name__} failed: {type(error).__name__}: {error}\n")


def wrap(name, watcher):
    original = flagd_targeting.OPERATORS[name]

    def watched(data=None, *args):
        watching(watcher, data, args)
        return original(data, *args)

    flagd_targeting.OPERATORS[name] = watched


original_apply = jl_apply.apply
original_to_bool = jl_builtins.to_bool
original_not = jl_builtins.not_
original_var = jl_builtins.op_var
jl_apply.apply = traced_apply
jl_apply.to_bool = traced_to_bool
jl_apply.not_ = traced_not
jl_builtins.to_bool = traced_to_bool
jl_builtins.not_ = traced_not


def watched_var(data=None, *args):
    watching(watch_var, data, args)
    return original_var(data, *args)


jl_builtins.op_var = watched_var
flagd_targeting.OPERATORS["var"] = watched_var
def watch_equality_operands(args):
    if len(args) < 2:
        event("equality-too-few-operands")


for _op in ("==", "!="):
    wrap(_op, lambda d, a: (watch_equality_operands(a), watch_loose_equality(a[0] if a else None, a[1] if len(a) > 1 else None)))
for _op in ("===", "!=="):
    wrap(_op, lambda d, a: (watch_equality_operands(a), watch_strict_equality(a[0] if a else None, a[1] if len(a) > 1 else None)))
for _op in ("<", "<=", ">", ">="):
    wrap(_op, lambda d, a: watch_ordering(a))
for _op in ("+", "-", "*", "/", "%", "min", "max"):
    wrap(_op, lambda d, a, op=_op: watch_arithmetic(op, a))
wrap("cat", lambda d, a: watch_cat(a))
wrap("substr", lambda d, a: watch_substr(a))
wrap("missing", watch_missing)
wrap("missing_some", lambda d, a: watch_missing(d, [a[1]]) if len(a) > 1 and isinstance(a[1], list) else None)
wrap("in", lambda d, a: watch_in(a))
wrap("fractional", lambda d, a: watch_fractional(a))
wrap("sem_ver", lambda d, a: watch_sem_ver(a))

flagd_targeting.jsonLogic = traced_apply
original_targeting = flagd_targeting.targeting


def traced_targeting(key, rule, evaluation_context=None):
    """Watches the rule's result, which the core turns into a variant name."""
    global CURRENT_ROOT
    CURRENT_ROOT = None
    result = original_targeting(key, rule, evaluation_context)
    if isinstance(result, float) and (result.is_integer() or "e" in repr(result) or not math.isfinite(result)):
        event("result-number-name")
    elif is_number(result) and abs(result) >= 1e21:
        event("result-number-name")
    elif structured(result):
        event("result-structured")
    elif isinstance(result, str) and any(c in result for c in '"\\<>&\u2028\u2029') or (
        isinstance(result, str) and any(ord(c) < 0x20 for c in result)
    ):
        event("result-escaped-name")
    elif result == "":
        event("result-empty-name")
    return result


flagd_core_module.targeting = traced_targeting


# --- the cases ----------------------------------------------------------------------------


GO_ESCAPED = re.compile('["\\\\<>&\u2028\u2029\x00-\x1f]')


def go_substitution(flags, evaluators):
    """The flags with each {"$ref": name} replaced by its evaluator, as flagd's Go daemon does it.

    Go replaces the text {"$ref":"<name>"} in the re-marshalled file, so a name that
    encoding/json writes escaped (quotes, backslashes, control characters, <, >, &, U+2028,
    U+2029) never matches and stays an unknown operator.
    """
    if isinstance(flags, list):
        return [go_substitution(item, evaluators) for item in flags]
    if isinstance(flags, dict):
        name = flags.get("$ref")
        if len(flags) == 1 and isinstance(name, str) and name in evaluators and not GO_ESCAPED.search(name):
            return evaluators[name]
        return {key: go_substitution(value, evaluators) for key, value in flags.items()}
    return flags


def substitution_differences(document):
    """Where Python's textual $ref substitution (a regex over json.dumps, whose ensure_ascii escapes
    every non-ASCII character, and whose replacement text is read as a template with backslash
    escapes) reads the flag set differently from Go's: the keys of the flags it reads otherwise,
    or None when it cannot substitute at all (the load then fails)."""
    if not isinstance(document, dict) or not isinstance(document.get("$evaluators"), dict):
        return set()
    evaluators = document["$evaluators"]
    flags = document.get("flags")
    if not evaluators or not isinstance(flags, dict):
        return set()
    expected = go_substitution(flags, evaluators)
    try:
        transposed = json.dumps(flags)
        for name, rule in evaluators.items():
            pattern = rf"{{\s*\"\$ref\":\s*\"{re.escape(name)}\"\s*}}"
            transposed = re.sub(pattern, json.dumps(rule), transposed)
        actual = json.loads(transposed)
    except Exception:
        return None
    return {key for key in flags if actual.get(key) != expected.get(key)}


def encode(value):
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return repr(value)
    return value


def evaluate(core, evaluation, rereferenced):
    EVENTS.clear()
    if evaluation["flag"] in rereferenced:
        event("python-ref-substitution")
    kind_name = evaluation["type"]
    context = evaluation.get("context")
    context = dict(context) if isinstance(context, dict) else {}
    targeting_key = context.pop("targetingKey", None)
    if targeting_key is not None and not isinstance(targeting_key, str):
        context["targetingKey"] = targeting_key
        targeting_key = None
    resolve = {
        "bool": core.resolve_boolean_value,
        "string": core.resolve_string_value,
        "int": core.resolve_integer_value,
        "float": core.resolve_float_value,
        "object": core.resolve_object_value,
    }[kind_name]
    default = DEFAULTS[kind_name]
    outcome = {"value": default, "variant": None, "reason": "ERROR", "errorCode": None}
    try:
        details = resolve(evaluation["flag"], default, EvaluationContext(targeting_key=targeting_key, attributes=context))
        reason = details.reason.value if hasattr(details.reason, "value") else str(details.reason)
        outcome.update({"value": encode(details.value), "variant": details.variant, "reason": reason})
    except OpenFeatureError as error:
        outcome["errorCode"] = error.error_code.value
    except Exception as error:  # an exception the core lets escape; OpenFeature's client reports GENERAL
        outcome["errorCode"] = "GENERAL"
        event("python-uncaught-" + type(error).__name__)
    outcome["events"] = sorted(EVENTS)
    return outcome


def run_case(case):
    core = FlagdCore()
    result = {"id": case.get("id"), "loadError": None, "loadEvents": [], "results": []}
    try:
        document = json.loads(case["config"])
        rereferenced = substitution_differences(document)
        if rereferenced is None:
            result["loadEvents"] = ["python-ref-substitution"]
        core.set_flags(document)
    except Exception as error:
        result["loadError"] = f"{type(error).__name__}: {error}"[:300]
        return result
    results = [evaluate(core, evaluation, rereferenced or set()) for evaluation in case["evaluations"]]
    result["results"] = results
    return result


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        result = run_case(json.loads(line))
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
