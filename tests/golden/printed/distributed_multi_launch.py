# A whole-model file in the printed style (after ExpandMixedKernel) holding a distributed kernel: the
# orchestration launches a mixed kernel with a V2C race through GM (relay), a clean C2V kernel (scores) and an
# AIV kernel that pushes rows to a peer rank (pld.DistributedTensor, pld.tile.remote_store,
# pld.system.notify, its result annotated pl.UnknownType as PyPTO prints it). check gives each single-device kernel its verdict and reports the distributed one as
# not checked (E-UNSUPPORTED at its first pld use); the race makes the exit code 1.
# RUN: check --schedules 10
# EXIT: 1
# CHECK: [relay]
# CHECK: E-RACE-RAW
# CHECK: [scores]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNSUPPORTED 69:65 'push_rows' is a distributed function ('pld.DistributedTensor')
# pypto.program: DistModel
import pypto.language as pl


@pl.program
class DistModel:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def relay_aic(x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def relay_aiv(x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        d: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, xv)
        scratch_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(d, [0, 0], scratch)
        return out

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def relay(self, x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        self.relay_aic(x, w, scratch, out)
        result: pl.Tensor[[16, 64], pl.FP32] = self.relay_aiv(x, w, scratch, out)
        return result

    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def scores_aic(q: pl.Tensor[[16, 32], pl.FP16], k: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="scores_c2v_slot_buffer", peer_func="scores_aiv")
        pl.system.aic_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        q_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(q, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
        q_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(q_mat, target_memory=pl.Mem.Left)
        k_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, 0], [32, 64], [32, 64], target_memory=pl.Mem.Mat)
        k_right: pl.Tile[[32, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(q_left, k_right)
        pl.tile.tpush_to_aiv(s, split=0)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scores_aiv(q: pl.Tensor[[16, 32], pl.FP16], k: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="scores_c2v_slot_buffer", size=8192, base=pl.AUTO)
        pl.system.aiv_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        s_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        p: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(s_vec)
        pl.system.tfree_to_aic(s_vec)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(p, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def scores(self, q: pl.Tensor[[16, 32], pl.FP16], k: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        self.scores_aic(q, k, out)
        result: pl.Tensor[[16, 64], pl.FP32] = self.scores_aiv(q, k, out)
        return result

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def push_rows(x: pl.Tensor[[16, 64], pl.FP32], recv: pl.Out[pld.DistributedTensor[[32, 64], pl.FP32]], arrived: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], my_rank: pl.Scalar[pl.INT32]):
        rows: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        for peer in pl.range(2):
            if peer != pl.cast(my_rank, pl.INDEX):
                pld.tile.remote_store(rows, recv, peer, [pl.cast(my_rank, pl.INDEX) * 16, 0])
                ack: pl.UnknownType = pld.system.notify(arrived, peer, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        return

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def model(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        q: pl.Tensor[[16, 32], pl.FP16],
        k: pl.Tensor[[32, 64], pl.FP16],
        recv: pl.Out[pld.DistributedTensor[[32, 64], pl.FP32]],
        arrived: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        my_rank: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r: pl.Tensor[[16, 64], pl.FP32] = self.relay(x, w, scratch, out)
        r2: pl.Tensor[[16, 64], pl.FP32] = self.scores(q, k, out2)
        self.push_rows(r2, recv, arrived, my_rank)
        return r
