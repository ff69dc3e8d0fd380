# property 4 (issue 10; the class the 10,000-kernel sweep left: 3 redundant V2C tokens): the vector store of t
# must complete before the cube's store of t after the loop (write-after-write). The loop's C2V moves push acc
# three times through a ring of 2 slots, so the cube's third push waits for the slot the vector frees after its
# first pop, which follows the store and the fence --v2c fence places after it. The cube's store of t runs on
# FIXP after that push (the same pipe), so it follows the vector's store: the fence stays, the V2C token goes.
# Each block writes its own rows (2-block cases).
import pypto.language as pl


@pl.program
class BackPressure:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        t: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        vout: pl.Out[pl.Tensor[[96, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        bi = pl.tile.get_block_idx()
        vin = pl.load(a, [0, 0], [16, 32])
        a_l = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        w = pl.cast(vin, pl.FP32)
        t = pl.store(w, [bi * 16, 0], t)
        for i in pl.range(3):
            s = pl.move(acc, target_memory=pl.MemorySpace.Vec)
            vout = pl.store(s, [bi * 48 + i * 16, 0], vout)
        t = pl.store(acc, [bi * 16, 0], t)
        return t
