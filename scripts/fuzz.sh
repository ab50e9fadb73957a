#!/usr/bin/env bash
# Builds and runs the coverage-guided fuzz targets of fuzz/ (libFuzzer through libfuzzer-sys)
# on the stable toolchain: the coverage instrumentation is asked for with rustc's own -C
# flags, so neither cargo-fuzz nor a nightly compiler is needed (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET [SECONDS]       # one target for SECONDS (default 60), corpus kept
#   scripts/fuzz.sh all [SECONDS]          # every target, one after the other
#   scripts/fuzz.sh TARGET -runs=N         # exactly N executions (libFuzzer's own options pass through)
#
# New inputs that reach new code go into fuzz/corpus/TARGET (commit the interesting ones); a
# crash is written to fuzz/artifacts/TARGET/ and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(frame actions form http)
target=${1:?usage: scripts/fuzz.sh TARGET|all [SECONDS|-libfuzzer-option...]}
shift
if [ "$target" = all ]; then
    for t in "${TARGETS[@]}"; do "$0" "$t" "$@"; done
    exit 0
fi
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# An explicit --target keeps the flags off build scripts and proc macros, which run on the
# host and have no libFuzzer to link against.
host=$(rustc -vV | sed -n 's/^host: //p')
cargo build --release --locked --manifest-path fuzz/Cargo.toml --target-dir fuzz/target \
    --target "$host" --bin "$target"
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
args=()
case "${1:-60}" in
    -*) args=("$@") ;;
    *) args=("-max_total_time=${1:-60}") ;;
esac
exec "fuzz/target/$host/release/$target" "fuzz/corpus/$target" \
    "-artifact_prefix=fuzz/artifacts/$target/" -print_final_stats=1 "${args[@]}"
