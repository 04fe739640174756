#!/bin/sh
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=1
B=norep.r2ge.mk
$PY grid.py udhr llama3 $B.fused $B.T1000 $B.T100 $B.T10 $B.T3 norep.r2ge.nomk.split norep.r2ge.nomk.T3
