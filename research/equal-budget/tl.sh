#!/bin/sh
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=2
export PYTHONPATH="$(dirname "$0")/snap/python"
$PY check_variants.py | head -4
$PY roundtrip_tl.py
$PY fusionmerge.py code norep.tl.mk 32000 0
$PY fusionmerge.py udhr norep.tl.mk 32000 0
