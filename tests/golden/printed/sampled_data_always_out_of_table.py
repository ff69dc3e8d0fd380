# The twin of sampled_data_out_of_table_no_verdict.py whose row is the id plus 128: every sampled id is past
# the table, so the kernel takes none of the sampled values and is not checked (E-UNCHECKED, exit 2), never a
# pass by omission.
# RUN: check --schedules 2 --blocks 4 --jobs 1
# EXIT: 2
# CHECK: NO VERDICT (the file): 0 kernel verdict(s)
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
            row: pl.Scalar[pl.INDEX] = pl.cast(tid, pl.INDEX) + 128
            t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(w, [row, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
            o2: pl.Tensor[[T, 64], pl.FP32] = pl.tile.store(t, [i, 0], o)
            o3 = pl.yield_(o2)
        return o3

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, ids: pl.Tensor[[T], pl.INT64], w: pl.Tensor[[V, 64], pl.FP32], out: pl.Out[pl.Tensor[[T, 64], pl.FP32]]) -> pl.Tensor[[T, 64], pl.FP32]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(ids, 0)
        r: pl.Tensor[[T, 64], pl.FP32] = self.emb(out, n, ids, w)
        return r
