# Printed-IR style: the orchestration computes n__ssa_v0 = pl.tensor.dim(x, 0) and annotates the kernel's
# result over it; the kernel's own dimensions use another caller name, m__ssa_v0. Both follow T (the first
# from pl.tensor.dim of x: [T, 64], the second from the actual argument), so the result's annotation
# [n__ssa_v0, 64] matches the kernel's return type [m__ssa_v0, 64] for every T; a value of either that did
# not follow T would be an E-TYPE at the call.
import pypto.language as pl

T = pl.dynamic("T")


@pl.program
class SymDimTensorDim:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        x__ssa_v0: pl.Tensor[[m__ssa_v0, 64], pl.FP32],
        out__ssa_v0: pl.Out[pl.Tensor[[m__ssa_v0, 64], pl.FP32]],
    ) -> pl.Tensor[[m__ssa_v0, 64], pl.FP32]:
        xv__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [m__ssa_v0 - 16, 0], [16, 64])
        out__ssa_v1: pl.Tensor[[m__ssa_v0, 64], pl.FP32] = pl.tile.store(xv__tile, [m__ssa_v0 - 16, 0], out__ssa_v0)
        return out__ssa_v1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[T, 64], pl.FP32], out: pl.Out[pl.Tensor[[T, 64], pl.FP32]]) -> pl.Tensor[[T, 64], pl.FP32]:
        n__ssa_v0: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        r: pl.Tensor[[n__ssa_v0, 64], pl.FP32] = self.copy(x, out)
        return r
