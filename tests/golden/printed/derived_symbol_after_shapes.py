# A host scalar computed from two sizes cvsim makes up on their own (bs_cfg = ROWS // NBLK: 128 // 128 = 1)
# names a dimension that a call's shapes also bind (the kernel's BS, made up as 128). The shapes win: the
# expression binds a symbol only when nothing else does (sema_dims.cpp). Taking 1 made a per-call copy of the
# kernel with BS = 1 whose 128-row window did not fit (E-OOB, exit 2; PyPTO's paged-attention examples).
# RUN: check --schedules 3 --jobs 1
# EXIT: 0
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: BS_1
import pypto.language as pl

ROWS = pl.dynamic("ROWS")
NBLK = pl.dynamic("NBLK")
BS = pl.dynamic("BS")


@pl.program
class DerivedSymbolAfterShapes:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(k: pl.Tensor[[BS, 64], pl.FP32], out: pl.Out[pl.Tensor[[BS, 64], pl.FP32]]) -> pl.Tensor[[BS, 64], pl.FP32]:
        kv: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(k, [0, 0], [128, 64])
        y: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(kv, 2.0)
        o: pl.Tensor[[BS, 64], pl.FP32] = pl.tile.store(y, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, cache: pl.Tensor[[ROWS, 64], pl.FP32], table: pl.Tensor[[NBLK], pl.INT32]) -> pl.Tensor[[bs_cfg, 64], pl.FP32]:
        bs_cfg: pl.Scalar[pl.INDEX] = ROWS // NBLK
        kj: pl.Tensor[[bs_cfg, 64], pl.FP32] = pl.tensor.slice(cache, [bs_cfg, 64], [0, 0])
        buf: pl.Tensor[[bs_cfg, 64], pl.FP32] = pl.tensor.create([bs_cfg, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        r: pl.Tensor[[bs_cfg, 64], pl.FP32] = self.scale(kj, buf)
        return r
