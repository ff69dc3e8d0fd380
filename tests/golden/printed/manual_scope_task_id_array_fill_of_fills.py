# A fill inside a fill: each outer iteration g fills 'small' with A(g, p) and stores B(g), which waits for them, at
# big[g]. The last launch depends on big[0]: B at g = 0, so A at g = 0 only; A at g = 1 writes rows it reads
# (E-RACE-RAW). Before: PASS (big[0] carried small's instance tokens, read as the last g's). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 49:13
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def wr(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def allrows(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 3.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], side: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            big0: pl.Array[2, pl.TASK_ID] = pl.array.create(2, dtype=pl.TASK_ID)
            for g, (bb, cg) in pl.range(2, init_values=(big0, inv)):
                small0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
                for p, (ss,) in pl.range(4, init_values=(small0,)):
                    r: pl.Scalar[pl.INDEX] = g * 32 + p * 8
                    ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r, out, deps=[cg])
                    tid: pl.Scalar[pl.TASK_ID] = ret0[1]
                    s2: pl.Array[4, pl.TASK_ID] = pl.array.update_element(ss, p, tid)
                    sso: pl.Array[4, pl.TASK_ID] = pl.yield_(s2)
                d0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(sso, 0)
                d1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(sso, 1)
                d2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(sso, 2)
                d3: pl.Scalar[pl.TASK_ID] = pl.array.get_element(sso, 3)
                rs: pl.Scalar[pl.INDEX] = g * 8
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, rs, side, deps=[d0, d1, d2, d3])
                tb: pl.Scalar[pl.TASK_ID] = ret1[1]
                b2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(bb, g, tb)
                bbo, cgo = pl.yield_(b2, tb)
            e0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(bbo, 0)
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, out, o2, deps=[e0])
        return o2
