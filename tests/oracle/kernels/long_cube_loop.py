# Diagnostics (issue 10): a cube loop of 64 matmuls while the vector lane waits in its tpop; under a small
# --max-cycles bound the run stops with the vector lane blocked and the cube busy: E-TIMEOUT, not E-DEADLOCK.
import pypto.language as pl


@pl.program
class LongRun:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z0 = pl.matmul(x_left, x_right)
        for i, (acc,) in pl.range(64, init_values=(z0,)):
            nxt = pl.matmul_acc(acc, x_left, x_right)
            r = pl.yield_(nxt)
        v = pl.move(r, target_memory=pl.MemorySpace.Vec)
        e = pl.exp(v)
        out = pl.store(e, [0, 0], out)
        return out
