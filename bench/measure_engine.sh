#!/usr/bin/env bash
# Engine figures of issue 13, each the best of 3 (the machine is shared): the bare SystemC ping-pong rate and
# the in-process schedule rates (Google Benchmark), explore rates of flash_block.py and v2c_rope_attn.py --v2c fence
# with one worker, and `run`'s peak RSS and wall time on generated kernels of growing size (bench/gen_big_kernel.py).
#   bench/measure_engine.sh BUILD_DIR [ITERS[:TILE]...]   (e.g. 256 5000:32: 5,000 iterations of 32 x 32 tiles)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; shift || true
iters=("$@"); ((${#iters[@]})) || iters=(16 64 256 1024)
shared=${CVSIM_SHARED:-$PWD/../shared}
tmp=$(mktemp -d)
jget() { grep -o "\"$2\": *[-0-9.eE+]*" "$1" | head -1 | sed 's/.*: *//'; }
echo "date $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$build/bench/sim_speed_bench" --benchmark_repetitions=3 --benchmark_min_time=0.5 --benchmark_out="$tmp/gb.json" --benchmark_out_format=json >/dev/null 2>&1
python3 - "$tmp/gb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
best = {}
for b in d["benchmarks"]:
    if b.get("run_type") != "iteration": continue
    n = b["run_name"]
    for k in ("switches_per_s", "schedules_per_s", "instructions_per_s"):
        if k in b: best[(n, k)] = max(best.get((n, k), 0), b[k])
for (n, k), v in sorted(best.items()): print(f"{n} {k} {v:.0f} (best of 3)")
PY
ex() {  # kernel, schedules, jobs, extra args
    local best=0 cpu=""
    for r in 1 2 3; do
        /usr/bin/time -f "%U %S" -o "$tmp/et" "$build/cvsim" explore "$shared/kernels/$1" --schedules "$2" --jobs "$3" --no-progress -q --json "$tmp/e.json" "${@:4}" >/dev/null 2>&1
        local v; v=$(jget "$tmp/e.json" schedules_per_s)
        if awk -v a="$best" -v b="$v" 'BEGIN{exit !(b>a)}'; then best=$v; cpu=$(awk '{printf "%.2f", $1 + $2}' "$tmp/et"); fi
    done
    echo "explore $1 ${*:4} --jobs $3 --schedules $2: $best schedules/s (best of 3; that run's CPU $cpu s), worker peak $(jget "$tmp/e.json" workers_peak_rss_kb) KiB"
}
ex flash_block.py 2000 1
ex v2c_rope_attn.py 20000 1 --v2c fence
ex v2c_rope_attn.py 20000 2 --v2c fence
for spec in "${iters[@]}"; do
    n=${spec%%:*}; tile=128; [[ $spec == *:* ]] && tile=${spec#*:}
    python3 bench/gen_big_kernel.py --iters "$n" --tile "$tile" > "$tmp/big.py"
    bestt=999999; bestm=0; ins=0
    for r in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$build/cvsim" run "$tmp/big.py" > "$tmp/o" 2>&1
        read -r t m < "$tmp/t"
        ins=$(grep -o '[0-9]* instructions' "$tmp/o" | head -1 | cut -d' ' -f1)
        bestt=$(awk -v a="$bestt" -v b="$t" 'BEGIN{print (b<a)?b:a}')
        bestm=$m
    done
    echo "run gen_big_kernel --iters $n --tile $tile: $ins instructions, $bestt s wall (best of 3), peak RSS $bestm KiB"
done
rm -rf "$tmp"
