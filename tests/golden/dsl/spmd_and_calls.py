# pl.spmd loops (launch keywords kept), Orchestration functions, calls between functions with positional
# and keyword arguments, multi-value returns, tuple unpacking and indexing a returned tuple.
# RUN: print
import pypto.language as pl


@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.CORE_GROUP, role=pl.Role.Worker)
    def worker(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], s: pl.Scalar[pl.INT32]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INT32]]:
        t = pl.load(x, [0, 0], [16, 16])
        y = pl.store(t, [0, 0], y)
        return y, s

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = pl.create_tensor([16, 16], pl.FP32)
        y2, s = self.worker(a, y, 3)
        pair = self.worker(a, y=y2, s=s, attrs={"inline": False})
        y3 = pair[0]
        for blk in pl.spmd(4, name="blocks"):
            idx = pl.tile.get_block_idx()
        z = pl.tensor.create([16, 16], pl.FP32)
        return y3

# CHECK: # pypto.program: Calls
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Calls:
# CHECK:     @pl.function(type=pl.FunctionType.AIV, level=pl.Level.CORE_GROUP, role=pl.Role.Worker)
# CHECK:     def worker(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], s: pl.Scalar[pl.INT32]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INT32]]:
# CHECK:         t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16])
# CHECK:         y: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], y)
# CHECK:         return y, s
# CHECK:     @pl.function(type=pl.FunctionType.Orchestration)
# CHECK:     def orch(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         y: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], pl.FP32)
# CHECK:         y2, s = self.worker(a, y, 3)
# CHECK:         pair: tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INT32]] = self.worker(a, y2, s, attrs={'inline': False})
# CHECK:         y3: pl.Tensor[[16, 16], pl.FP32] = pair[0]
# CHECK:         for blk in pl.spmd(4, name='blocks'):
# CHECK:             idx: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
# CHECK:         z: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], pl.FP32)
# CHECK:         return y3
