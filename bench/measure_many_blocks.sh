#!/usr/bin/env bash
# Memory of many-block launches (docs/DECISIONS.md, "Memory of many-block launches"): `check` of a generated
# mixed kernel (each block's vector lane squares its band into a scratch tensor, its cube lane reads it back for a
# matmul: a fenced V2C dependency per block) launched with attrs={"core_num": N}, in process (--jobs 0), 5
# schedules: peak RSS, wall time and the verdict line per N, and the smallest `ulimit -v` (of those tried) it
# passes under.
#   bench/measure_many_blocks.sh [CVSIM_BINARY] [N...]   (default: build/cvsim 24 96 320 1024)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/cvsim}; shift || true
blocks=("$@"); ((${#blocks[@]})) || blocks=(24 96 320 1024)
tmp=$(mktemp -d)
echo "date $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $bin"
for n in "${blocks[@]}"; do
    python3 - "$n" > "$tmp/k$n.py" <<'PY'
import sys
n = int(sys.argv[1])
print(f'''import pypto.language as pl

NB = {n}
M = 16
K = 64
N = 64


@pl.program
class ManyBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def band(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[NB * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * M, 0], [M, K])
        sq = pl.mul(a_t, a_t)
        scratch = pl.store(sq, [blk * M, 0], scratch)
        s_mat = pl.load(scratch, [blk * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [blk * M, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        scratch = pl.create_tensor([NB * M, K], pl.FP16)
        out = self.band(a, w, scratch, out, attrs={{"core_num": NB}})
        return out''')
PY
    /usr/bin/time -f "%M %e" -o "$tmp/t" "$bin" check "$tmp/k$n.py" --schedules 5 --jobs 0 --no-progress >"$tmp/o" 2>"$tmp/e"
    rc=$?
    read -r rss wall <"$tmp/t"
    verdict=$(grep -m1 -E "^(PASS|FAIL)" "$tmp/o" || grep -m1 -E "error|terminate" "$tmp/e")
    fits=""
    for gb in 1 2 3 4 6; do
        if (ulimit -v $((gb * 1024 * 1024)); "$bin" check "$tmp/k$n.py" --schedules 5 --jobs 0 --no-progress -q >/dev/null 2>&1); then
            fits="${gb} GiB"
            break
        fi
    done
    echo "blocks $n: exit $rc, peak RSS $((rss / 1024)) MiB, wall ${wall} s, smallest ulimit -v passed: ${fits:-none <= 6 GiB}; $verdict"
done
rm -rf "$tmp"
