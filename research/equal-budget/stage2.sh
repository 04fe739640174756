#!/bin/sh
# stage 2: fusion rules on the best split profile
C=$1; B=${2:-norep.r2ge.mk}
PY="nice -n 10 $(git rev-parse --show-toplevel)/.venv/bin/python"
export RAYON_NUM_THREADS=2
$PY grid.py $C llama3 $B.fused $B.T1000 $B.T100 $B.T30 $B.T10 $B.T3 $B.T300 $B.first $B.K2000 $B.K8000
