#!/usr/bin/env bash
# The long robustness run (nightly CI or by hand): the parser's libFuzzer target for SECONDS (default 3600;
# its final stats give the executions, >= 10^6 in an hour on these machines) and the robustness suite with
# CVSIM_ROBUSTNESS_VARIANTS mutations per sample kernel and kind (default 20, ten times the CI suite), in
# the ASan/UBSan build when it exists (build-asan), else the Release build.
# Usage: scripts/nightly.sh [SECONDS]      (VARIANTS=N; JOBS=N build parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
build=build
[[ -x build-asan/tests/cvsim_e2e_tests ]] && build=build-asan
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
echo "== robustness suite ($build, ${VARIANTS:-20} variants per kernel and kind)"
CVSIM_ROBUSTNESS_VARIANTS=${VARIANTS:-20} CVSIM_SHARED=${CVSIM_SHARED:-../shared} CVSIM_SOURCE=$PWD CVSIM_BIN=$PWD/$build/cvsim \
    "$build/tests/cvsim_e2e_tests" --gtest_filter='Robustness.*'
echo "== parser fuzzing for ${secs}s"
scripts/fuzz.sh "$secs"
