# pl.spmd_submit with a core_num the orchestration computes (cores = dim(x, 0) // 2 + 2 = 4): the host walk
# evaluates it, and the note names the kernel and the 4 blocks (before: 'pl.spmd_submit' and '--blocks 1').
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def double(x: pl.Tensor[[4, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[4, 16, 64], pl.FP16]]) -> pl.Tensor[[4, 16, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [b, 0, 0], [1, 16, 64], [1, 16, 64], target_memory=pl.Mem.Vec)
        out = pl.tile.store(xv, [b, 0, 0], out, [1, 16, 64])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[4, 16, 64], pl.FP16]]) -> pl.Tensor[[4, 16, 64], pl.FP16]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        cores: pl.Scalar[pl.INDEX] = n // 2 + 2
        ret: pl.Tuple[pl.Tensor[[4, 16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.double, x, out, core_num=cores)
        r: pl.Tensor[[4, 16, 64], pl.FP16] = ret[0]
        return r
