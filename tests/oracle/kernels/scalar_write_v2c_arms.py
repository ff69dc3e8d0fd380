# pl.tensor.write and a cube load of the same tensor in sibling arms of a branch in a loop (issue 10):
# iteration 0 writes one element on the vector lane, iteration 1 loads it on the cube (a V2C
# read-after-write only the back edge creates). ROW as in scalar_write_v2c.py.
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
            if i == 0:
                vin = pl.load(a, [0, 0], [16, 16])
                v = pl.tile.read(vin, [0, 0])
                pl.tensor.write(b, [ROW, 5], v)
            else:
                b_l = pl.load(b, [0, 0], [8, 16], target_memory=pl.MemorySpace.Mat)
                lhs = pl.move(b_l, target_memory=pl.MemorySpace.Left)
                a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                rhs = pl.move(a_l, target_memory=pl.MemorySpace.Right)
                acc = pl.matmul(lhs, rhs)
                out = pl.store(acc, [0, 0], out)
        return out
