# tail_kernel_at_sampled_size.py at a size the user gives: T = 8 launches the tail kernel only (the full-rows
# kernel's 16-row window would not fit, and the orchestration does not launch it: a note, not E-OOB).
# RUN: check tests/golden/printed/tail_kernel_at_sampled_size.py --schedules 5 --jobs 1 --dim T=8
# EXIT: 0
# CHECK: [tail_rows]: 6 schedules
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: full_rows
