#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (CSV, LIBSVM, TSV and folder readers, tokenizer,
# model-file loader, parameter parser) and reports executions and crashes per target.
#
# Usage: scripts/fuzz.sh [SECONDS] [JOBS] [TARGET...]
#   SECONDS  time per target (default 1800); a target also stops after 10,000,000 runs
#   JOBS     targets run at once (default 1)
#   TARGET   targets to run (default: all of `cargo fuzz list`)
# Example: nice -n 19 scripts/fuzz.sh 600 1 csv libsvm
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Limits: 1 s per
# input, 2 GB RSS, 1 GB per allocation; the targets set the library's memory budget to
# 512 MB, so an input that asks for more must be an error. Seed corpora are built from
# the repository's test data in fuzz/corpus/<target> (kept between runs: libFuzzer adds
# the inputs that find new code); crashes, timeouts and out-of-memory inputs land in
# fuzz/artifacts/<target> (see run() for timeouts on a loaded machine); logs in
# fuzz/logs/<target>.log. Reproduce a finding with
# `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/FILE` and minimise it with
# `cargo +nightly fuzz tmin TARGET FILE`. Not part of .ci/run (too long).
set -euo pipefail

seconds=${1:-1800}
jobs=${2:-1}
shift $(($# < 2 ? $# : 2))
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/fuzz"

cargo +nightly fuzz build
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

data="$root/crates/hyperplane/tests/data"
fixtures="$root/crates/hyperplane/tests/fixtures"
cli_fixtures="$root/crates/hyperplane-cli/tests/fixtures"

# seed NAME FILE...: copies each FILE (its first 8 KiB: libFuzzer's inputs stay small)
# into the corpus of NAME, prefixed by the option byte(s) the target reads first.
seed() {
    local name=$1 prefix=$2
    shift 2
    mkdir -p "corpus/$name"
    for f in "$@"; do
        [ -f "$f" ] || continue
        { printf "$prefix"; head -c 8192 "$f"; } >"corpus/$name/seed-$(basename "$f")"
    done
}

# The corpus of each target from the test data, idempotent.
make_corpora() {
    local csvs tsvs libsvms models texts
    csvs=$(find "$data" "$fixtures" "$cli_fixtures" -name '*.csv' 2>/dev/null || true)
    tsvs=$(find "$data" "$fixtures" "$cli_fixtures" -name '*.tsv' 2>/dev/null || true)
    libsvms=$(find "$data" "$fixtures" "$cli_fixtures" \( -name 'heart_scale' -o -name '*.libsvm' -o -name '*.svm' \) 2>/dev/null || true)
    models=$(find "$fixtures" "$cli_fixtures" \( -path '*model_files/*.json' -o -path '*libsvm_models/*' \) -type f 2>/dev/null || true)
    texts=$(find "$root/README.md" "$root/docs" "$fixtures" -name '*.md' -o -name '*.tsv' 2>/dev/null || true)
    # shellcheck disable=SC2086
    {
        seed csv '\x00' $csvs
        seed csv '\x15' $csvs
        seed libsvm '\x00' $libsvms
        seed libsvm '\x32' $libsvms
        seed tsv '' $tsvs
        seed tokenizer '\x03\x00' $tsvs $texts
        seed tokenizer '\x23\x0c' $tsvs
        seed model_file '' $models
    }
    mkdir -p corpus/params corpus/folder
    # the parameters with their defaults, as the schemas in the source declare them
    local params i
    params=$(grep -rhoE '^\s+[a-z][a-z0-9_]* = "[^"]*",' "$root/crates/hyperplane/src" |
        sed -E 's/^\s+([a-z0-9_]+) = "([^"]*)",/\1=\2/' | sort -u)
    # a first line that is no kind picks one by its first byte
    for i in $(seq 0 40); do
        { printf "\\x$(printf %02x "$i")\n"; echo "$params" | shuf -n 6 --random-source=<(yes "$i"); } >"corpus/params/seed-$i"
    done
    printf '\x00spam\nfree money now\x00\x00ham\nthe meeting is at noon\x00\x02spam\nwin cash\x00\x05ham\nhidden\x00\x01readme' >corpus/folder/seed-classes
    printf '\x01one document\x00\x01another one' >corpus/folder/seed-flat
}

make_corpora
mkdir -p artifacts logs

# A timeout is measured in wall-clock time, so on a shared machine a starved fuzzer can
# report one for an input that is quick. Each timeout input is run again alone: at 1 s or
# more (the fastest of three runs) it is a finding (the target stops there); under 1 s it is renamed
# `slow-under-load-<ms>ms-*` and fuzzing goes on for the rest of the target's time and runs.
run() {
    local t=$1 deadline=$(($(date +%s) + seconds)) runs=10000000 left f ms
    mkdir -p "artifacts/$t"
    : >"logs/$t.log"
    while left=$((deadline - $(date +%s))) && [ "$left" -gt 0 ] && [ "$runs" -gt 0 ]; do
        RAYON_NUM_THREADS=1 cargo +nightly fuzz run "$t" "corpus/$t" -- \
            -max_total_time="$left" -runs="$runs" \
            -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
            -print_final_stats=1 -artifact_prefix="artifacts/$t/" \
            >>"logs/$t.log" 2>&1 || true
        runs=$((10000000 - $(executions "$t")))
        f=$(find "artifacts/$t" -maxdepth 1 -name 'timeout-*' | head -1)
        [ -n "$f" ] || break
        # the fastest of three runs: one run can be starved as the fuzzer was
        ms=$(for _ in 1 2 3; do
            "target/x86_64-unknown-linux-gnu/release/$t" -runs=1 "$f" 2>&1 |
                sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' || true
        done | sort -n | head -1)
        if [ -z "$ms" ] || [ "$ms" -ge 1000 ]; then
            break
        fi
        echo "== $f: ${ms} ms when run alone; fuzzing resumes" >>"logs/$t.log"
        mv "$f" "artifacts/$t/slow-under-load-${ms}ms-$(basename "$f")"
    done
}

# Executions of target $1 so far: the sum over its runs' final statistics (a run stopped
# by a timeout prints none; its executions are those of its last status line).
executions() {
    awk '/stat::number_of_executed_units:/ { total += $2; last = 0; next }
         /^#[0-9]+\t/ { last = substr($1, 2) + 0 }
         /^==.*fuzzing resumes/ { total += last; last = 0 }
         END { print total + last }' "logs/$1.log"
}

start=$(date +%s)
running=0
for t in "${targets[@]}"; do
    run "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

printf '%-12s %12s %8s  %s\n' target executions seconds findings
for t in "${targets[@]}"; do
    execs=$(executions "$t")
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "logs/$t.log" | awk '{ s += $5 } END { print s }' || true)
    found=$(find "artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort | tr '\n' ' ')
    slow=$(find "artifacts/$t" -type f -name 'slow-under-load-*' | wc -l)
    if ! grep -q 'stat::number_of_executed_units' "logs/$t.log"; then
        found="no final stats (see fuzz/logs/$t.log) $found"
    fi
    [ "$slow" -gt 0 ] && found="$found($slow timeouts under load, quick alone) "
    printf '%-12s %12s %8s  %s\n' "$t" "${execs:-?}" "${secs:-?}" "${found:-none}"
done
echo "total $(($(date +%s) - start)) s"
