#!/usr/bin/env bash
# Commit every result file that has landed under results/ (and the variants' kept meta), with
# FINDINGS.md and docs/downstream.md rebuilt, as ONE commit: results as a grid, not one file per
# commit. Run it from the worktree whose branch should hold them; it commits nothing when no
# result is new. The Python that rebuilds the write-ups is $PYTHON (default: the repository's
# .venv-torch, else python3); build_findings.py needs no torch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
python=${PYTHON:-}
if [[ -z $python ]]; then
    if [[ -x $root/.venv-torch/bin/python ]]; then python=$root/.venv-torch/bin/python; else python=python3; fi
fi
(cd "$here" && PYTHONPATH="$root/python" "$python" build_findings.py)
git -C "$root" add -- research/downstream/results research/downstream/FINDINGS.md docs/downstream.md
if git -C "$root" diff --cached --quiet; then
    echo "no new results"
    exit 0
fi
landed=$(git -C "$root" diff --cached --name-only -- research/downstream/results | grep -c '\.seed[0-9]*\.json$' || true)
git -C "$root" commit -q -m "research/downstream: $landed follow-up result files as one grid, FINDINGS.md and docs/downstream.md rebuilt" \
    -- research/downstream/results research/downstream/FINDINGS.md docs/downstream.md
git -C "$root" log --oneline -1
