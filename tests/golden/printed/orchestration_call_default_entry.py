# orchestration_call_manual_scope.py without --entry: of its two Orchestration functions only 'main' is called by
# no other, so it is the entry (and 'helper' is what it calls, not a second entry). The race in the callee's
# manual scope is reported as with --entry main. Before: E-ENTRY "the program has several Orchestration
# functions; choose one with --entry NAME" (exit 2, no verdict).
# RUN: check tests/golden/printed/orchestration_call_manual_scope.py --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 33 between launches in a manual scope
