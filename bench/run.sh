#!/usr/bin/env bash
# The benchmark harness (performance is measured here, never by timed tests).
#
#   bench/run.sh [--quick] [--write-results]
#
# 1. Builds cvsim and the Google Benchmark programs in Release (BUILD_DIR, default build-bench).
# 2. Runs the Google Benchmarks (bench/*_bench.cpp): simulation speed, SystemC's bare event rate, parsing.
# 3. Measures `cvsim explore v2c_rope_attn.py --v2c fence` (hazard checking and output comparison included):
#    schedules per second with --jobs 1 and --jobs 2 (SCHEDULES, default 100,000), the speedup, and the peak
#    resident memory of the worker processes after 10,000 and after 100,000 schedules (memory flatness).
#    Figures come from explore's --json report (wall_seconds, schedules_per_s, workers_peak_rss_kb, which is
#    getrusage(RUSAGE_CHILDREN) of the supervisor: the largest worker).
# Prints a table with the targets of issue 6; --write-results also writes it to bench/results.md.
# Timing is only meaningful on an otherwise idle machine: the table records the load average.
#
# Environment: BUILD_DIR, CVSIM_SHARED (default ../shared), SCHEDULES (default 100000), JOBS (build
# parallelism, default 2). --quick: 20,000 schedules, 2,000 for the small memory point, short benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

quick=0
write_results=0
for a in "$@"; do
    case "$a" in
        --quick) quick=1 ;;
        --write-results) write_results=1 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "bench/run.sh: unknown option $a" >&2; exit 2 ;;
    esac
done

build=${BUILD_DIR:-build-bench}
shared=${CVSIM_SHARED:-$root/../shared}
big=${SCHEDULES:-100000}
small=10000
min_time=1
if ((quick)); then big=20000; small=2000; min_time=0.2; fi
kernel=$shared/kernels/v2c_rope_attn.py
[[ -f $kernel ]] || { echo "bench/run.sh: $kernel not found (set CVSIM_SHARED)" >&2; exit 2; }
out=$build/bench-results
mkdir -p "$out"

echo "== build ($build, Release, benchmarks on)"
if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCVSIM_BENCH=ON >/dev/null
else
    cmake "$build" -DCMAKE_BUILD_TYPE=Release -DCVSIM_BENCH=ON >/dev/null
fi
cmake --build "$build" -j"${JOBS:-2}" --target cvsim sim_speed_bench parse_bench

echo "== Google Benchmarks"
for b in sim_speed_bench parse_bench; do
    "$build/bench/$b" --benchmark_min_time="$min_time" --benchmark_out="$out/$b.json" --benchmark_out_format=json
done

# The machine's own ceiling for two processes: two independent copies of the one-worker benchmark at once
# (no explorer involved). Shared caches and memory bandwidth, or host SMT siblings, cap what --jobs 2 can give.
pair() {
    "$build/bench/sim_speed_bench" --benchmark_filter=RopeAttn --benchmark_min_time="$min_time" \
        --benchmark_out="$out/pair_$1.json" --benchmark_out_format=json >/dev/null
}
echo "== two independent copies of BM_RopeAttnFenceRandomSchedules at once"
pair a &
pair b
wait

# The value of "key": <number> in a JSON report (explore --json writes one key per line).
jget() { grep -o "\"$2\": *[-0-9.eE+]*" "$1" | head -1 | sed 's/.*: *//'; }

