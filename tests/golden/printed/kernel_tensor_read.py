# A mixed kernel that reads a block table from GM with pl.tensor.read (a scalar GM read, as PyPTO leaves it
# at the ExpandMixedKernel boundary) and loads the cube's operand at the row it names: read, expanded and
# checked (the index is clamped, so any seeded table value stays in bounds). Before: E-UNSUPPORTED
# "tensor-level op 'pl.tensor.read' in an InCore function".
# RUN: check --v2c fence --schedules 10
# CHECK: PASS: no finding in any explored schedule
# pypto.program: BlockTableRead
import pypto.language as pl


@pl.program
class BlockTableRead:
    @pl.function(type=pl.FunctionType.InCore)
    def gather_mm(table: pl.Tensor[[4], pl.INT32], a: pl.Tensor[[16, 32], pl.FP16], kv: pl.Tensor[[128, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        blk: pl.Scalar[pl.INT32] = pl.tensor.read(table, [1])
        row: pl.Scalar[pl.INDEX] = pl.min(pl.max(pl.cast(blk, pl.INDEX), 0), 3) * 32
        a_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        k_mat: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(kv, [row, 0], [32, 16], target_memory=pl.Mem.Mat)
        k_right: pl.Tile[[32, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
        s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, k_right)
        s_vec: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.move(s, target_memory=pl.Mem.Vec)
        e: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.exp(s_vec)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, table: pl.Tensor[[4], pl.INT32], a: pl.Tensor[[16, 32], pl.FP16], kv: pl.Tensor[[128, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.gather_mm(table, a, kv, out)
        return r
