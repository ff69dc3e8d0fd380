# A pl.split_aiv region inside a loop that reuses one GM scratch: both AIV lanes run the AIV function
# (dual dispatch), each stores its half, the cube reads the whole scratch. The loop-carried WAR flag must
# reach both lanes (a5: one cube set per lane).
import pypto.language as pl

B = 3
M = 32
K = 64
N = 64


@pl.program
class SplitRegionWar:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split_aiv": True})
    def split_region_war(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[B * M, N], pl.FP32]],
    ) -> pl.Tensor[[B * M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.Mem.Mat)
        w_right = pl.move(w_mat, target_memory=pl.Mem.Right)
        for i in pl.range(B):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                xb = pl.load(x, [lane * 16, i * K], [16, K])
                t = pl.add(xb, xb)
                scratch = pl.store(t, [lane * 16, 0], scratch)
            s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.Mem.Mat)
            s_left = pl.move(s_mat, target_memory=pl.Mem.Left)
            z = pl.matmul(s_left, w_right)
            out = pl.store(z, [i * M, 0], out)
        return out
