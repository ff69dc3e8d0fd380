# Three 128-row "waves" as pypto-lib's prefill_sparse_attn writes them: each is `if base < n:` whose then-arm
# writes the scratch s (after the previous wave's last id), reads it and yields the reader's id, and whose
# else-arm yields the previous id; the id goes through a one-element task-id array. The next wave's writer
# depends on the branch's value: where a wave's reader ran, its arm was taken and the value is the reader's id,
# so the write after the read is ordered; the manual-scope reader of o depends on the last id, after every
# wave's writer of o. Clean. Before: two E-RACE-WAR on s and an E-RACE-RAW on o (a branch's value held only the
# ids both arms yield).
# RUN: check --schedules 2
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kw(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        s: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r0: pl.Scalar[pl.INDEX] = 0
        ids0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
        d0: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[])
        ids1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(ids0, 0, d0)
        p0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(ids1, 0)
        if 0 < n:
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[p0])
            w0: pl.Scalar[pl.TASK_ID] = ret0[1]
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, s, r0, o, deps=[w0])
            m0: pl.Scalar[pl.TASK_ID] = ret1[1]
            m1: pl.Scalar[pl.TASK_ID] = pl.yield_(m0)
        else:
            m1: pl.Scalar[pl.TASK_ID] = pl.yield_(p0)
        ids2: pl.Array[1, pl.TASK_ID] = pl.array.update_element(ids1, 0, m1)
        p1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(ids2, 0)
        if 16 < n:
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[p1])
            w1: pl.Scalar[pl.TASK_ID] = ret2[1]
            ret3: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, s, r0, o, deps=[w1])
            m2: pl.Scalar[pl.TASK_ID] = ret3[1]
            m3: pl.Scalar[pl.TASK_ID] = pl.yield_(m2)
        else:
            m3: pl.Scalar[pl.TASK_ID] = pl.yield_(p1)
        ids3: pl.Array[1, pl.TASK_ID] = pl.array.update_element(ids2, 0, m3)
        p2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(ids3, 0)
        if 32 < n:
            ret4: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[p2])
            w2: pl.Scalar[pl.TASK_ID] = ret4[1]
            ret5: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, s, r0, o, deps=[w2])
            m4: pl.Scalar[pl.TASK_ID] = ret5[1]
            m5: pl.Scalar[pl.TASK_ID] = pl.yield_(m4)
        else:
            m5: pl.Scalar[pl.TASK_ID] = pl.yield_(p2)
        ids4: pl.Array[1, pl.TASK_ID] = pl.array.update_element(ids3, 0, m5)
        last: pl.Scalar[pl.TASK_ID] = pl.array.get_element(ids4, 0)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ret6: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, o, r0, o2, deps=[last])
        return o2
