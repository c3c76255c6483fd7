#!/bin/bash
# The whole reader's measurements of models/MODEL_CARD.md: `dominocam eval` on the three
# held-out render sets with the renderer's boxes and with the detector, the real photos (float and
# int8), the 8 live deals of datasets/cache/live-eval (model and boxes readers) and `dominocam
# bench` for both models; JSON lines and logs under OUT. Needs datasets/generated/heldout640,
# heldout1280, heldout1080 (models/MODEL_CARD.md says how to render them) and ../shared/real; the
# live deals are rendered into datasets/cache/live-eval first if missing (python -m lab.live.classic). About 4 minutes on 2 idle cores; the timings need the machine quiet.
# usage: lab/benchmarks/measure_reader.sh OUT [quick]    (quick: renderer's boxes and real photos only)
# summary: python -m lab.diagnose.summarise OUT
set -u
O=${1:?usage: lab/benchmarks/measure_reader.sh OUT [quick]}; mkdir -p "$O"
E=".venv/bin/dominocam eval"
SETS="datasets/generated/heldout640 datasets/generated/heldout1280 datasets/generated/heldout1080"
$E --data $SETS --truth-boxes --out "$O/tb" > "$O/tb.jsonl" 2> "$O/tb.log"
$E --data ../shared/real/dd-game1 --scale 1.0 0.7 --out "$O/real" > "$O/real.jsonl" 2> "$O/real.log"
[ "${2:-}" = quick ] && exit 0
$E --data $SETS --out "$O/det" > "$O/det.jsonl" 2> "$O/det.log"
$E --data ../shared/real/dd-game1 --scale 1.0 0.7 --model models/tiles-obb.int8.onnx --out "$O/real-int8" > "$O/real-int8.jsonl" 2> "$O/real-int8.log"
.venv/bin/python -m lab.live.classic datasets/cache/live-eval 2> "$O/live-render.log"
L=""
for d in s7_960_bykovo s7_640_bykovo s24_640_bykovo s21_640_baltic s5_960_baltic s22_640_traditional s23_640_dark s44_640_traditional; do
  L="$L datasets/cache/live-eval/$d"
done
.venv/bin/python -m lab.live.evaluate $L --reader model --model models/tiles-obb.int8.onnx --json > "$O/live-int8.jsonl" 2> "$O/live-int8.log"
.venv/bin/python -m lab.live.evaluate $L --reader boxes --json > "$O/live-boxes.jsonl" 2> "$O/live-boxes.log"
for m in int8.onnx onnx; do
  .venv/bin/dominocam bench --repeats 3 --json --model models/tiles-obb.$m > "$O/bench-$m.json" 2> "$O/bench-$m.log"
done
echo done > "$O/done"
