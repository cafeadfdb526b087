#!/usr/bin/env bash
# The MPI path gives the same reports as the plain run (issue 4): mpirun -np 2 on localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(sim --scenario short,long --variant base,prussians-early --games 60 --seed 11)
./waterloo "${args[@]}" --out "$tmp/plain" >/dev/null 2>&1
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --oversubscribe -np 2 ./waterloo-mpi "${args[@]}" --out "$tmp/mpi" >/dev/null 2>&1
for f in report.md summary.json games.csv; do
  cmp -s "$tmp/plain/$f" "$tmp/mpi/$f" || { echo "mpi check: $f differs between mpirun -np 2 and the plain run"; exit 1; }
done
echo "mpi check: mpirun -np 2 output equals the plain run (report.md, summary.json, games.csv)"
