#!/usr/bin/env bash
# Builds the libFuzzer target of the frontend (lexer + parser + sema + printer) with clang, ASan and UBSan
# in its own build dir (build-fuzz, only the frontend library), seeds it with the sample kernels and the
# golden files, and runs it for SECONDS (default 60). Fails on any crash, sanitizer report, leak or timeout.
# Usage: scripts/fuzz.sh [SECONDS]      (JOBS=N build parallelism, default 2; CVSIM_SHARED=dir of shared/)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
jobs=${JOBS:-2}
shared=${CVSIM_SHARED:-../shared}

echo "== libFuzzer build (clang, ASan + UBSan)"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
    -DCVSIM_FUZZ=ON -DCVSIM_TESTS=OFF -DCVSIM_BENCH=OFF \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-fuzz -j"$jobs" --target parse_fuzzer

seeds=build-fuzz/seeds
corpus=build-fuzz/corpus
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
n=0
for f in "$shared"/kernels/*.py "$shared"/kernels/bad/*.py $(find tests/golden -name '*.py' | sort); do
    [[ -f "$f" ]] || continue
    cp "$f" "$seeds/seed_$n.py"
    n=$((n + 1))
done
echo "== fuzzing for ${secs}s from $n seeds"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
./build-fuzz/frontend/fuzz/parse_fuzzer -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -dict=frontend/fuzz/dsl.dict -artifact_prefix=build-fuzz/ -print_final_stats=1 "$corpus" "$seeds"
echo "== fuzzing clean"
