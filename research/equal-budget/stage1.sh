#!/bin/sh
# stage 1: baseline, paper modes, whitespace options, range-case rules (all split)
C=$1
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=2
$PY grid.py $C llama3 baseline paper_split paper_fused \
  wsp.cap.mk.split wsr.cap.mk.split norep.cap.mk.split \
  wsr.r2.mk.split wsr.r3.mk.split wsr.r2g.mk.split wsr.r3g.mk.split wsr.r2ge.mk.split \
  norep.r2g.mk.split norep.r2ge.mk.split
