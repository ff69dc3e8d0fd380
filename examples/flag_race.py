# A producer that signals every iteration and a slightly faster consumer that waits every iteration: the
# 4-bit flag counter never holds more than a few pending sets -- unless the consumer is stalled long enough
# at the wrong moment, when the producer's sets overflow it. A timing-dependent (depth-2) bug.
import pypto.language as pl

T = 32


@pl.program
class FlagRace:
    @pl.function(type=pl.FunctionType.AIC)
    def p_aic(self, a: pl.Tensor[[48, 48], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16]):
        am = pl.load(a, [0, 0], [48, 48], target_memory=pl.MemorySpace.Mat)
        al = pl.move(am, target_memory=pl.MemorySpace.Left)
        ar = pl.move(am, target_memory=pl.MemorySpace.Right)
        for i in pl.range(T):
            z = pl.matmul(al, ar)
            pl.system.sync_set(0, pipe=pl.PipeType.M, core_type="aic")

    @pl.function(type=pl.FunctionType.AIV)
    def p_aiv(self, a: pl.Tensor[[48, 48], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16]):
        t = pl.load(b, [0, 0], [16, 16])
        for i in pl.range(T):
            pl.system.sync_wait(0, pipe=pl.PipeType.V, core_type="aiv")
            u = pl.exp(t)

    @pl.function(type=pl.FunctionType.Group)
    def p(self, a: pl.Tensor[[48, 48], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16]):
        self.p_aic(a, b)
        self.p_aiv(a, b)
