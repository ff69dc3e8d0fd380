# parity fixture: a loop whose vector stores a GM tensor the cube then loads in the same iteration (the AIC lane
# carries nothing upstream: StripDeadIterArgs sees no read of the carried tensor, the load names the parameter).
import pypto.language as pl


@pl.program
class LoopV2cGmCarried:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[128, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16],
             scratch: pl.InOut[pl.Tensor[[128, 64], pl.FP16]], out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for i in pl.range(0, 2):
                xi = pl.slice(x, [64, 64], [i * 64, 0])
                t = pl.add(xi, xi)
                scratch = pl.assemble(scratch, t, [i * 64, 0])
                prev = pl.slice(scratch, [64, 64], [0, 0])
                acc = pl.matmul(prev, w, out_dtype=pl.FP32)
                r = pl.add(acc, 1.0)
                out = pl.assemble(out, r, [i * 64, 0])
        return out
