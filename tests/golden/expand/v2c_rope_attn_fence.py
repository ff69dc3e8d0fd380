# Format example for expander goldens: the V2C dependency through q_rot is fenced under --v2c fence (the
# vector lane pushes its stored tile as a token, the cube pops it before it loads q_rot back), and the C2V
# boundary move of the scores becomes a tpush/tpop pair. Only the lines that matter are checked.
# RUN: expand %shared/kernels/v2c_rope_attn.py --v2c fence
# CHECK:     def rope_attn_aic(
# CHECK:         _v2c_token: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:         pl.tile.tpush_to_aiv(scores, split=0)
# CHECK:     def rope_attn_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(r, split=0)
# CHECK-NOT: system.syncall
# CHECK:         scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK:     @pl.function(type=pl.FunctionType.Group)
# CHECK:         self.rope_attn_aic(q, cos, sin, k, q_rot, out)
