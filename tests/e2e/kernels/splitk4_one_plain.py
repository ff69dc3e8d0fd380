# Split-K across four blocks where block 3 stores its partial product plainly instead of adding it: it
# races with the other blocks' atomic adds, and the lost partial sums are a mismatch beyond the order bound.
import pypto.language as pl

M = 16
K = 256
KB = 64
N = 64


@pl.program
class SplitK4Mixed:
    @pl.function(type=pl.FunctionType.InCore)
    def splitk4_mixed(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        k0 = blk * KB
        a_mat = pl.load(a, [0, k0], [M, KB], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [k0, 0], [KB, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        part = pl.matmul(a_left, b_right)
        if blk == 3:
            o1 = pl.store(part, [0, 0], out)
            o2 = pl.yield_(o1)
        else:
            o3 = pl.store(part, [0, 0], out, atomic=pl.AtomicType.Add)
            o2 = pl.yield_(o3)
        out = o2
        return out
