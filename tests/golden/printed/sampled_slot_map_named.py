# The orchestration launches 'wb' on a count read from data (sampled: 1, 2, 0, ascending); 'wb' stores block b's
# row at slots[b], a slot map its launch does not give, filled with the same sample. Filled with 2, every block
# stores row 2 (a WAW the program has only if two tokens share a slot). The verdict label and the note name the
# slot map's data, not only the count's: before, both said "data of cnt=2" and nothing about slots.
# RUN: check --schedules 2
# EXIT: 1
# CHECK: [wb sampled data of cnt=2,
# CHECK: note: found with values cvsim sampled (data of cnt=2, data of slots=2), not given: values your program never takes can break its preconditions (data of T=V: every element of T is V
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def wb(cache: pl.Out[pl.Tensor[[64, 64], pl.FP32]], slots: pl.Tensor[[8], pl.INT32], kv: pl.Tensor[[8, 64], pl.FP32]):
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        s: pl.Scalar[pl.INT32] = pl.tensor.read(slots, [b])
        row: pl.Scalar[pl.INDEX] = pl.cast(s, pl.INDEX)
        t: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(kv, [b, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        c1: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t, [row, 0], cache)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, cache: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], slots: pl.Tensor[[8], pl.INT32], kv: pl.Tensor[[8, 64], pl.FP32], cnt: pl.Tensor[[1], pl.INT32]) -> pl.Tensor[[64, 64], pl.FP32]:
        n: pl.Scalar[pl.INT32] = pl.tensor.read(cnt, [0])
        nb: pl.Scalar[pl.INDEX] = pl.cast(n, pl.INDEX)
        r: pl.Tuple[pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.wb, cache, slots, kv, core_num=nb)
        return cache
