# As empty_loop_width_orders.py, but the loop counts to m, another value than the launch's core_num n: m may be
# 0 where n is not (E-RACE-RAW on sc).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 52:9 'norm_spmd' (line 47) writes it and 'user' reads it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def norm(x: pl.Tensor[[128, 64], pl.FP32], sc: pl.Out[pl.Tensor[[128, 64], pl.FP32]], buf: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        u: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        xv: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [u, 0], [1, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(y, [u, 0], sc)
        b1: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(y, [u, 0], buf)
        return b1

    @pl.function(type=pl.FunctionType.Spmd)
    def norm_spmd(self, x: pl.Tensor[[128, 64], pl.FP32], sc: pl.Out[pl.Tensor[[128, 64], pl.FP32]], buf: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        r: pl.Tensor[[128, 64], pl.FP32] = self.norm(x, sc, buf)
        return buf

    @pl.function(type=pl.FunctionType.InCore)
    def quant(buf: pl.Tensor[[128, 64], pl.FP32], t0: pl.Scalar[pl.INDEX], q: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        bv: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(buf, [t0, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(bv, 1.0)
        q1: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(y, [t0, 0], q)
        return q1

    @pl.function(type=pl.FunctionType.InCore)
    def user(q: pl.Tensor[[128, 64], pl.FP32], sc: pl.Tensor[[128, 64], pl.FP32], out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        qv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(q, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        sv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(sc, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(qv, sv)
        o1: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[128, 64], pl.FP32], t: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        sc: pl.Tensor[[128, 64], pl.FP32] = pl.tensor.create([128, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND, manual_dep=True)
        buf: pl.Tensor[[128, 64], pl.FP32] = pl.tensor.create([128, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        q: pl.Tensor[[128, 64], pl.FP32] = pl.tensor.create([128, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        n: pl.Scalar[pl.INDEX] = (pl.cast(t, pl.INDEX) + 15) // 16 * 16
        m: pl.Scalar[pl.INDEX] = (pl.cast(t, pl.INDEX) + 7) // 8 * 8
        ret: pl.Tuple[pl.Tensor[[128, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.norm_spmd, x, sc, buf, core_num=n)
        buf1: pl.Tensor[[128, 64], pl.FP32] = ret[0]
        for t0, (q_iter,) in pl.parallel(0, m, 8, init_values=(q,)):
            q2: pl.Tensor[[128, 64], pl.FP32] = self.quant(buf1, t0, q_iter)
            q_next: pl.Tensor[[128, 64], pl.FP32] = pl.yield_(q2)
        o: pl.Tensor[[128, 64], pl.FP32] = self.user(q_next, sc, out)
        return o
