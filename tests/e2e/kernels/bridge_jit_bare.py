# A PyPTO kernel source as users write them (written for cvsim's tests): two @pl.jit entries with bare
# pl.Tensor annotations whose shapes come from the tensors the file's __main__ passes, each call followed by a
# golden assert. cvsim's bridge runs the file with the entry calls captured (asserts compiled out) and check
# checks both kernels.
import pypto.language as pl
import torch


@pl.jit
def add_rows(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [16, 64])
        tb = pl.load(b, [0, 0], [16, 64])
        pl.store(pl.add(ta, tb), [0, 0], c)
    return c


@pl.jit
def scale_rows(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [16, 64])
        pl.store(pl.mul(ta, 2.0), [0, 0], c)
    return c


if __name__ == "__main__":
    a = torch.randn(16, 64, dtype=torch.float32)
    b = torch.randn(16, 64, dtype=torch.float32)
    c = torch.zeros(16, 64, dtype=torch.float32)
    add_rows(a, b, c)
    assert torch.allclose(c, a + b)
    d = torch.zeros(16, 64, dtype=torch.float32)
    scale_rows(a, d)
    assert torch.allclose(d, a * 2.0)
    print("OK")
