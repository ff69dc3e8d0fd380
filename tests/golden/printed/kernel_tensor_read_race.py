# The checker sees a kernel's pl.tensor.read as a GM read: here the vector lane rewrites the table the cube
# lane reads its index from, with nothing ordering the two, so check must report the cross-core race
# (a scalar read that the checker did not see would make this clean).
# RUN: check --v2c off --schedules 20
# EXIT: 1
# CHECK: FAIL
# pypto.program: TableRace
import pypto.language as pl


@pl.program
class TableRace:
    @pl.function(type=pl.FunctionType.InCore)
    def race(table: pl.Tensor[[16, 16], pl.INT32], kv: pl.Tensor[[64, 32], pl.FP16], w: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.INT32, pl.Mem.Vec] = pl.tile.load(table, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        t2: pl.Tile[[16, 16], pl.INT32, pl.Mem.Vec] = pl.tile.adds(t, 1)
        table_1: pl.Tensor[[16, 16], pl.INT32] = pl.tile.store(t2, [0, 0], table)
        blk: pl.Scalar[pl.INT32] = pl.tensor.read(table, [0, 1])
        row: pl.Scalar[pl.INDEX] = pl.min(pl.max(pl.cast(blk, pl.INDEX), 0), 3) * 16
        a_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(kv, [row, 0], [16, 32], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[32, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, w_right)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(s, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, table: pl.Tensor[[16, 16], pl.INT32], kv: pl.Tensor[[64, 32], pl.FP16], w: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.race(table, kv, w, out)
        return r
