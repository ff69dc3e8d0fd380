# A scalar read from a vector tile (pl.tile.read) feeds a cube load's offset through a SHARED cast: the cast
# was copied to the AIC, which never set 's' and ran with a made-up value (reported clean). No core
# transports a scalar (tpush/tpop carry tiles): E-UNSUPPORTED at the cast.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        x2: pl.Tensor[[64, 64], pl.FP16],
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        acc_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        s = pl.tile.read(t, [0, 0])
        k = s * 2.0
        r = pl.cast(s, pl.INDEX)
        u = pl.adds(t, k)
        out = pl.store(u, [0, 0], out)
        xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(xl, wr)
        acc_out = pl.store(z, [0, 0], acc_out)
        return acc_out
