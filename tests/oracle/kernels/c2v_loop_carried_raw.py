# --c2v complete (issue 10): a loop-carried C2V RAW. The vector lane reads the scratch at the top of the
# body, the cube writes it at the bottom for the next iteration; upstream leaves the pair, `--c2v complete`
# orders it with a barrier before the read (and the read before the next write).
import pypto.language as pl


@pl.program
class CarriedRaw:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            prev = pl.load(scratch, [0, 0], [16, 16], target_memory=pl.MemorySpace.Vec)
            e = pl.exp(prev)
            out = pl.store(e, [i * 16, 0], out)
            z = pl.matmul(x_left, x_right)
            scratch = pl.store(z, [0, 0], scratch)
        return out
