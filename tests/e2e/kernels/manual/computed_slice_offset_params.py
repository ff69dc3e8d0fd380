# The orchestration computes a slice offset (r0 = dim(x, 0) // 4 - 16) and passes the slice of 'out' and 'out'
# itself, and the offsets as the kernel's scalar parameters r0, c0: cvsim binds both to one GM tensor, the slice's
# offset the parameters' values (before: E-UNSUPPORTED, "not a constant pl.tensor.slice"). The kernel reads
# rows 0..15 and writes rows 16..31: PASS.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(src: pl.Tensor[[16, 64], pl.FP16], r0: pl.Scalar[pl.INDEX], c0: pl.Scalar[pl.INDEX], dst: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        v: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        o: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(v, [r0 + 16, c0], dst)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        r0: pl.Scalar[pl.INDEX] = n // 4 - 16
        c0: pl.Scalar[pl.INDEX] = 0
        s: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(out, [16, 64], [r0, c0])
        o: pl.Tensor[[64, 64], pl.FP16] = self.copy(s, r0, c0, out)
        return o