# explore N schedules with J jobs; leaves the report in $out/explore_j<J>_n<N>.json
explore() {
    local jobs=$1 n=$2 rc=0
    local json=$out/explore_j${jobs}_n${n}.json
    "$build/cvsim" explore "$kernel" --v2c fence --schedules "$n" --jobs "$jobs" --no-progress -q --json "$json" || rc=$?
    if ((rc != 0)); then
        echo "bench/run.sh: cvsim explore --jobs $jobs --schedules $n exited $rc (findings under --v2c fence?)" >&2
        exit 1
    fi
    echo "   --jobs $jobs, $n schedules: $(jget "$json" schedules_per_s) schedules/s, wall $(jget "$json" wall_seconds) s," \
         "largest worker $(jget "$json" workers_peak_rss_kb) KiB"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== cvsim explore $(basename "$kernel") --v2c fence (load average: $load_before, $(nproc) cores)"
explore 1 "$small"
explore 1 "$big"
explore 2 "$big"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

j1=$out/explore_j1_n$big.json
j2=$out/explore_j2_n$big.json
js=$out/explore_j1_n$small.json
r1=$(jget "$j1" schedules_per_s)
r2=$(jget "$j2" schedules_per_s)
m_small=$(jget "$js" workers_peak_rss_kb)
m_big=$(jget "$j1" workers_peak_rss_kb)
m_big2=$(jget "$j2" workers_peak_rss_kb)
sup=$(jget "$j1" peak_rss_kb)
sim_rate=$(jget "$out/sim_speed_bench.json" schedules_per_s)
pair_a=$(jget "$out/pair_a.json" schedules_per_s)
pair_b=$(jget "$out/pair_b.json" schedules_per_s)

table=$(awk -v r1="$r1" -v r2="$r2" -v ms="$m_small" -v mb="$m_big" -v mb2="$m_big2" -v sup="$sup" -v sim="${sim_rate:-0}" -v pa="${pair_a:-0}" -v pb="${pair_b:-0}" \
            -v big="$big" -v small="$small" -v lb="$load_before" -v la="$load_after" -v cores="$(nproc)" 'BEGIN {
    sp = r1 > 0 ? r2 / r1 : 0
    growth = ms > 0 ? (mb - ms) / ms * 100 : 0
    printf "| measure | value | target |\n|---|---|---|\n"
    printf "| schedules/s, --jobs 1 (%d schedules) | %.0f | >= 5000 per core: %s |\n", big, r1, (r1 >= 5000 ? "met" : "NOT met")
    printf "| schedules/s, --jobs 2 (%d schedules) | %.0f | |\n", big, r2
    printf "| speedup 1 -> 2 jobs | %.2fx | >= 1.8x: %s |\n", sp, (sp >= 1.8 ? "met" : "NOT met")
    printf "| one worker in-process (Google Benchmark BM_RopeAttnFenceRandomSchedules) | %.0f schedules/s | |\n", sim
    printf "| two independent copies of that benchmark at once: total, and over one copy (the 2-process ceiling of this machine) | %.0f schedules/s, %.2fx | |\n", pa + pb, (sim > 0 ? (pa + pb) / sim : 0)
    printf "| peak RSS of the worker after %d schedules | %.1f MiB | |\n", small, ms / 1024
    printf "| peak RSS of the worker after %d schedules | %.1f MiB (%+.1f%%) | flat: %s |\n", big, mb / 1024, growth, (growth <= 10 ? "met" : "NOT met")
    printf "| peak RSS of the largest worker, --jobs 2 | %.1f MiB | |\n", mb2 / 1024
    printf "| peak RSS of the supervisor | %.1f MiB | |\n", sup / 1024
    printf "| load average before / after; cores | %s / %s; %d | |\n", lb, la, cores
}')
echo
echo "$table"
if ((write_results)); then
    # The engine section (bench/measure_engine.sh, before/after of issue 13) is kept as it is.
    engine_section=$(sed -n '/^## Engine/,$p' bench/results.md 2>/dev/null || true)
    {
        echo "# Benchmark results"
        echo
        echo "Written by \`bench/run.sh --write-results\` on $(date -u +%Y-%m-%d) ($(uname -m), $(nproc) cores," \
             "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')). Kernel: \`v2c_rope_attn.py --v2c fence\`, strategy"
        echo "\`random\`, hazard checking and output comparison included. Google Benchmark output: \`$out/\`."
        echo
        echo "$table"
        if [[ -n $engine_section ]]; then echo; echo "$engine_section"; fi
    } > bench/results.md
    echo "wrote bench/results.md"
fi
