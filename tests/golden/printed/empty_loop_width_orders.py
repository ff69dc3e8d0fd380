# pypto-lib's moe x_norm_scale shape: 'norm_spmd' (core_num=n) writes the manual_dep tensor sc and the tracked
# buf; 'quant' reads buf in pl.parallel(0, n, 8); 'user' reads quant's result (the tensor map orders it after
# quant) and sc. The loop runs no iteration only when n <= 0, and then the runtime refuses the launch of
# 'norm_spmd' (block_num >= 1): where it ran, a quant ran after it and before 'user'. Clean. Before: E-RACE-RAW on
# sc (an order through a loop that may run no iteration was not followed).
# RUN: check --schedules 2
# CHECK: PASS (the file): all 6 kernel verdict(s) clean
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
        ret: pl.Tuple[pl.Tensor[[128, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.norm_spmd, x, sc, buf, core_num=n)
        buf1: pl.Tensor[[128, 64], pl.FP32] = ret[0]
        for t0, (q_iter,) in pl.parallel(0, n, 8, init_values=(q,)):
            q2: pl.Tensor[[128, 64], pl.FP32] = self.quant(buf1, t0, q_iter)
            q_next: pl.Tensor[[128, 64], pl.FP32] = pl.yield_(q2)
        o: pl.Tensor[[128, 64], pl.FP32] = self.user(q_next, sc, out)
        return o
