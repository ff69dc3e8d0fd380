# A distributed tensor type (pld.DistributedTensor, printed by PyPTO for multi-device programs) is read;
# running a launch that reaches the function is E-UNSUPPORTED naming the distributed passes (cvsim
# simulates one device), never E-TYPE.
# RUN: run
# ERROR: E-UNSUPPORTED 13:26 'f' is a distributed function ('pld.DistributedTensor')
import pypto.language as pl


@pl.program
class Dist:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 64], pl.FP32],
          data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        return x
