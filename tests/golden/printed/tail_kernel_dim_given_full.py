# tail_kernel_at_sampled_size.py at T = 128 given by the user: the tail kernel is not launched (128 is a multiple
# of 16), which is a note, not E-UNCHECKED for scalars of a launch the orchestration does not make.
# RUN: check tests/golden/printed/tail_kernel_at_sampled_size.py --schedules 5 --jobs 1 --dim T=128
# EXIT: 0
# CHECK: [full_rows]: 6 schedules
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: tail_rows
