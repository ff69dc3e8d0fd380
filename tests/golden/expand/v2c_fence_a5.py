# V2C fence on a5: the V2C transport carries NZ data, so the token is first moved to NZ
# (blayout=col_major, slayout=row_major) and that tile is pushed; the cube pops into Mat as on a2a3.
# RUN: expand %shared/kernels/v2c_rope_attn.py --v2c fence --target a5
# CHECK:     def rope_attn_aic(
# CHECK:         _v2c_token: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:         pl.system.tfree_to_aiv(_v2c_token)
# CHECK-NEXT:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:     def rope_attn_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NEXT:         r_nz: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(r, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(r_nz, split=0)
# CHECK:         scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
