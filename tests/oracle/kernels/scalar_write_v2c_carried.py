# Loop-carried V2C read-after-write through pl.tensor.write (issue 10): the cube loads b earlier in the
# loop body than the vector writes one element of it, so iteration 1's load reads what iteration 0 wrote
# (and iteration 0's load is read before the write: a write-after-read). ROW as in scalar_write_v2c.py.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        for i in pl.range(2):
            b_l = pl.load(b, [0, 0], [8, 16], target_memory=pl.MemorySpace.Mat)
            lhs = pl.move(b_l, target_memory=pl.MemorySpace.Left)
            a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            rhs = pl.move(a_l, target_memory=pl.MemorySpace.Right)
            acc = pl.matmul(lhs, rhs)
            out = pl.store(acc, [0, 0], out)
            vin = pl.load(a, [0, 0], [16, 16])
            v = pl.tile.read(vin, [i, 0])
            pl.tensor.write(b, [ROW, 5], v)
        return out
