#!/usr/bin/env bash
# Byte-identity of the two ways one cvsim build runs a schedule: lanes replayed from recorded instruction
# streams on SystemC methods (the default for a session of many schedules) and lanes walked live on SystemC
# threads (CVSIM_LIVE_WALK=1). Every kernel under the given folders (default: the shared samples and the
# test kernels), a2a3 and a5: `explore` --json + --jsonl (random, then pct:3) and `check`'s text.
# Wall-clock fields are dropped before comparing.
#   bench/compare_modes.sh CVSIM [SCHEDULES] [FOLDER...]   -> exit 1 on any difference
set -uo pipefail
bin=$(realpath "$1"); n=${2:-12}; shift 2 || shift $#
root=$(cd "$(dirname "$0")/.." && pwd)
dirs=("$@"); ((${#dirs[@]})) || dirs=("${CVSIM_SHARED:-$root/../shared}/kernels" "$root/tests")
tmp=$(mktemp -d)
fail=0; count=0
strip() { sed -E 's/"(wall_seconds|schedules_per_s|peak_rss_kb|workers_peak_rss_kb)": *[-0-9.eE+]+/"\1": 0/g; s/\([0-9.]+\/s\)/(X\/s)/g; s/wall [0-9.]+ s/wall X s/g; s/[0-9.]+ MiB/X MiB/g; s/ETA [^,]*,/ETA X,/g; s/[0-9]+\/s,/X\/s,/g' "$1"; }
one() {  # tag, args...
    local tag=$1; shift
    for side in live stream; do
        local live=0; [[ $side == live ]] && live=1
        (cd "$tmp" && CVSIM_LIVE_WALK=$live COLUMNS=100000 timeout 120 "$bin" "$@" > "$tmp/$side.out" 2>&1; echo "exit $?" >> "$tmp/$side.out")
        for f in json jsonl; do [[ -f $tmp/o.$f ]] && mv "$tmp/o.$f" "$tmp/$side.$f" || rm -f "$tmp/$side.$f"; done
    done
    count=$((count + 1))
    for f in out json jsonl; do
        [[ -f $tmp/live.$f || -f $tmp/stream.$f ]] || continue
        strip "$tmp/live.$f" > "$tmp/a" 2>/dev/null; strip "$tmp/stream.$f" > "$tmp/b" 2>/dev/null
        if ! cmp -s "$tmp/a" "$tmp/b"; then echo "DIFF [$f] $tag"; diff "$tmp/a" "$tmp/b" | head -6; fail=1; fi
    done
}
for d in "${dirs[@]}"; do
    while IFS= read -r k; do
        grep -q "pl.program\|@pl.function" "$k" 2>/dev/null || continue
        for tgt in a2a3 a5; do
            for s in random pct:3; do
                one "explore $k $tgt $s" explore "$k" --target "$tgt" --strategy "$s" --schedules "$n" --jobs 1 --no-progress --json o.json --jsonl o.jsonl
            done
        done
    done < <(find "$d" -name '*.py' | sort)
done
rm -rf "$tmp"
echo "$count comparisons, $([[ $fail == 0 ]] && echo identical || echo DIFFERENCES)"
exit $fail
