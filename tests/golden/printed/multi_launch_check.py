# An Orchestration function in the printed style that launches two kernels and runs host ops on GM (tensor
# dim/slice/create, array create/update, a dummy task): `check` takes each launched kernel in turn and reports
# a verdict per kernel; the pl.dynamic T of the orchestration takes the documented default.
# RUN: check --v2c fence --schedules 20
# CHECK: [relay]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [scale]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

T = pl.dynamic("T")


@pl.program
class MultiLaunch:
    @pl.function(type=pl.FunctionType.InCore)
    def relay(x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        d: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, xv)
        scratch = pl.tile.store(d, [0, 0], scratch)
        s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
        out = pl.tile.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out = pl.tile.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[T, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP32]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        x0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(x, [16, 64], [0, 0])
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        ids: pl.Array[2, pl.INT32] = pl.array.create(2, pl.INT32)
        ids_1: pl.Array[2, pl.INT32] = pl.array.update_element(ids, 0, 1)
        with pl.scope():
            r: pl.Tensor[[16, 64], pl.FP32] = self.relay(x0, w, scratch, out)
            r2: pl.Tensor[[16, 64], pl.FP16] = self.scale(x0, out2)
        return r
