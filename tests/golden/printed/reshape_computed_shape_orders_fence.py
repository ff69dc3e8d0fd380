# A fence pattern (the shape of pypto-lib's prefill compressor): 'scat' reads the fence f and writes the state
# st, a pl.tensor.reshape of the entry's st0 to a shape computed at run time ([pl.tensor.dim(st0, 0), 64]);
# 'pool' reads st; 'commit' reads pool's result and writes f. The runtime's tensor map orders pool after scat
# (st) and commit after pool, so commit's write of f follows scat's read: clean. Before: the reshape to a
# computed shape made st 'anywhere in st0', no sure overlap, the order through it was lost and the file had an
# E-RACE-WAR on f.
# RUN: check --schedules 2
# CHECK: PASS (the file)
# CHECK-NOT: error[
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def scat(f: pl.Tensor[[1], pl.INT32], x: pl.Tensor[[16, 64], pl.FP32], st: pl.InOut[pl.Tensor[[N, 64], pl.FP32]]) -> pl.Tensor[[N, 64], pl.FP32]:
        o: pl.Scalar[pl.INT32] = pl.tensor.read(f, [0])
        xv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        s1: pl.Tensor[[N, 64], pl.FP32] = pl.tile.store(xv, [0, 0], st)
        return st

    @pl.function(type=pl.FunctionType.AIV)
    def pool(st: pl.Tensor[[N, 64], pl.FP32], p: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        xv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(st, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        o: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(xv, [0, 0], p)
        return p

    @pl.function(type=pl.FunctionType.AIV)
    def commit(p: pl.Tensor[[16, 64], pl.FP32], f: pl.Out[pl.Tensor[[1], pl.INT32]]):
        v: pl.Scalar[pl.FP32] = pl.tensor.read(p, [0, 0])
        b: pl.Scalar[pl.INT32] = pl.cast(v == v, pl.INT32)
        pl.tensor.write(f, [0], b)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], st0: pl.InOut[pl.Tensor[[N, 2, 32], pl.FP32]], p: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        f: pl.Tensor[[1], pl.INT32] = pl.tensor.create([1], dtype=pl.INT32, layout=pl.TensorLayout.ND, init_value=0.0)
        nb: pl.Scalar[pl.INDEX] = pl.tensor.dim(st0, 0)
        st: pl.Tensor[[N, 64], pl.FP32] = pl.tensor.reshape(st0, [nb, 64])
        r: pl.Tuple[pl.Tensor[[N, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.scat, f, x, st, core_num=1)
        st_1: pl.Tensor[[N, 64], pl.FP32] = r[0]
        p_1: pl.Tensor[[16, 64], pl.FP32] = self.pool(st_1, p)
        self.commit(p_1, f)
        return p_1
