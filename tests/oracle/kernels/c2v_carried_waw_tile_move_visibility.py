# A loop-carried write-after-write of the two lanes (--c2v complete, visibility delay): the cube writes the
# scratch at the bottom of the body, the vector lane at the top of the next iteration after popping the
# accumulator the cube pushes there (ordered on completion). Under a visibility delay the cube's write may
# become visible after the vector's: `complete` must publish it with a fence before that push.
import pypto.language as pl


@pl.program
class CarriedWaw:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        a_mat = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        acc0 = pl.matmul(lhs0, w_right)
        t = pl.load(a, [0, 0], [16, 64])
        for i in pl.range(3):
            s = pl.move(acc0, target_memory=pl.MemorySpace.Vec)
            v = pl.add(s, s)
            scratch = pl.store(v, [0, 0], scratch)
            scratch = pl.store(acc0, [0, 0], scratch)
        out = pl.store(acc0, [0, 0], out)
        return out
