# Under --v2c off (upstream's behaviour) the V2C dependency through q_rot is left unfenced: no token moves
# between the store and the cube's load.
# RUN: expand %shared/kernels/v2c_rope_attn.py --v2c off
# CHECK:     def rope_attn_aic(
# CHECK-NOT: _v2c_token
# CHECK:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:     def rope_attn_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NOT: tpush_to_aic
# CHECK:         scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
