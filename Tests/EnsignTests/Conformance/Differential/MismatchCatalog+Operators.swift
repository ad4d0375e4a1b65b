/// The classes reference.py recognises while the Python core evaluates a rule: the
/// situations where flagd's Go daemon (jsonlogic v3.9.1 and flagd's own operators) answers
/// otherwise, each from the research note `flagd-semantics.md` (section in brackets).
extension MismatchClass {
    static let operatorClasses: [MismatchClass] = [
        event(
            "loose-equality-null",
            "== / != between null and a non-null: Go false (js too); Python null == 0 is true [11]"),
        event(
            "loose-equality-structured",
            "== / != with an array or object: Go compares as NaN (false); Python by text/identity [11]"),
        event(
            "numeric-text-coercion",
            "a string read as a number: Go ParseFloat without trimming, \"\" as 0 (comparisons) or errors as 0"
                + " (arithmetic); Python float() trims and gives NaN [11]"),
        event("strict-equality-bool-number", "=== between a bool and a number: Go false; Python 1 == True [11]"),
        event("strict-equality-structured", "=== with arrays or objects: Go false; Python compares by value [11]"),
        event("ordering-structured", "<, <=, >, >= with an array or object: Go NaN (false); Python coerces [11]"),
        event(
            "ordering-null-string",
            "< between null and a string: Go compares numbers (null is 0); Python \"null\" as text"),
        event(
            "ordering-null-third-operand", "a 3-operand comparison whose third is null: Go compares it; Python drops it"
        ),
        event(
            "number-precision",
            "integers beyond 2^53: Go reads every JSON number as a float64; Python keeps exact ints [13.14]"),
        event("truthiness", "truthiness of {} (Go false, Python true) or NaN (Go true, Python false) [11]"),
        event(
            "arithmetic-non-number",
            "arithmetic on null, a bool, an array or an object: Go PARSE_ERROR; Python coerces [11]"),
        event(
            "division-by-zero",
            "/ or % by zero: Go NaN/Inf (PARSE_ERROR as a result); Python raises ZeroDivisionError [11]"),
        event("modulo-sign", "% with operands of opposite signs: Go truncates (-7 % 3 = -1); Python floors (2) [11]"),
        event(
            "chained-operands", "- / % with three or more operands: Go applies each in turn; Python the first two [11]"),
        event("min-max-empty", "max/min of nothing: Go null; Python NaN (GENERAL) [2]"),
        event(
            "cat-non-scalar",
            "cat of null (Go \"\"), a bool, an array or an object (Go PARSE_ERROR); Python writes text [11]"),
        event("cat-number-format", "cat of a float: Go FormatFloat('f', -1), never an exponent; Python %.15g [11]"),
        event("cat-trims", "cat of two or more values: Go trims the result's outer whitespace; Python keeps it [11]"),
        event("substr-start-past-end", "substr starting past the end: Go the whole string; Python \"\" [8]"),
        event(
            "equality-too-few-operands",
            "==, ===, != and !== with fewer than two operands: Go false (== and ===) or true (!= and !==), in"
                + " jsonlogic v3.9.1 comp.go; Python compares the missing operands as None"),
        event(
            "substr-start-before-beginning",
            "substr whose negative start reaches before the beginning: Go the whole string (jsonlogic v3.9.1"
                + " strings.go returns it unsliced); Python starts at 0 and still applies the length"),
        event("substr-end-before-start", "substr whose end falls before its start: Go PARSE_ERROR; Python \"\" [8]"),
        event(
            "substr-length-past-end",
            "substr whose length runs past the end: Go slices runes by index; Python clamps [8]"),
        event("substr-non-string", "substr of a bool, null, array or object: Go PARSE_ERROR; Python its text [8]"),
        event("missing-empty-string", "missing: Go counts \"\" as present; Python as missing [11]"),
        event("missing-nested-keys", "missing with nested arrays: Go reads [key, default]; Python the keys [11]"),
        event("var-null-path", "{\"var\": null}: Go null; Python the whole data [11]"),
        event("var-numeric-path", "var with a number path: Go formats it as a key; Python looks up the number [11]"),
        event("var-odd-path", "var with a bool, array or object path [11]"),
        event("var-empty-segment", "var path with an empty segment (a..b): Go skips it; Python looks up \"\" [11]"),
        event(
            "var-array-segment",
            "var segment on an array that is not an index (length, x, 01): Go element 0; Python length/null [8]"),
        event("var-string-segment", "var segment on a string: Go null (strings are not indexed); Python indexes [8]"),
        event(
            "python-targeting-key-null",
            "the whole context: Python adds targetingKey: null when there is none; Go does not [10]"),
        event("in-non-string-needle", "in a string with a non-string needle: Go PARSE_ERROR; Python its text [4]"),
        event(
            "in-mixed-kinds",
            "in an array with a number/bool needle and other kinds: Go parses or PARSE_ERROR; Python == [4]"),
        event("in-structured", "in with arrays (Go reads a nested array as a range) or objects [4]"),
        event("in-odd-haystack", "in a number, bool or object haystack [4]"),
        event(
            "iteration-over-non-array",
            "some/all/none over a truthy non-array, filter/map/reduce over any: Go PARSE_ERROR; Python false/[] [3]"),
        event(
            "iteration-outer-variable",
            "some/none/filter: Go substitutes vars found in the outer data before each element [3]"),
        event(
            "reduce-initial-expression",
            "reduce's initial value as an expression: Go evaluates it; Python uses it as written [3]"),
        event("reduce-initial-type", "reduce's initial value null or structured: Go PARSE_ERROR; Python uses it [3]"),
        event(
            "reduce-no-collection",
            "reduce of no collection (null, a literal string): Go 0; Python its initial value [3]"),
        event("reduce-null-element", "reduce over null elements: Go skips them; Python reduces them [3]"),
        event(
            "reduce-accumulator",
            "reduce whose step changes type: Go coerces to the initial value's type; Python keeps it [3]"),
        event(
            "scalar-operand",
            "an operator given a scalar where Go asserts an array (or merge of null): Go PARSE_ERROR [2]"),
        event(
            "too-few-operands",
            "too few operands (%, /, substr, in, some, comparisons): Go PARSE_ERROR; Python defaults [2]"),
        event("if-object-result", "if whose branch value is a one-key object: Go evaluates it again as logic [13.1]"),
        event("fractional-empty-key", "fractional bucketing by \"\": Go hashes it; Python gives null [1]"),
        event(
            "fractional-null-key",
            "fractional whose first argument is null: Go falls back to flagKey+targetingKey; Python null [1]"),
        event("fractional-weight-form", "fractional weight 50.0, null or a third element: Go accepts; Python null [1]"),
        event(
            "fractional-structured-variant",
            "fractional with an object/array variant: Go null (DEFAULT); Python GENERAL [1]"),
        event(
            "semver-short-with-suffix",
            "sem_ver 1.2-beta (shorthand with a suffix): Go invalid (null); Python pads it [9]"),
        event(
            "result-number-name",
            "a float result naming a variant: Go JSON-encodes (1.0 → \"1\"); Python str() (\"1.0\") [12]"),
        event("result-structured", "an array or object result: Go names variant [on]/{a:1}; Python GENERAL [12]"),
        event(
            "result-escaped-name",
            "a result with \" \\ < > & or control characters: Go's HTML-escaping encoder makes it GENERAL [12]"),
        event("result-empty-name", "a result \"\" naming the variant \"\": Go selects it; Python cannot (falsy) [12]"),
        MismatchClass(
            id: "python-uncaught-exception",
            summary: "an exception the Python core lets escape (OpenFeature's client reports GENERAL) [0.1]"
        ) { evidence in evidence.events.contains { $0.hasPrefix("python-uncaught-") } },
    ]
}
