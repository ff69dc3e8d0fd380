# tfree_of_view.py on a5: clean (the reference frees the view's popped tile too).
# RUN: check tests/golden/pipes/tfree_of_view.py --target a5
# CHECK: PASS: no finding in any explored schedule
