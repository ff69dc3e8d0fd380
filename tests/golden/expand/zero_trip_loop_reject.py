# A loop of a constant trip count of 0 (`pl.range(NB - 1)` with NB = 1: the kernel's "remaining blocks"
# loop) runs nothing, so its cube load and vector store of scratch are no dependency: reject must accept the
# kernel (it raised E-V2C-UNFENCED on the pair when another loop of the function, over `n`, has no constant
# trip count, so the pairs are not enumerated exactly) and fence adds nothing. The racy twin, NB = 2, is
# zero_trip_loop_reject_twin.py.
# RUN: check --v2c reject --input n=1
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

NB = 1


@pl.program
class ZeroTrip:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(xl, w_right)
        for j in pl.range(n):
            out = pl.store(z, [0, 0], out)
        for i in pl.range(NB - 1):
            cm = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z2 = pl.matmul(cl, w_right)
            out = pl.store(z2, [0, 0], out)
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [0, 0], scratch)
        return out
