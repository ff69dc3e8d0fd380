# --c2v complete (issue 10): the cube's store sits in a loop, the vector lane reads the whole scratch after
# it. Upstream fences a C2V dependency only when the store is in the consumer's block, so it leaves the
# race; `--c2v complete` puts a barrier before the vector load.
import pypto.language as pl


@pl.program
class NestedStore:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        scratch: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            z = pl.matmul(x_left, x_right)
            scratch = pl.store(z, [i * 16, 0], scratch)
        both = pl.load(scratch, [0, 0], [32, 16], target_memory=pl.MemorySpace.Vec)
        e = pl.exp(both)
        out = pl.store(e, [0, 0], out)
        return out
