#!/usr/bin/env bash
# Builds and runs the whole test suite: the Release build with ctest, then the ASan+UBSan build with ctest
# (parser fuzzing: scripts/fuzz.sh, run by scripts/nightly.sh).
# Usage: scripts/test.sh            (JOBS=N to change the build/test parallelism, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}

echo "== Formatting (clang-format, .clang-format)"
scripts/check_format.sh

echo "== Release build + tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600

echo "== ASan + UBSan build + tests"
# -g1: line tables are all a sanitizer report needs, and full debug info costs build time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCVSIM_SANITIZE=ON -DCVSIM_BENCH=OFF
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan -j"$jobs" --output-on-failure --timeout 900
# Parser fuzzing (a third, clang build) is scripts/nightly.sh's: CI's 2-core budget goes to the two suites above.
echo "== all tests passed"
