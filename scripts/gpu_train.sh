#!/bin/bash
# The device side of a detector run on a lent GPU machine (docs/detector.md, "A run on a GPU machine").
# It expects, carried beside the working tree: gpu/data.tar.gz (scripts/pack_gpu_data.py) and .whl/ with the
# ultralytics and ultralytics-thop wheels (that machine has torch but not ultralytics). Every argument is
# passed to `jingsuan train detector`, e.g.
#   bash scripts/gpu_train.sh --model models/tiles.pt --single-class --epochs 60 --close-mosaic 5 --hours 0.1 --name det5
# The run's weights, results.csv and log are copied to $OUT, which the device tool brings back.
set -u
PY=${PYTHON:-python3}  # the machine's python, the one that holds torch
tar xzf gpu/data.tar.gz -C gpu || exit 1
$PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
# ultralytics reads results.csv back with polars only to store it inside the checkpoint, and catches the
# failure; a stub saves carrying polars' 40 MB wheel.
mkdir -p /tmp/site/polars
printf 'def read_csv(*a, **k):\n    raise RuntimeError("polars is not installed here")\n' > /tmp/site/polars/__init__.py
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 YOLO_OFFLINE=1
OUT=${OUT:-gpu/out}
mkdir -p "$OUT"
$PY -m app.cli train detector --source "" --data-dir "$PWD/gpu/data" --project "$PWD/gpu/runs" \
  --imgsz 416 --batch 64 --workers ${WORKERS:-12} --device ${DEVICE:-0} "$@" > "$OUT/train.log" 2>&1
rc=$?
run=$(ls -td gpu/runs/*/ | head -1)
cp "$run"weights/last.pt "$run"weights/best.pt "$run"results.csv "$OUT"/ 2>/dev/null
grep -a -E "epochs completed|EarlyStopping|Error|Traceback" "$OUT/train.log" | tail -5
echo "train rc=$rc, run $run"
exit $rc
