#!/usr/bin/env bash
# One device call for the exact pair kernel (issue 18): its gpu tests, `bench pairscore` (a million
# 1iep poses rescored exactly: GPU against one CPU core and all cores of the same host), and the
# `minimize` SDF-to-ranked-SDF pipeline on a million records with exact GPU numbers. Run from the
# repository root on the GPU machine with the carried folder C (default .carry-pairkernel) holding
# bin/ (posewright-cli, gpu_test_pair_score, gpu_test_pair_backend, gpu_test_minimize) and
# libs.tar.xz (bundle-libs.sh output of those programs); bin/ may come as bin.tar.xz. The device tool
# sends the session's own checkout (/work/main for the lead), not a helper's worktree: put the
# carried folder and this script there (.carry* is git-ignored) and run
# `bash .carry-pairkernel/pairkernel_device.sh ...` with carry [".carry-pairkernel"].
# Usage: tests/bench/pairkernel_device.sh [tests|minimizetest|bench|pipeline]...  (default: tests bench pipeline)
set -uo pipefail
C=${C:-$PWD/.carry-pairkernel}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
[ -d "$C/libs" ] || tar -C "$C" -xJf "$C/libs.tar.xz"
[ -d "$C/bin" ] || [ ! -f "$C/bin.tar.xz" ] || tar -C "$C" -xJf "$C/bin.tar.xz"
export LD_LIBRARY_PATH=$C/libs
CLI=$C/bin/posewright-cli
# The test binaries name their data by the path they were built at.
if [ ! -e /work/wt/pairkernel/tests/data ]; then
    mkdir -p /work/wt/pairkernel/tests && ln -s "$PWD/tests/data" /work/wt/pairkernel/tests/data
fi
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader
echo "host cores: $(nproc)"
D=tests/data/complexes/1iep
for part in ${*:-tests bench pipeline}; do
    case $part in
    tests)
        for t in gpu_test_pair_score gpu_test_pair_backend; do
            timeout 120 "$C/bin/$t" 2>&1 | grep -vE "^PASS|^Config|^\*\*\*\*" | tee -a "$OUT/tests.log" | tail -12
        done
        ;;
    minimizetest)
        timeout 240 "$C/bin/gpu_test_minimize" 2>&1 | tee -a "$OUT/tests.log" | grep -E "FAIL|Totals" | tail -8
        ;;
    bench)
        timeout 150 "$CLI" bench pairscore --receptor $D/receptor.pdbqt --box $D/box.txt \
            --ligand $D/ligand_xtal.pdbqt --poses ${POSES:-1000000} --cpu-poses 20000 --repeat 5 \
            2>&1 | tee -a "$OUT/bench.jsonl" | tr ',' '\n'
        ;;
    pipeline)
        # bin/posewright-cli-before (optional): the binary of the commit before this work, run on
        # the same file on the same machine for the baseline.
        W=/tmp/pk && mkdir -p $W
        timeout 120 "$CLI" bench minimize --receptor $D/receptor.pdbqt --box $D/box.txt \
            --ligand $D/ligand_xtal.pdbqt --poses 100000 --seed 1 --write-poses $W/p100k.sdf --device cuda >/dev/null 2>&1
        for i in 1 2 3 4 5 6 7 8 9 10; do cat $W/p100k.sdf; done > $W/p1m.sdf
        ls -la $W/p1m.sdf
        for b in posewright-cli-before posewright-cli; do
            [ -x "$C/bin/$b" ] || continue
            /usr/bin/time -f "$b: wall %e s, peak RSS %M KiB" timeout 150 "$C/bin/$b" minimize \
                --receptor $D/receptor.pdbqt --box $D/box.txt --device cuda --vina-steps \
                --ligands $W/p1m.sdf --out $W/ranked-$b.sdf >/dev/null 2>$W/err-$b.log
            tail -5 $W/err-$b.log | tee -a "$OUT/pipeline.log"
            grep -c '^\$\$\$\$' $W/ranked-$b.sdf
            # The first ranked record's numbers, and the CPU's exact score of it read back.
            awk 'BEGIN{RS="\\$\\$\\$\\$\n"} NR==1{print $0 "$$$$"}' $W/ranked-$b.sdf > $W/top.sdf
            grep -A1 -E "minimizedAffinity|minimizedInter" $W/top.sdf | grep -v '^--' | paste -sd' '
            "$CLI" score --receptor $D/receptor.pdbqt --box $D/box.txt --ligand $W/top.sdf 2>&1 | tail -1
            rm -f $W/ranked-$b.sdf
        done
        ;;
    esac
done
