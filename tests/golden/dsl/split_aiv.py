# pl.split_aiv regions: aiv_shard hands each lane its half on the split axis (rows for UP_DOWN, columns
# for LEFT_RIGHT, the whole tile for NONE); aic_gather joins the halves (double extent on the split axis).
# Outside a region both take split=N (3 and 4 are the odd splits: lane 0 gets the larger half).
# RUN: print
import pypto.language as pl


@pl.program
class Regions:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split_aiv": True})
    def up_down(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            h = pl.aiv_shard(a_mat)
            h2 = pl.add(h, h)
            g = pl.aic_gather(h2)
        g_left = pl.move(g, target_memory=pl.Mem.Left)
        b_right = pl.move(pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        z = pl.matmul(g_left, b_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore, attrs={"split_aiv": True})
    def left_right(self, a: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        a_mat = pl.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            h = pl.aiv_shard(a_mat, split=2)
            g = pl.aic_gather(h)
        r = pl.move(g, target_memory=pl.Mem.Vec)
        out = pl.store(r, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def explicit(self, a: pl.Tensor[[17, 64], pl.FP16], out: pl.Out[pl.Tensor[[17, 64], pl.FP16]]) -> pl.Tensor[[17, 64], pl.FP16]:
        a_mat = pl.load(a, [0, 0], [17, 64], target_memory=pl.Mem.Mat)
        whole = pl.aiv_shard(a_mat, split=0)
        odd_rows = pl.aiv_shard(a_mat, split=3)
        cols = pl.tile.aiv_shard(a_mat, split=2)
        odd_back = pl.aic_gather(odd_rows, split=3)
        cols_back = pl.tile.aic_gather(cols, split=4)
        same = pl.aic_gather(whole, split=0)
        r = pl.move(odd_back, target_memory=pl.Mem.Vec)
        out = pl.store(r, [0, 0], out)
        return out

# CHECK: # pypto.program: Regions
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Regions:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def up_down(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
# CHECK:         pl.func_attr({'split_aiv': True})
# CHECK:         a_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
# CHECK:         for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
# CHECK:             h: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.aiv_shard(a_mat)
# CHECK:             h2: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(h, h)
# CHECK:             g: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(h2)
# CHECK:         g_left: pl.Tile[[32, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(g, target_memory=pl.Mem.Left)
# CHECK:         _load: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(_load, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[32, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(g_left, b_right)
# CHECK:         out: pl.Tensor[[32, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def left_right(self, a: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
# CHECK:         pl.func_attr({'split_aiv': True})
# CHECK:         a_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
# CHECK:         for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
# CHECK:             h: pl.Tile[[32, 32], pl.FP16, pl.Mem.Vec] = pl.tile.aiv_shard(a_mat, split=2)
# CHECK:             g: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(h)
# CHECK:         r: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.move(g, target_memory=pl.Mem.Vec)
# CHECK:         out: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(r, [0, 0], out)
# CHECK:         return out
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def explicit(self, a: pl.Tensor[[17, 64], pl.FP16], out: pl.Out[pl.Tensor[[17, 64], pl.FP16]]) -> pl.Tensor[[17, 64], pl.FP16]:
# CHECK:         a_mat: pl.Tile[[17, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [17, 64], target_memory=pl.Mem.Mat)
# CHECK:         whole: pl.Tile[[17, 64], pl.FP16, pl.Mem.Vec] = pl.tile.aiv_shard(a_mat, split=0)
# CHECK:         odd_rows: pl.Tile[[9, 64], pl.FP16, pl.Mem.Vec] = pl.tile.aiv_shard(a_mat, split=3)
# CHECK:         cols: pl.Tile[[17, 32], pl.FP16, pl.Mem.Vec] = pl.tile.aiv_shard(a_mat, split=2)
# CHECK:         odd_back: pl.Tile[[17, 64], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(odd_rows, split=3)
# CHECK:         cols_back: pl.Tile[[17, 63], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(cols, split=4)
# CHECK:         same: pl.Tile[[17, 64], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(whole, split=0)
# CHECK:         r: pl.Tile[[17, 64], pl.FP16, pl.Mem.Vec] = pl.tile.move(odd_back, target_memory=pl.Mem.Vec)
# CHECK:         out: pl.Tensor[[17, 64], pl.FP16] = pl.tile.store(r, [0, 0], out)
# CHECK:         return out
