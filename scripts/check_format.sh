#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (Debian's clang-format package, the version
# scripts/setup.sh installs) makes of it with the checked-in .clang-format. Fix: scripts/check_format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
    echo "check_format: clang-format is not installed (scripts/setup.sh installs it)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [[ "${1:-}" == "--fix" ]]; then
    printf '%s\0' "${files[@]}" | xargs -0 -n 20 clang-format -i
    exit 0
fi
bad=()
for f in "${files[@]}"; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]} > 0)); then
    echo "check_format: ${#bad[@]} file(s) are not clang-formatted ($(clang-format --version)):" >&2
    printf '    %s\n' "${bad[@]}" >&2
    echo "run scripts/check_format.sh --fix" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files formatted"
