#!/bin/bash
# The detector measurements of models/README.md for the models in DIR (tiles-obb.onnx and
# tiles-obb.int8.onnx; e.g. models), JSON lines and logs under OUT (default runs/measure).
# Needs datasets/generated/heldout640 and heldout1280 (models/README.md says how to render them)
# and ../shared/real. About 10 minutes on 2 idle cores; the timings (bench) need the machine quiet.
# usage: lab/benchmarks/measure_detector.sh DIR [OUT] [PART]   (PART: real, render or bench; default all)
set -u
D=${1:?usage: lab/benchmarks/measure_detector.sh DIR [OUT] [PART]}; O=${2:-runs/measure}; P=${3:-all}; mkdir -p "$O"
E=".venv/bin/dominocam eval"
REAL="--data ../shared/real/dd-game1 --scale 1.0 0.7"
RENDER="--data datasets/generated/heldout640 datasets/generated/heldout1280"
date; uptime
# variants: NAME MODEL [DETECTOR FLAGS...]
variants() {
  echo "fp32 onnx"
  echo "int8 int8.onnx"
  echo "fp32-t64 onnx --target-tile-px 64"
  echo "fp32-t40 onnx --target-tile-px 40"
  echo "fp32-whole onnx --no-slicing"
}
if [ "$P" = all ] || [ "$P" = real ]; then
  variants | while read -r name m flags; do
    # shellcheck disable=SC2086
    $E $REAL --model "$D/tiles-obb.$m" $flags --out "$O/real-$name" > "$O/real-$name.jsonl" 2> "$O/real-$name.log"
  done
  date
fi
if [ "$P" = all ] || [ "$P" = render ]; then
  variants | head -3 | while read -r name m flags; do  # default, int8 and 64 px (the renders take longest)
    # shellcheck disable=SC2086
    $E $RENDER --model "$D/tiles-obb.$m" $flags --out "$O/render-$name" > "$O/render-$name.jsonl" 2> "$O/render-$name.log"
  done
  date
fi
if [ "$P" = all ] || [ "$P" = bench ]; then
  uptime
  variants | while read -r name m flags; do
    # shellcheck disable=SC2086
    .venv/bin/dominocam bench --model "$D/tiles-obb.$m" $flags --repeats 3 --json > "$O/bench-$name.json" 2> "$O/bench-$name.log"
  done
  date; uptime
fi
echo done > "$O/done-$P"
