/// The classes reference.py recognises while the Python core evaluates a rule: the
/// situations where flagd's Go daemon (jsonlogic v3.9.1 and flagd's own operators) answers
/// otherwise. `Sources/Ensign/Ensign.docc/FlagdSemantics.md` goes through them by topic. A
/// comment marks the classes where Ensign does not give Go's answer throughout (that article's
/// "Deliberate differences" lists them).
extension MismatchClass {
    static let operatorClasses: [MismatchClass] = [
        event(
            "loose-equality-null",
            "== / != between null and a non-null: Go false (js too); Python null == 0 is true"),
        // Ensign: Go's false between two containers; JavaScript's coercion with a scalar.
        event(
            "loose-equality-structured",
            "== / != with an array or object: Go compares as NaN (false); Python by text/identity"),
        // Ensign: Go's reading in arithmetic; JavaScript's in comparisons (" 42" == 42, as in Python).
        event(
            "numeric-text-coercion",
            "a string read as a number: Go ParseFloat without trimming, \"\" as 0 (comparisons) or errors as 0"
                + " (arithmetic); Python float() trims and gives NaN"),
        event("strict-equality-bool-number", "=== between a bool and a number: Go false; Python 1 == True"),
        event("strict-equality-structured", "=== with arrays or objects: Go false; Python compares by value"),
        // Ensign: JavaScript's coercion, not Go's NaN.
        event("ordering-structured", "<, <=, >, >= with an array or object: Go NaN (false); Python coerces"),
        event(
            "ordering-null-string",
            "< between null and a string: Go compares numbers (null is 0); Python \"null\" as text"),
        event(
            "ordering-null-third-operand", "a 3-operand comparison whose third is null: Go compares it; Python drops it"
        ),
        // Ensign: float64 in arithmetic, as Go; two integers compare exactly, as in Python.
        event(
            "number-precision",
            "integers beyond 2^53: Go reads every JSON number as a float64; Python keeps exact ints"),
        // Ensign: Go's truthiness only for a quantifier's collection and reduce; JavaScript's in conditions.
        event("truthiness", "truthiness of {} (Go false, Python true) or NaN (Go true, Python false)"),
        event(
            "arithmetic-non-number",
            "arithmetic on null, a bool, an array or an object: Go PARSE_ERROR; Python coerces"),
        event(
            "division-by-zero",
            "/ or % by zero: Go NaN/Inf (PARSE_ERROR as a result); Python raises ZeroDivisionError"),
        event("modulo-sign", "% with operands of opposite signs: Go truncates (-7 % 3 = -1); Python floors (2)"),
        event(
            "chained-operands",
            "- and / with three or more operands: Go applies each in turn; Python the first two (both do for %)"),
        event("min-max-empty", "max/min of nothing: Go null; Python NaN (GENERAL)"),
        event(
            "cat-non-scalar",
            "cat of null (Go \"\"), a bool, an array or an object (Go PARSE_ERROR); Python writes text"),
        event("cat-number-format", "cat of a float: Go FormatFloat('f', -1), never an exponent; Python %.15g"),
        event("cat-trims", "cat of two or more values: Go trims the result's outer whitespace; Python keeps it"),
        event("substr-start-past-end", "substr starting past the end: Go the whole string; Python \"\""),
        event(
            "equality-too-few-operands",
            "==, ===, != and !== with fewer than two operands: Go false (== and ===) or true (!= and !==), in"
                + " jsonlogic v3.9.1 comp.go; Python compares the missing operands as None"),
        event(
            "substr-start-before-beginning",
            "substr whose negative start reaches before the beginning: Go the whole string (jsonlogic v3.9.1"
                + " strings.go returns it unsliced); Python starts at 0 and still applies the length"),
        event("substr-end-before-start", "substr whose end falls before its start: Go PARSE_ERROR; Python \"\""),
        event(
            "substr-length-past-end",
            "substr whose length runs past the end: Go slices runes by index; Python clamps"),
        event("substr-non-string", "substr of a bool, null, array or object: Go PARSE_ERROR; Python its text"),
        event("missing-empty-string", "missing: Go counts \"\" as present; Python as missing"),
        event("missing-nested-keys", "missing with nested arrays: Go reads [key, default]; Python the keys"),
        event("var-null-path", "{\"var\": null}: Go null; Python the whole data"),
        event("var-numeric-path", "var with a number path: Go formats it as a key; Python looks up the number"),
        event("var-odd-path", "var with a bool, array or object path"),
        event("var-empty-segment", "var path with an empty segment (a..b): Go skips it; Python looks up \"\""),
        event(
            "var-array-segment",
            "var segment on an array that is not an index (length, x, 01): Go element 0; Python length/null"),
        event("var-string-segment", "var segment on a string: Go null (strings are not indexed); Python indexes"),
        event(
            "python-targeting-key-null",
            "the whole context: Python adds targetingKey: null when there is none; Go does not"),
        event("in-non-string-needle", "in a string with a non-string needle: Go PARSE_ERROR; Python its text"),
        event(
            "in-mixed-kinds",
            "in an array with a number/bool needle and other kinds: Go parses or PARSE_ERROR; Python =="),
        event("in-structured", "in with arrays (Go reads a nested array as a range) or objects"),
        event("in-odd-haystack", "in a number, bool or object haystack"),
        event(
            "iteration-over-non-array",
            "some/all/none over a truthy non-array, filter/map/reduce over any: Go PARSE_ERROR; Python false/[]"),
        // Ensign: no substitution, as in Python.
        event(
            "iteration-outer-variable",
            "some/none/filter: Go substitutes vars found in the outer data before each element"),
        event(
            "reduce-initial-expression",
            "reduce's initial value as an expression: Go evaluates it; Python uses it as written"),
        event("reduce-initial-type", "reduce's initial value null or structured: Go PARSE_ERROR; Python uses it"),
        event(
            "reduce-no-collection",
            "reduce of no collection (null, a literal string): Go 0; Python its initial value"),
        event("reduce-null-element", "reduce over null elements: Go skips them; Python reduces them"),
        event(
            "reduce-accumulator",
            "reduce whose step changes type: Go coerces to the initial value's type; Python keeps it"),
        event(
            "scalar-operand",
            "an operator given a scalar where Go asserts an array (or merge of null): Go PARSE_ERROR"),
        event(
            "too-few-operands",
            "too few operands (%, /, substr, in, some, comparisons): Go PARSE_ERROR; Python defaults"),
        // Ensign: the object is returned, as in Python.
        event("if-object-result", "if whose branch value is a one-key object: Go evaluates it again as logic"),
        event("fractional-empty-key", "fractional bucketing by \"\": Go hashes it; Python gives null"),
        event(
            "fractional-null-key",
            "fractional whose first argument is null: Go falls back to flagKey+targetingKey; Python null"),
        event("fractional-weight-form", "fractional weight 50.0, null or a third element: Go accepts; Python null"),
        event(
            "fractional-structured-variant",
            "fractional with an object/array variant: Go null (DEFAULT); Python GENERAL"),
        event(
            "semver-short-with-suffix",
            "sem_ver 1.2-beta (shorthand with a suffix): Go invalid (null); Python pads it"),
        event(
            "result-number-name",
            "a float result naming a variant: Go JSON-encodes (1.0 → \"1\"); Python str() (\"1.0\")"),
        event("result-structured", "an array or object result: Go names variant [on]/{a:1}; Python GENERAL"),
        event(
            "result-escaped-name",
            "a result with \" \\ < > & or control characters: Go's HTML-escaping encoder makes it GENERAL"),
        event("result-empty-name", "a result \"\" naming the variant \"\": Go selects it; Python cannot (falsy)"),
        MismatchClass(
            id: "python-uncaught-exception",
            summary: "an exception the Python core lets escape (OpenFeature's client reports GENERAL)"
        ) { evidence in evidence.events.contains { $0.hasPrefix("python-uncaught-") } },
    ]
}
