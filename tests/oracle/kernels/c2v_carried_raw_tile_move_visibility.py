# The C2V twin of carried_raw_tile_move_visibility.py (--c2v complete, visibility delay): the cube writes
# the scratch at the bottom of the body, the vector lane reads it at the top of the next iteration after
# popping the accumulator the cube pushes at the top of that iteration. `complete` must publish the cube's
# store with a fence before that push.
import pypto.language as pl


@pl.program
class C2vCarriedRawTileMove:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[32, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        scratch: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        vout: pl.Out[pl.Tensor[[96, 32], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        for i in pl.range(3):
            moved = pl.move(acc, target_memory=pl.MemorySpace.Vec)
            prev = pl.load(scratch, [32, 0], [32, 32])
            vout = pl.store(prev, [i * 32, 0], vout)
            scratch = pl.store(acc, [(i % 2) * 32, 0], scratch)
        out = pl.store(acc, [0, 0], out)
        return out
