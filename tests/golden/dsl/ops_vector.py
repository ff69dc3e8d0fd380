# Every vector op of OPS.md with its result type: elementwise binary, tile-scalar (unified spellings
# dispatch on the operand kind), unary, cast, row reductions and row broadcasts, full, transpose.
# RUN: print
import pypto.language as pl


@pl.program
class VectorOps:
    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, x: pl.Tensor[[16, 32], pl.FP32], s: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        a = pl.load(x, [0, 0], [16, 32])
        b = pl.tile.add(a, a)
        c = pl.sub(b, a)
        d = pl.mul(c, a)
        e = pl.div(d, a)
        f = pl.maximum(e, a)
        g = pl.minimum(f, a)
        h = pl.add(g, 1.0)
        i = pl.sub(h, s)
        j = pl.tile.muls(i, 2.0)
        k = pl.div(j, 4.0)
        l1 = pl.exp(k)
        l2 = pl.log(l1)
        l3 = pl.sqrt(l2)
        l4 = pl.rsqrt(l3)
        l5 = pl.recip(l4)
        l6 = pl.abs(l5)
        l7 = pl.neg(l6)
        l8 = pl.relu(l7)
        rs = pl.row_sum(l8)
        rm = pl.tile.row_max(l8)
        m1 = pl.row_expand_mul(l8, rs)
        m2 = pl.row_expand_add(m1, rm)
        m3 = pl.row_expand_sub(m2, rs)
        full = pl.tile.full([16, 32], dtype=pl.FP32, value=0.5)
        tr = pl.transpose(full, 0, 1)
        back = pl.transpose(tr, 0, 1)
        m4 = pl.add(m3, back)
        h16 = pl.cast(m4, pl.FP16)
        h16b = pl.tile.cast(m4, pl.FP16, mode="floor")
        sub = pl.slice(h16b, [8, 32], [8, 0])
        both = pl.add(h16, h16)
        out = pl.store(both, [0, 0], out)
        out = pl.store(sub, [8, 0], out)
        return out

# CHECK: # pypto.program: VectorOps
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class VectorOps:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def vec(self, x: pl.Tensor[[16, 32], pl.FP32], s: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
# CHECK:         a: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
# CHECK:         b: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, a)
# CHECK:         c: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.sub(b, a)
# CHECK:         d: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.mul(c, a)
# CHECK:         e: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.div(d, a)
# CHECK:         f: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(e, a)
# CHECK:         g: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.minimum(f, a)
# CHECK:         h: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(g, 1.0)
# CHECK:         i: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.subs(h, s)
# CHECK:         j: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(i, 2.0)
# CHECK:         k: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.divs(j, 4.0)
# CHECK:         l1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.exp(k)
# CHECK:         l2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.log(l1)
# CHECK:         l3: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.sqrt(l2)
# CHECK:         l4: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.rsqrt(l3)
# CHECK:         l5: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.recip(l4)
# CHECK:         l6: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.abs(l5)
# CHECK:         l7: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.neg(l6)
# CHECK:         l8: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.relu(l7)
# CHECK:         rs: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.row_sum(l8)
# CHECK:         rm: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.row_max(l8)
# CHECK:         m1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_mul(l8, rs)
# CHECK:         m2: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_add(m1, rm)
# CHECK:         m3: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_sub(m2, rs)
# CHECK:         full: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 32], dtype=pl.FP32, value=0.5)
# CHECK:         tr: pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec] = pl.tile.transpose(full, 0, 1)
# CHECK:         back: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.transpose(tr, 0, 1)
# CHECK:         m4: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(m3, back)
# CHECK:         h16: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.cast(m4, pl.FP16)
# CHECK:         h16b: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.cast(m4, pl.FP16, mode='floor')
# CHECK:         sub: pl.Tile[[8, 32], pl.FP16, pl.Mem.Vec] = pl.tile.slice(h16b, [8, 32], [8, 0])
# CHECK:         both: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.add(h16, h16)
# CHECK:         out: pl.Tensor[[16, 32], pl.FP16] = pl.tile.store(both, [0, 0], out)
# CHECK:         out: pl.Tensor[[16, 32], pl.FP16] = pl.tile.store(sub, [8, 0], out)
# CHECK:         return out
