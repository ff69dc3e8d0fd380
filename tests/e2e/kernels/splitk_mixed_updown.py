# Split-K across blocks in a mixed kernel split UP_DOWN: the cube computes each block's partial product, each
# AIV lane takes its half of the rows and atomically adds relu(partial) into the shared output.
import pypto.language as pl

M = 32
K = 64
N = 64


@pl.program
class MixedAtomic:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def mixed_atomic(
        self,
        a: pl.Tensor[[M, 128], pl.FP16],
        b: pl.Tensor[[128, N], pl.FP16],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        k0 = blk * K
        a_mat = pl.load(a, [0, k0], [M, K], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [k0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        part = pl.matmul(a_left, b_right)
        v = pl.move(part, target_memory=pl.MemorySpace.Vec)
        r = pl.relu(v)
        out = pl.store(r, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
