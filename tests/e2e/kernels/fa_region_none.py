# A pl.split_aiv(2, mode=NONE) region: both AIV lanes run the region in full, each storing the rows its
# lane index picks. The expansion marks the AIV function split_aiv (as PyPTO does), so on a2a3 lane 1 is
# not taken for the replay of an unsplit function: both halves of y are written.
import pypto.language as pl


@pl.program
class RegionNone:
    @pl.function(type=pl.FunctionType.InCore)
    def region(self, a: pl.Tensor[[16, 32], pl.FP16], w: pl.Tensor[[32, 32], pl.FP16],
               y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], z: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        w_mat = pl.load(w, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        p = pl.matmul(pl.move(a_mat, target_memory=pl.MemorySpace.Left), pl.move(w_mat, target_memory=pl.MemorySpace.Right))
        z = pl.store(p, [0, 0], z)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            t = pl.load(a, [lane * 8, 0], [8, 32])
            s = pl.cast(pl.add(t, t), target_type=pl.FP32)
            y = pl.store(s, [lane * 8, 0], y)
        return y
