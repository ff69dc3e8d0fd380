# An embedding lookup whose token ids are data (the program's contract keeps them below V) and whose sizes
# are both defaulted (T = V = 128): cvsim samples the ids (1, 2, 0, iota, iota+1). At iota+1 the id 128 is past
# the made-up 128-row table: that value is not one the program takes, so it is no verdict — as for any sampled
# value — not E-OOB (it was FAIL with E-OOB + E-UNCHECKED: the orchestration's walk ran under a sample because
# of the made-up size, and its data samples had no sample group; pypto-lib's lookup_embedding had the same).
# RUN: check --schedules 2 --blocks 4 --jobs 1
# CHECK: [emb sampled data of ids=iota]
# CHECK-NOT: E-OOB
# CHECK: PASS (the file): all 8 kernel verdict(s) clean
import pypto.language as pl

T = pl.dynamic("T")
V = pl.dynamic("V")


@pl.program
class Emb:
    @pl.function(type=pl.FunctionType.InCore)
    def emb(out: pl.Out[pl.Tensor[[T, 64], pl.FP32]], n: pl.Scalar[pl.INDEX], ids: pl.Tensor[[T], pl.INT64], w: pl.Tensor[[V, 64], pl.FP32]) -> pl.Tensor[[T, 64], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        for i, (o,) in pl.range(blk, n, 4, init_values=(out,)):
            tid: pl.Scalar[pl.INT64] = pl.tensor.read(ids, [i])
            row: pl.Scalar[pl.INDEX] = pl.cast(tid, pl.INDEX)
            t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(w, [row, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
            o2: pl.Tensor[[T, 64], pl.FP32] = pl.tile.store(t, [i, 0], o)
            o3 = pl.yield_(o2)
        return o3

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, ids: pl.Tensor[[T], pl.INT64], w: pl.Tensor[[V, 64], pl.FP32], out: pl.Out[pl.Tensor[[T, 64], pl.FP32]]) -> pl.Tensor[[T, 64], pl.FP32]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(ids, 0)
        r: pl.Tensor[[T, 64], pl.FP32] = self.emb(out, n, ids, w)
        return r
