#!/bin/sh
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=1
export PYTHONPATH="$(dirname "$0")/snap/python"
while [ ! -f cache/split-$1-llama3-norep.tl.mk.json ]; do sleep 5; done
$PY krule_eval.py $1 32000,16000,22627,45255,64000,8000,11314 norep.tl.mk
