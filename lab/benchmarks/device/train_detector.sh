#!/bin/bash
# Train the tile detector on a lent GPU machine in one call of the device tool (its `run`), within the
# 15 minutes of device time a task is lent: render a fresh training set there in 16 processes, train
# (by default a continuation of models/tiles-obb.pt with a whole learning-rate schedule, which the
# 2-core machine never had time for), and send the weights back; export and measure them here.
#
#   here, once:      lab/benchmarks/device/wheels.sh          (Ultralytics' wheels into .device-wheels/)
#   on the device:   run(command="bash lab/benchmarks/device/train_detector.sh", carry=[".device-wheels"],
#                        timeout_s=590)
#   here, after:     see models/README.md, "On a lent GPU"
#
# Settings by environment (defaults in brackets): IMAGES [12000] rendered 640x640 stills, VAL [300]
# of them for validation, SEED [16],
# INIT [models/tiles-obb.pt; "none" trains MODEL from scratch], MODEL [yolo11n-obb.yaml], MINUTES [6]
# of training (whole epochs, planned from the first), EPOCHS [40] at most, BATCH [64], DEVICE [0],
# PROCS [16] rendering processes, WORKERS [12] data-loading processes (0 if the machine's shared
# memory is too small for them), PY [python3]. Writes to $OUT: train.log, tiles-obb.train.pt (split
# into 15 MB parts when larger: `cat tiles-obb.train.pt.part-* > tiles-obb.train.pt`),
# tiles-obb.train.json, results.csv.
set -uo pipefail
: "${OUT:?run this through the device tool, which sets OUT (or set OUT to a folder)}"
IMAGES=${IMAGES:-12000} SEED=${SEED:-16} INIT=${INIT:-models/tiles-obb.pt} MODEL=${MODEL:-yolo11n-obb.yaml}
VAL=${VAL:-300} MINUTES=${MINUTES:-6} EPOCHS=${EPOCHS:-40} BATCH=${BATCH:-64} DEVICE=${DEVICE:-0} PROCS=${PROCS:-16} PY=${PY:-python3}
WORKERS=${WORKERS:-12}
exec > >(tee "$OUT/train.log") 2>&1
T=${TMPDIR:-/tmp}/dominocam-device
mkdir -p "$T"
date -u; nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if ! $PY -c "import ultralytics" 2>/dev/null; then
  ls .device-wheels/*.whl >/dev/null 2>&1 || { echo "no .device-wheels: run lab/benchmarks/device/wheels.sh here and carry it"; exit 3; }
  $PY -m pip install -q --no-index --no-deps --target "$T/site" .device-wheels/*.whl || exit 3
  export PYTHONPATH="$PYTHONPATH:$T/site"
fi
$PY -c "import polars" 2>/dev/null || export PYTHONPATH="$PYTHONPATH:$PWD/lab/benchmarks/device/stubs"
$PY -c "import torch, ultralytics; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'ultralytics', ultralytics.__version__)" || exit 4

SECONDS=0
$PY -m dominocam synth --out "$T/train" --images "$IMAGES" --seed "$SEED" --size 640x640 --val "$VAL" --processes "$PROCS" || exit 5
echo "rendered $IMAGES images in $SECONDS s"

init=()
[ "$INIT" != none ] && init=(--init "$INIT")
# mosaic off for the whole of a continuation (as on the CPU: see models/README.md), the last 10
# epochs of a run from scratch
mosaic=$([ "$INIT" != none ] && echo "$EPOCHS" || echo 10)
SECONDS=0
$PY -m dominocam train --data "$T/train" "${init[@]}" --model-yaml "$MODEL" --device "$DEVICE" --workers "$WORKERS" \
  --batch "$BATCH" --nbs "$BATCH" --epochs "$EPOCHS" --max-epochs "$EPOCHS" --close-mosaic "$mosaic" \
  --time-limit-h "$($PY -c "print($MINUTES / 60)")" --val-final-only --threads 16 \
  --runs "$T/runs" --name gpu --out "$OUT" --no-export
rc=$?
echo "training ended with $rc after $SECONDS s"
cp "$T/runs/gpu/results.csv" "$OUT/" 2>/dev/null
for f in "$OUT"/*.pt; do
  [ -f "$f" ] && [ "$(stat -c %s "$f")" -gt 15000000 ] && split -b 15M "$f" "$f.part-" && rm "$f"
done
ls -l "$OUT"
exit $rc
