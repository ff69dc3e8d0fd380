#!/bin/sh
# Regenerate the parity fixtures: PyPTO's printed program just before and just after ExpandMixedKernel
# for each kernel of tests/golden/pypto/parity/src/ (kernels written for cvsim, never upstream's), on
# a2a3, and on a5 for the kernels listed in A5 (the V2C NZ adapter). Needs PyPTO (PYPTO_WORK or an
# importable pypto). Usage: scripts/parity_fixtures.sh   (from the repository root)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR="$ROOT/tests/golden/pypto/parity"
PY=${CVSIM_PYTHON:-python3}
A5="v2c_scale_matmul bidirectional split_up_down"
for src in "$DIR"/src/*.py; do
    name=$(basename "$src" .py)
    "$PY" "$ROOT/scripts/pypto_bridge.py" "$src" --out "$DIR/$name.before.py" --after "$DIR/$name.after.py" --platform a2a3
    for k in $A5; do
        if [ "$k" = "$name" ]; then
            "$PY" "$ROOT/scripts/pypto_bridge.py" "$src" --out "$DIR/$name.a5.before.py" --after "$DIR/$name.a5.after.py" --platform a5
        fi
    done
done
echo "parity fixtures written to $DIR"
