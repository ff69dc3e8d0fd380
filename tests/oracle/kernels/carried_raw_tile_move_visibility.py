# Oracle sweep finding (issue 10, --c2v complete --v2c fence, visibility delay 50): a loop-carried V2C RAW
# that a V2C tile move orders. The vector lane writes the scratch at the bottom of the body, the cube reads
# it at the top of the next iteration, after popping the tile the vector lane pushes at the top of that
# iteration (push after the store, pop before the load): ordered once the store is complete, but under a
# GM visibility delay the push's flag covers the store only through a fence of the vector lane between
# them. fence / syncall must publish the store (they took the pair as already ordered and added nothing).
import pypto.language as pl


@pl.program
class CarriedRawTileMove:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[32, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        scratch: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        cout: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        vin = pl.load(a, [0, 0], [32, 32])
        b_mat = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            moved = pl.move(vin, target_memory=pl.MemorySpace.Mat)
            prev = pl.load(scratch, [32, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
            lhs = pl.move(prev, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(lhs, rhs)
            cout = pl.store(z, [0, 0], cout)
            scratch = pl.store(vin, [(i % 2) * 32, 0], scratch)
        w = pl.cast(vin, pl.FP32)
        out = pl.store(w, [0, 0], out)
        return out
