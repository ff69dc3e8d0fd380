# The adversary of kernel_tensor_view.py: the cube operand's window [32:96, 0:64] of the pl.tensor.view
# [128, 64] of a [2, 64, 64] weight spans two matrices, which is no single box of the tensor. cvsim does not
# model such a window (its checker and GM model work in boxes of the tensor): the run reports E-UNSUPPORTED
# and the outputs E-UNCHECKED, and the exit code is 2 (no verdict), not 1 (a finding in the kernel).
# RUN: check --v2c fence --schedules 5
# EXIT: 2
# CHECK: error[E-UNSUPPORTED]:
# CHECK: is not one
# CHECK: NO VERDICT: a construct of this kernel is not modelled at run time
# pypto.program: ViewedWeightAcross
import pypto.language as pl


@pl.program
class ViewedWeightAcross:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mm_exp(x: pl.Tensor[[16, 64], pl.BF16], w: pl.Tensor[[2, 64, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w2: pl.Tensor[[128, 64], pl.BF16, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.ND)] = pl.tensor.view(w, [128, 64])
        x_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w2, [32, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        z_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(z, target_memory=pl.Mem.Vec)
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(z_vec)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1
