# A loop-carried V2C dependency in a 4000-trip loop: under --v2c fence every iteration gets two fence + syncall
# barriers. Each drain listed every earlier instruction of its core as a dependency, so the recorded stream
# of an explored schedule grew quadratically (about 3.7 GB here; 23 GB at 200,000 trips, killed) while
# `run` walked it in 30 MB. A drain now waits for the last instruction of each pipe.
import pypto.language as pl


@pl.program
class M:
    @pl.function(type=pl.FunctionType.InCore)
    def m(
        self,
        a: pl.Tensor[[64, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4000):
            g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [(i % 4) * 16, 0], out)
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [0, 0], scratch)
        return out
