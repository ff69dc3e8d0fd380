#!/usr/bin/env bash
# Byte-identity check of two cvsim binaries on every shared kernel, a2a3 and a5: `run` (nominal, random,
# pct:3, sweep) text + --json + Chrome trace + the --output-dir tensors, and `explore` --json + --jsonl (random,
# pct:3, sweep) with the replay lines. Wall-clock fields (wall_seconds, schedules_per_s, peak RSS) are dropped
# before comparing.
#   bench/compare_builds.sh OLD_CVSIM NEW_CVSIM [SCHEDULES]   -> exit 1 on any difference
set -uo pipefail
old=$(realpath "$1"); new=$(realpath "$2"); n=${3:-40}
shared=${CVSIM_SHARED:-$(cd "$(dirname "$0")/.." && pwd)/../shared}
tmp=$(mktemp -d)
fail=0; count=0
strip() { sed -E 's/"(wall_seconds|schedules_per_s|peak_rss_kb|workers_peak_rss_kb)": *[-0-9.eE+]+/"\1": 0/g; s/"cvsim": *"[^"]*"/"cvsim":"X"/g; s/\([0-9.]+\/s\)/(X\/s)/g; s/wall [0-9.]+ s/wall X s/g; s/[0-9.]+ MiB/X MiB/g' "$1"; }
one() {  # tag, args...
    local tag=$1; shift
    for side in old new; do
        local bin=$old; [[ $side == new ]] && bin=$new
        (cd "$tmp" && COLUMNS=100000 "$bin" "$@" --json "$tmp/$side.json" > "$tmp/$side.out" 2>&1; echo "exit $?" >> "$tmp/$side.out")
        strip "$tmp/$side.json" > "$tmp/$side.j" 2>/dev/null || true
        [[ -f $tmp/trace.json ]] && mv "$tmp/trace.json" "$tmp/$side.trace" || rm -f "$tmp/$side.trace"
        [[ -f $tmp/j.jsonl ]] && mv "$tmp/j.jsonl" "$tmp/$side.jsonl" || rm -f "$tmp/$side.jsonl"
        if [[ -d $tmp/outd ]]; then  # run --output-dir: every output tensor's .npy, by name and checksum
            (cd "$tmp/outd" && for f in *; do echo "$f $(md5sum < "$f")"; done) > "$tmp/$side.npy"; rm -rf "$tmp/outd"
        else rm -f "$tmp/$side.npy"; fi
    done
    count=$((count + 1))
    for f in out j trace jsonl npy; do
        [[ -f $tmp/old.$f || -f $tmp/new.$f ]] || continue
        local a=$tmp/old.$f b=$tmp/new.$f
        strip "$a" > "$a.s" 2>/dev/null; strip "$b" > "$b.s" 2>/dev/null; a=$a.s; b=$b.s
        if ! cmp -s "$a" "$b"; then echo "DIFF [$f] $tag"; diff "$a" "$b" | head -5; fail=1; fi
    done
}
kernels=$(ls "$shared"/kernels/*.py)
for k in $kernels; do
    kn=$(basename "$k")
    for tgt in a2a3 a5; do
        for v2c in fence off; do
            for s in nominal random pct:3 sweep; do
                one "run $kn $tgt --v2c $v2c $s" run "$k" --target "$tgt" --v2c "$v2c" --schedule "$s" --seed 7 --trace trace.json --output-dir outd
            done
            for s in random pct:3 sweep; do
                one "explore $kn $tgt --v2c $v2c $s" explore "$k" --target "$tgt" --v2c "$v2c" --strategy "$s" --schedules "$n" --jobs 1 --no-progress --jsonl j.jsonl
            done
        done
        one "explore $kn $tgt vis" explore "$k" --target "$tgt" --schedules "$n" --jobs 2 --no-progress --max-visibility-delay 40
    done
done
rm -rf "$tmp"
echo "$count comparisons, $([[ $fail == 0 ]] && echo identical || echo DIFFERENCES)"
exit $fail
