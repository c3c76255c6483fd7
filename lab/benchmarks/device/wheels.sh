#!/bin/bash
# Download (here, where PyPI is reachable) the wheels the lent GPU machine lacks for training:
# its image has torch, torchvision, OpenCV, matplotlib, httpx and the rest, but not Ultralytics
# (polars, which Ultralytics also asks for, is stood in for by lab/benchmarks/device/stubs). The
# versions are this checkout's (.venv); the machine's Python is 3.12 on x86-64. The folder is kept
# out of git (.git/info/exclude) and carried by the device tool: carry [".device-wheels"].
# usage: lab/benchmarks/device/wheels.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
D=.device-wheels
grep -qx "/$D/" .git/info/exclude 2>/dev/null || echo "/$D/" >> .git/info/exclude
mkdir -p "$D"
v() { .venv/bin/pip show "$1" | awk '/^Version:/ {print $2}'; }
pkgs="ultralytics==$(v ultralytics) ultralytics-thop==$(v ultralytics-thop) ultralytics-platform==$(v ultralytics-platform)"
.venv/bin/pip download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 \
  --python-version 3.12 --implementation cp -d "$D" $pkgs
du -sh "$D"; ls "$D"
