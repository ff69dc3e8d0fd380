# --c2v complete (issue 10): the cube stores one scratch with two statements and the vector lane reads
# both halves back. Upstream fences a C2V dependency only with a unique producer store, so
# `--c2v upstream` leaves the race; `--c2v complete` orders it with a barrier.
import pypto.language as pl


@pl.program
class TwoProducers:
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
        z = pl.matmul(x_left, x_right)
        scratch = pl.store(z, [0, 0], scratch)
        scratch = pl.store(z, [16, 0], scratch)
        both = pl.load(scratch, [0, 0], [32, 16], target_memory=pl.MemorySpace.Vec)
        e = pl.exp(both)
        out = pl.store(e, [0, 0], out)
        return out
