# Every cube op of OPS.md with its result type: matmul, matmul_acc, matmul_bias, gemv (result physical
# [16, N], valid [1, N]), gemv_acc, gemv_bias; moves Mat -> Left/Right/Bias, Acc -> Mat; int8 -> int32.
# RUN: print
import pypto.language as pl


@pl.program
class CubeOps:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(
        self,
        a: pl.Tensor[[16, 64], pl.BF16],
        b: pl.Tensor[[64, 32], pl.BF16],
        bias: pl.Tensor[[1, 32], pl.BF16],
        q: pl.Tensor[[16, 32], pl.INT8],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        iout: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
        bias_mat = pl.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Mat)
        lhs = pl.move(a_mat, target_memory=pl.Mem.Left)
        rhs = pl.move(b_mat, target_memory=pl.Mem.Right)
        bt = pl.move(bias_mat, target_memory=pl.Mem.Bias)
        c = pl.matmul(lhs, rhs)
        c2 = pl.tile.matmul_acc(c, lhs, rhs)
        c3 = pl.matmul_bias(lhs, rhs, bt)
        row = pl.load(a, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
        row_left = pl.move(row, target_memory=pl.Mem.Left)
        gv = pl.tile.gemv(row_left, rhs)
        gv2 = pl.tile.gemv_acc(gv, row_left, rhs)
        gv3 = pl.tile.gemv_bias(row_left, rhs, bt)
        c_mat = pl.move(c3, target_memory=pl.Mem.Mat)
        tv = pl.tile.transpose_view(c_mat)
        q_mat = pl.load(q, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        q_left = pl.move(q_mat, target_memory=pl.Mem.Left)
        q_rmat = pl.load(q, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        q_right = pl.move(pl.reshape(q_rmat, [32, 16]), target_memory=pl.Mem.Right)
        qi = pl.matmul(q_left, q_right)
        iout = pl.store(qi, [0, 0], iout)
        out = pl.store(c2, [0, 0], out)
        return out

# CHECK: # pypto.program: CubeOps
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class CubeOps:
# CHECK:     @pl.function(type=pl.FunctionType.AIC)
# CHECK:     def cube(self, a: pl.Tensor[[16, 64], pl.BF16], b: pl.Tensor[[64, 32], pl.BF16], bias: pl.Tensor[[1, 32], pl.BF16], q: pl.Tensor[[16, 32], pl.INT8], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]], iout: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 32], pl.FP32]:
# CHECK:         a_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_mat: pl.Tile[[64, 32], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
# CHECK:         bias_mat: pl.Tile[[1, 32], pl.BF16, pl.Mem.Mat] = pl.tile.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Mat)
# CHECK:         lhs: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
# CHECK:         rhs: pl.Tile[[64, 32], pl.BF16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         bt: pl.Tile[[1, 32], pl.BF16, pl.Mem.Bias] = pl.tile.move(bias_mat, target_memory=pl.Mem.Bias)
# CHECK:         c: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(lhs, rhs)
# CHECK:         c2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(c, lhs, rhs)
# CHECK:         c3: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_bias(lhs, rhs, bt)
# CHECK:         row: pl.Tile[[1, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
# CHECK:         row_left: pl.Tile[[1, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(row, target_memory=pl.Mem.Left)
# CHECK:         gv: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[1, 32])] = pl.tile.gemv(row_left, rhs)
# CHECK:         gv2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[1, 32])] = pl.tile.gemv_acc(gv, row_left, rhs)
# CHECK:         gv3: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[1, 32])] = pl.tile.gemv_bias(row_left, rhs, bt)
# CHECK:         c_mat: pl.Tile[[16, 32], pl.FP32, pl.Mem.Mat] = pl.tile.move(c3, target_memory=pl.Mem.Mat)
# CHECK:         tv: pl.Tile[[32, 16], pl.FP32, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(c_mat)
# CHECK:         q_mat: pl.Tile[[16, 32], pl.INT8, pl.Mem.Mat] = pl.tile.load(q, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
# CHECK:         q_left: pl.Tile[[16, 32], pl.INT8, pl.Mem.Left] = pl.tile.move(q_mat, target_memory=pl.Mem.Left)
# CHECK:         q_rmat: pl.Tile[[16, 32], pl.INT8, pl.Mem.Mat] = pl.tile.load(q, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
# CHECK:         _reshape: pl.Tile[[32, 16], pl.INT8, pl.Mem.Mat] = pl.tile.reshape(q_rmat, [32, 16])
# CHECK:         q_right: pl.Tile[[32, 16], pl.INT8, pl.Mem.Right] = pl.tile.move(_reshape, target_memory=pl.Mem.Right)
# CHECK:         qi: pl.Tile[[16, 16], pl.INT32, pl.Mem.Acc] = pl.tile.matmul(q_left, q_right)
# CHECK:         iout: pl.Tensor[[16, 16], pl.INT32] = pl.tile.store(qi, [0, 0], iout)
# CHECK:         out: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(c2, [0, 0], out)
# CHECK:         return out
