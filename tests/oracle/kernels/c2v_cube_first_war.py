# Cube-first write-after-read (issue 10): the cube reads `io`, then the vector lane overwrites it. The
# cube's access runs first (C2V): --v2c fence / syncall order it as before, and with --v2c off
# `--c2v complete` orders it too.
import pypto.language as pl


@pl.program
class CubeFirstWar:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        io: pl.InOut[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        io_mat = pl.load(io, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        io_left = pl.move(io_mat, target_memory=pl.MemorySpace.Left)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(io_left, x_right)
        out = pl.store(z, [0, 0], out)
        xv = pl.load(x, [0, 0], [16, 16])
        e = pl.exp(xv)
        io = pl.store(e, [0, 0], io)
        return out
