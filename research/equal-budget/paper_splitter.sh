#!/bin/sh
# the paper splitter (functok compare's default): baseline, paper modes, best split profile, and
# the fusion-merge variants at 32k/16k
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=1
while pgrep -f stage2u.sh >/dev/null; do sleep 10; done
$PY grid.py code paper baseline paper_split paper_fused
$PY fusionmerge.py code norep.r2ge.mk 32000,16000 0.1,0.2 paper
$PY fmctx.py code norep.r2ge.mk 32000,16000 0.15,0.2 all paper
