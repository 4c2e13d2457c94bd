#!/usr/bin/env bash
# One prepared chunk of the everyday default's training on a lent GPU, in one command (issue 50:
# "When a GPU is at hand, train there with one prepared script").
#
# A session is lent 15 minutes of device time, a command at most 10, and gets back at most 8 files
# of 16 MiB each. So this script trains for MINUTES (default 6) and stops by the trainer's STOP
# file, averages the last four checkpoints in float16, scores the average there (held-out sets and
# scorecard, on the GPU and the machine's 16 cores), and leaves under $OUT the scores and the
# average's weights cut in 15 MiB parts (model.safetensors.part-aa, -ab, ...; `cat` joins them):
# six files, train.log (the device, the trainer's output, what was averaged, the scorers' stderr),
# heldout.json, scorecard.json, two parts and avg-rest.tar.gz (the checkpoint's other files).
#
# Before the call, on the 2-core machine (the tracked tree is over the 64 MiB a call may carry, and
# the data live outside it):
#     bash recipes/everyday/device_chunk.sh --pack        # .devdata/data.tar.xz from ../shared/data
#     git switch -c device-slim && git rm -rq checkpoints/classroom-en-de \
#         checkpoints/multi30k-en-de checkpoints/runs && git commit -qm slim   # off the disk too:
#         untracked files that git does not ignore travel as well (about 40 MB off; the rest
#         and the 8 MB archive are under the limit). `git switch main` afterwards brings them
#         back; never merge or push the branch.
# The call: command `bash recipes/everyday/device_chunk.sh`, carry [".devdata"], timeout_s 600.
# After it: cat the parts into runs/gpu/avg/model.safetensors beside the returned config.json,
# tokenizer and history files, and judge it with `python -m recipes.everyday.verdict`.
#
# Settings by environment: MINUTES, LR (lr-scale, default 0.03), BATCH (tokens, default 16384),
# SEED (default 70), INIT (default checkpoints/everyday-en-de), MIX (the --task-opt flags, default
# the mix of T6 in docs/BENCHMARKS.md). DRY=1 runs the same steps on the CPU for a few steps (the
# test of this script: tests/test_device_chunk.py).
set -uo pipefail
export PYTHONUNBUFFERED=1

if [ "${1:-}" = "--pack" ]; then
    mkdir -p .devdata
    grep -qx '/.devdata/' .git/info/exclude 2>/dev/null || echo '/.devdata/' >> .git/info/exclude
    tar -C "${SHARED:-../shared}" -cJf .devdata/data.tar.xz data/multi30k data/ding
    ls -l .devdata/data.tar.xz
    exit 0
fi

OUT=${OUT:?set OUT, the folder whose files come back}
DATA=${DATA:-.devdata/data}
MINUTES=${MINUTES:-6}
LR=${LR:-0.03}
BATCH=${BATCH:-16384}
SEED=${SEED:-70}
INIT=${INIT:-checkpoints/everyday-en-de}
RUN=${RUN:-runs/device-chunk}
MIX=${MIX:-"--task-opt m30k_repeat=3 --task-opt daily=25000 --task-opt talk=12000 --task-opt pronouns=24000 --task-opt textbook=40000 --task-opt life=20000 --task-opt scenes=30000 --task-opt topic=15000 --task-opt lexicon=16000 --task-opt wide_nouns=400 --task-opt lexicon_pronouns=16000 --task-opt ding_repeat=3"}

if [ ! -d "$DATA/multi30k" ] && [ -f .devdata/data.tar.xz ]; then
    tar -C .devdata -xJf .devdata/data.tar.xz
fi
[ -d "$DATA/multi30k" ] && [ -d "$DATA/ding" ] || { echo "no data under $DATA (run --pack first)"; exit 2; }

if [ "${DRY:-0}" = 1 ]; then
    DEVICE=cpu; THREADS=2; STEPS=4; EVERY=2; EVAL=100000; LIMIT="--limit 4"; SC_LIMIT="--limit 4"
else
    DEVICE=cuda; THREADS=8; STEPS=100000; EVERY=250; EVAL=2000; LIMIT=""; SC_LIMIT=""
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/train.log"
fi

# shellcheck disable=SC2086  # MIX is a list of flags
python -m recipes.everyday.train --task everyday --data-dir "$DATA/multi30k" $MIX \
    --task-opt ding_dir="$DATA/ding" --init "$INIT" --steps "$STEPS" --warmup 100 \
    --lr-scale "$LR" --batch-tokens "$BATCH" --checkpoint-every "$EVERY" --eval-every "$EVAL" --keep-checkpoints 0 \
    --supervise-head decoder_self:2:6,encoder_self:2:0 --supervise-weight 1.0 \
    --interchange-head encoder_self:2:0,decoder_self:2:6 --interchange-weight 0.25 \
    --interchange-pairs 16 --seed "$SEED" --threads "$THREADS" --device "$DEVICE" \
    --out "$RUN" >> "$OUT/train.log" 2>&1 &
TRAINER=$!
if [ "${DRY:-0}" != 1 ]; then
    # stop by time: the trainer saves a checkpoint and exits when it sees the STOP file
    ( sleep $((MINUTES * 60)); touch "$RUN/STOP" ) &
    TIMER=$!
fi
wait "$TRAINER"; echo "trainer exit $?" >> "$OUT/train.log"
[ -n "${TIMER:-}" ] && kill "$TIMER" 2>/dev/null
tail -3 "$OUT/train.log"

mapfile -t LAST < <(ls -d "$RUN"/checkpoints/step-* | sort | tail -4)
[ "${#LAST[@]}" -gt 0 ] || { echo "no checkpoint was saved"; exit 3; }
python -m transformer.average "${LAST[@]}" --weights-dtype float16 --out "$RUN/avg" || exit 4
echo "averaged: ${LAST[*]}" >> "$OUT/train.log"

# shellcheck disable=SC2086
python -m transformer.heldout --checkpoint "$RUN/avg" --ding-dir "$DATA/ding" --sets lesson,seeds,ding \
    --beam 5 --alpha 0.6 --device "$DEVICE" --threads "$THREADS" $LIMIT > "$OUT/heldout.json" 2>> "$OUT/train.log"
# shellcheck disable=SC2086
python -m transformer.scorecard --checkpoint "$RUN/avg" --data-dir "$DATA/multi30k" --threads "$THREADS" \
    --json $SC_LIMIT > "$OUT/scorecard.json" 2>> "$OUT/train.log"

# the weights in parts under 16 MiB; the small files of the checkpoint in one tar
split -b 15M "$RUN/avg/model.safetensors" "$OUT/model.safetensors.part-"
tar -C "$RUN/avg" --exclude model.safetensors -czf "$OUT/avg-rest.tar.gz" .
ls -l "$OUT"
