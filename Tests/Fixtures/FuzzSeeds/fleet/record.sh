#!/usr/bin/env bash
# Records the `fleet` fuzz target's seeds from a real etcd: the bodies of its v3 JSON gateway's
# responses, as libcurl hands them to the client (the HTTP framing is libcurl's to read), each
# prefixed with the target's selector byte and cut byte (see Sources/EnsignFuzz/FleetTarget.swift).
#
#   Tests/Fixtures/FuzzSeeds/fleet/record.sh http://127.0.0.1:2379
#
# Use a throwaway etcd: it writes and compacts keys under /app/flags/.
set -euo pipefail
url=${1:?usage: record.sh ETCD_URL}
out=$(dirname "$0")
b64() { printf '%s' "$1" | base64 -w0; }
post() { curl -s -X POST "$url$1" -d "$2"; }
# seed NAME SELECTOR CUT: stdin, prefixed with the selector and the cut byte, into NAME.
seed() { { printf '%s' "$2"; printf "\\x$(printf %02x "$3")"; cat; } > "$out/$1"; }

prefix=/app/flags/
key() { b64 "$prefix$1"; }
end=$(b64 /app/flags0)  # the range end of the prefix: its last byte incremented
post /v3/kv/put "{\"key\":\"$(key beneficiaries.pageSize)\",\"value\":\"$(b64 50)\"}" | seed put R 0
post /v3/kv/put "{\"key\":\"$(key beneficiaries.sortOrder)\",\"value\":\"$(b64 '"name"')\"}" >/dev/null
post /v3/kv/put "{\"key\":\"$(key beneficiaries.banner)\",\"value\":\"$(b64 '{ title: Hi, colors: [red] }')\"}" >/dev/null
post /v3/kv/put "{\"key\":\"$(key beneficiaries.feeRate)\",\"value\":\"$(b64 'not: [a number')\"}" >/dev/null
post /v3/kv/range "{\"key\":\"$(key '')\",\"range_end\":\"$end\"}" | seed range R 0
post /v3/kv/range "{\"key\":\"$(key missing)\"}" | seed range-empty R 13
revision=$(post /v3/kv/range "{\"key\":\"$(key beneficiaries.pageSize)\"}" | sed -n 's/.*"mod_revision":"\([0-9]*\)".*/\1/p')
txn() {
    post /v3/kv/txn "{\"compare\":[{\"key\":\"$(key beneficiaries.pageSize)\",\"target\":\"MOD\",\"result\":\"EQUAL\",\
\"mod_revision\":\"$1\"}],\"success\":[{\"request_put\":{\"key\":\"$(key beneficiaries.pageSize)\",\"value\":\"$(b64 60)\"}}],\
\"failure\":[{\"request_range\":{\"key\":\"$(key beneficiaries.pageSize)\"}}]}"
}
txn "$revision" | seed txn-succeeded R 0
txn 1 | seed txn-failed R 64
post /v3/kv/deleterange "{\"key\":\"$(key beneficiaries.sortOrder)\"}" | seed delete R 0
post /v3/auth/authenticate '{"name":"root","password":"x"}' | seed authenticate-refused R 0
post /v3/kv/range '{"key":' | seed bad-request R 1

# A watch from the first revision: the creation, the history, then live changes and an end.
watch() { curl -s -N --max-time "$2" -X POST "$url/v3/watch" -d "{\"create_request\":$1}"; }
create="{\"key\":\"$(key '')\",\"range_end\":\"$end\",\"start_revision\":\"1\",\"progress_notify\":true}"
{ sleep 0.5; post /v3/kv/put "{\"key\":\"$(key beneficiaries.pageSize)\",\"value\":\"$(b64 70)\"}" >/dev/null
  post /v3/kv/deleterange "{\"key\":\"$(key beneficiaries.banner)\"}" >/dev/null; } &
watch "$create" 1.5 | seed watch W 0 || true
wait
tail -c +3 "$out/watch" | seed watch-cut W 7
# A watch from a compacted revision: etcd cancels it and names the oldest revision left.
latest=$(post /v3/kv/range "{\"key\":\"$(key '')\"}" | sed -n 's/.*"revision":"\([0-9]*\)".*/\1/p' | head -n 1)
post /v3/kv/compaction "{\"revision\":\"$latest\"}" >/dev/null
watch "$create" 1 | seed watch-compacted W 0 || true
printf '%s' "$(key beneficiaries.pageSize)" | seed base64 B 0
