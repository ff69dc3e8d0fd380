# The checker sees a kernel's pl.tensor.write as a GM write: the vector lane writes one element of the
# cube's operand with nothing ordering it before the cube's load, so check must report the cross-core
# race (a scalar write the checker did not see would make this clean).
# RUN: check --v2c off --schedules 20
# EXIT: 1
# CHECK: error[E-RACE-RAW]
# pypto.program: ScalarWriteRace
import pypto.language as pl


@pl.program
class ScalarWriteRace:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_aic(a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_mat: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 16], [32, 16], target_memory=pl.Mem.Mat)
        b_right: pl.Tile[[32, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        c: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(c, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scale_aiv(a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.tensor.write(a, [3, 5], pl.cast(2.0, pl.FP16))

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mm(a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.mm_aic(a, b, out)
        self.scale_aiv(a, b, out)
        return out
