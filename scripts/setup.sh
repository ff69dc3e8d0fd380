#!/usr/bin/env bash
# Installs the Debian packages cvsim needs, only those that are missing (idempotent).
# Usage: scripts/setup.sh [--ci]   (--ci also installs the extras CI uses: clang fuzzer runtime, chromium; GNU parallel for the README's
# scale-out example and git for `cvsim --version` are always installed)
set -euo pipefail

pkgs=(
    cmake g++ make pkg-config ninja-build
    libsystemc-dev libeigen3-dev libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev
    libtomlplusplus-dev libfmt-dev librapidcheck-dev libbenchmark-dev
    parallel git clang-format
)
if [[ "${1:-}" == "--ci" ]]; then
    pkgs+=(clang libclang-rt-14-dev chromium)
fi

missing=()
for p in "${pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)); then
    echo "setup: all ${#pkgs[@]} packages present"
    exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
