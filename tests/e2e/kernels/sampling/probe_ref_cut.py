# Split-K over 4 blocks with an atomic-add store, behind a scalar loop whose length the unbound scalar n sets:
# at a large sampled n the reference's statements exceed a small --probe-budget while the schedules (a few tile
# instructions) do not. Without the reference the schedules' outputs differ by the order of the float adds
# (E-NONDET), which the reference's tolerance allows: such a probe is no verdict, not a finding.
import pypto.language as pl


@pl.program
class S:
    @pl.function(type=pl.FunctionType.InCore)
    def m(
        self,
        a: pl.Tensor[[16, 256], pl.FP16],
        b: pl.Tensor[[256, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        k0 = blk * 64
        j = 0
        for i in pl.range(n * 1024):
            j = i + 1
        a_mat = pl.load(a, [0, k0], [16, 64], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [k0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        part = pl.matmul(a_left, b_right)
        out = pl.store(part, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
