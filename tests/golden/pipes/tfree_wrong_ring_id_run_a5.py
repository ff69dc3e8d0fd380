# `run` of tfree_wrong_ring_id.py on a5: the same E-PIPE-FREE, exit 1 (it was "internal error", exit 3).
# RUN: run tests/golden/pipes/tfree_wrong_ring_id.py --target a5
# EXIT: 1
# CHECK: outputs: equal to the reference
# CHECK: findings: 1
# CHECK: error[E-PIPE-FREE]: tfree_wrong_ring_id.py:35: system.tfree_to_aic names the C2V ring id 1
