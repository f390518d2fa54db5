#!/bin/sh
# A lab's variants and seeds as a Slurm job array: one task per variant and seed, each writing its
# run to OUT/VARIANT-SEED; 'rocelab lab report OUT/*' merges them afterwards (labs/README.md,
# "Sweeps on many machines").
#
#   sbatch --array=0-5 labs/slurm-sweep.sh labs/dcqcn.yaml "dcqcn pfc_only" "1 2 3" runs
#
# The array has (variants x seeds) tasks, 0 to N-1: task ID runs variant number ID / SEEDS and
# seed number ID % SEEDS (both counted from 0 in the lists given). Outside Slurm, TASK=ID runs one
# task by hand (TASK=4 sh labs/slurm-sweep.sh ...). ROCELAB names the command (default: ./rocelab
# where the job starts, Slurm's submit directory, else rocelab on the PATH; e.g.
# ROCELAB="java -jar /shared/rocelab.jar"). Build once before submitting (./rocelab --version).
#SBATCH --job-name=rocelab-sweep
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
set -eu

if [ $# -ne 4 ]; then
    echo "usage: sbatch --array=0-N $0 LAB_FILE \"VARIANT...\" \"SEED...\" OUT_DIR" >&2
    exit 2
fi
lab=$1
variants=$2
seeds=$3
out=$4
task=${SLURM_ARRAY_TASK_ID:-${TASK:-}}
if [ -z "$task" ]; then
    echo "$0: no SLURM_ARRAY_TASK_ID (sbatch --array=...) and no TASK=ID" >&2
    exit 2
fi

nseeds=$(echo $seeds | wc -w)
nvariants=$(echo $variants | wc -w)
if [ "$task" -ge $((nseeds * nvariants)) ]; then
    echo "$0: task $task: the array is 0-$((nseeds * nvariants - 1)) ($nvariants variants x $nseeds seeds)" >&2
    exit 2
fi
if [ -z "${ROCELAB:-}" ]; then
    if [ -x ./rocelab ]; then ROCELAB=./rocelab; else ROCELAB=rocelab; fi
fi
variant=$(echo $variants | cut -d' ' -f$((task / nseeds + 1)))
seed=$(echo $seeds | cut -d' ' -f$((task % nseeds + 1)))

# a variant of a lab without variants: give "-" and the run has none
if [ "$variant" = "-" ]; then
    exec $ROCELAB lab run "$lab" --seed "$seed" --out "$out/run-$seed"
fi
exec $ROCELAB lab run "$lab" --variant "$variant" --seed "$seed" --out "$out/$variant-$seed"
