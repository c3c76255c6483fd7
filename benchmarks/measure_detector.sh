#!/bin/bash
# The detector measurements of models/README.md for the models in DIR (tiles-obb.onnx and
# tiles-obb.int8.onnx; e.g. models), JSON lines and logs under OUT (default runs/measure).
# Needs datasets/generated/heldout640 and heldout1280 (models/README.md says how to render them)
# and ../shared/real. About 5 minutes on 2 idle cores.
# usage: benchmarks/measure_detector.sh DIR [OUT]
set -u
D=${1:?usage: benchmarks/measure_detector.sh DIR [OUT]}; O=${2:-runs/measure}; mkdir -p "$O"
E=".venv/bin/dominocam eval"
date; uptime
for m in int8.onnx onnx; do
  $E --data ../shared/real/dd-game1 --scale 1.0 0.7 --model $D/tiles-obb.$m --out $O/real-$m > $O/real-$m.jsonl 2> $O/real-$m.log
  date
done
$E --data ../shared/real/dd-game1 --scale 1.0 0.7 --model $D/tiles-obb.int8.onnx --detection-only --no-slicing --out $O/real-whole > $O/real-whole.jsonl 2> $O/real-whole.log
$E --data ../shared/real/dd-game1 --scale 1.0 0.7 --model $D/tiles-obb.int8.onnx --target-tile-px 48 --out $O/real-t48 > $O/real-t48.jsonl 2> $O/real-t48.log
date
for m in int8.onnx onnx; do
  $E --data datasets/generated/heldout640 datasets/generated/heldout1280 --model $D/tiles-obb.$m --out $O/render-$m > $O/render-$m.jsonl 2> $O/render-$m.log
  date
done
$E --data datasets/generated/heldout1280 --model $D/tiles-obb.int8.onnx --target-tile-px 48 --out $O/render-t48 > $O/render-t48.jsonl 2> $O/render-t48.log
date
for m in int8.onnx onnx; do
  .venv/bin/dominocam bench --model $D/tiles-obb.$m --repeats 3 --json > $O/bench-$m.json 2> $O/bench-$m.log
  .venv/bin/dominocam bench --model $D/tiles-obb.$m --repeats 3 --json --no-slicing > $O/bench-ns-$m.json 2>> $O/bench-$m.log
done
date; uptime
echo done > $O/done
