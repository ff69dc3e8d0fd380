# split_updown_scratch.py (attr split=UP_DOWN) under --v2c fence: the AIV body works on halves (Vec tiles
# 16 of 32 rows, GM offsets shifted by subblock_idx * 16), the token push carries split code 1 and the cube's
# pop the same code, so it waits for both lanes' halves before loading the scratch.
# RUN: expand %shared/kernels/split_updown_scratch.py --v2c fence
# CHECK:     def split_scratch_aic(
# CHECK:         _v2c_token: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=1)
# CHECK-NEXT:         pl.system.tfree_to_aiv(_v2c_token)
# CHECK-NEXT:         s_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
# CHECK:     def split_scratch_aiv(
# CHECK:         subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK:         a_t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [subblock_idx * 16, 0], [16, 64])
# CHECK-NEXT:         s: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.mul(a_t, a_t)
# CHECK-NEXT:         scratch: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(s, [subblock_idx * 16, 0], scratch)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(s, split=1)
