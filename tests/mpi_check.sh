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
# balance (rounds of sim runs) and worth (restricted play) on the same driver (issue 24 items 3, 4)
mpi_same() { # NAME FILE... -- ARGS...
  local name=$1; shift
  local files=(); while [ "$1" != -- ]; do files+=("$1"); shift; done; shift
  ./waterloo "$name" "$@" --quiet --out "$tmp/$name-plain" >/dev/null 2>&1
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --oversubscribe -np 2 ./waterloo-mpi "$name" "$@" --quiet --out "$tmp/$name-mpi" >/dev/null 2>&1
  for f in "${files[@]}"; do
    cmp -s "$tmp/$name-plain/$f" "$tmp/$name-mpi/$f" || { echo "mpi check: $name $f differs between mpirun -np 2 and the plain run"; exit 1; }
  done
  echo "mpi check: $name under mpirun -np 2 equals the plain run (${files[*]})"
}
mpi_same balance balance.md balance.svg -- --param hand_fr --range 8,24 --games 60 --rounds 2
mpi_same worth worth.md worth.svg report.md -- --scenario short --only artillery,bid --games 40
