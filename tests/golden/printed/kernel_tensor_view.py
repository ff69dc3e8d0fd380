# A mixed kernel that loads its cube operand through pl.tensor.view, the zero-copy reshape PyPTO's printer
# leaves in a kernel (a [2, 64, 64] weight read as [128, 64]): the window [64:128, 0:64] of the view is the
# box [1, 0:64, 0:64] of the tensor. Read, expanded (the view stays on the AIC lane, with the load that
# uses it) and checked. Before: E-UNSUPPORTED "tensor-level op 'pl.tensor.view' in an InCore function".
# RUN: check --v2c fence --schedules 5
# CHECK: PASS: no finding in any explored schedule
# pypto.program: ViewedWeight
import pypto.language as pl


@pl.program
class ViewedWeight:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mm_exp(x: pl.Tensor[[16, 64], pl.BF16], w: pl.Tensor[[2, 64, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w2: pl.Tensor[[128, 64], pl.BF16, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.ND)] = pl.tensor.view(w, [128, 64])
        x_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w2, [64, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        z_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(z, target_memory=pl.Mem.Vec)
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(z_vec)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1
