# Host statements of an Orchestration function as PyPTO prints them (orchestration tensor ops on GM, arrays,
# task submission): cvsim reads and types them and prints them back (print -> parse -> print is the identity);
# it does not execute them (check takes the kernels they launch one at a time).
# RUN: print
# CHECK: n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
# CHECK: x0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(x, [16, 64], [0, 0])
# CHECK: xv: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.view(x, [16, 64], [16, 0])
# CHECK: flat: pl.Tensor[[1024], pl.FP16] = pl.tensor.reshape(x0, [1024])
# CHECK: v: pl.Scalar[pl.FP16] = pl.tensor.read(x, [0, 1])
# CHECK: buf: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.create([32, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
# CHECK: buf_1: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.assemble(buf, x0, [0, 0])
# CHECK: ids: pl.Tensor[[2], pl.INT32] = pl.array.create(2, pl.INT32)
# CHECK: e: pl.Scalar[pl.INT32] = pl.array.get_element(ids_1, 1)
# CHECK: t0: pl.Scalar[pl.TASK_ID] = pl.submit(self.scale, x0, out)
# CHECK: t1: pl.Scalar[pl.TASK_ID] = pl.spmd_submit(self.scale, xv, out, deps=[t0], core_num=4)
# CHECK: t2: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[t0, t1])
import pypto.language as pl


@pl.program
class HostOps:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        x0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(x, [16, 64], [0, 0])
        xv: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.view(x, [16, 64], [16, 0])
        flat: pl.Tensor[[1024], pl.FP16] = pl.tensor.reshape(x0, [1024])
        v: pl.Scalar[pl.FP16] = pl.tensor.read(x, [0, 1])
        buf: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.create([32, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        buf_1: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.assemble(buf, x0, [0, 0])
        ids: pl.Array[2, pl.INT32] = pl.array.create(2, pl.INT32)
        ids_1: pl.Array[2, pl.INT32] = pl.array.update_element(ids, 1, 7)
        e: pl.Scalar[pl.INT32] = pl.array.get_element(ids_1, 1)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            t0: pl.Scalar[pl.TASK_ID] = pl.submit(self.scale, x0, out)
            t1: pl.Scalar[pl.TASK_ID] = pl.spmd_submit(self.scale, xv, out, deps=[t0], core_num=4)
            t2: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[t0, t1])
        return out
