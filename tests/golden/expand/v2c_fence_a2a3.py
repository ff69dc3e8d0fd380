# V2C fence on a2a3: the vector lane pushes the stored tile itself as the token (no NZ adapter: the pop's
# GM->L1 copy repacks ND->NZ), the cube pops it into Mat and frees it before its load of the scratch.
# RUN: expand %shared/kernels/v2c_rope_attn.py --v2c fence --target a2a3
# CHECK:     def rope_attn_aic(
# CHECK:         _v2c_token: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:         pl.system.tfree_to_aiv(_v2c_token)
# CHECK-NEXT:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:     def rope_attn_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(r, split=0)
# CHECK-NOT: _nz
# CHECK:         scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
