# PyPTO's TASK_ID is an orchestration task handle with no arithmetic: it is read and sized (expand works),
# but a lane program holding one is refused at run with E-UNSUPPORTED naming the variable.
# RUN: run
# ERROR: E-UNSUPPORTED 11:11 pl.TASK_ID
import pypto.language as pl


@pl.program
class TaskIdTile:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 32], pl.TASK_ID], out: pl.Out[pl.Tensor[[16, 32], pl.TASK_ID]]) -> pl.Tensor[[16, 32], pl.TASK_ID]:
        t: pl.Tile[[16, 32], pl.TASK_ID, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        out_1: pl.Tensor[[16, 32], pl.TASK_ID] = pl.tile.store(t, [0, 0], out)
        return out_1
