#!/usr/bin/env bash
# One process against `mpirun -np 2` (lib/cluster): a match, an evaluation, the trainers, a
# tuning run and an analysis must give the same results. Usage: mpi_equal.sh HANE MPIEXEC WORKDIR. The data are made here:
# a match of 8 games on 7x7 between two hane engines at 50 playouts gives the SGFs that the
# trainers learn from and the evaluation measures.
set -euo pipefail
hane=$1
mpiexec=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"

run2=("$mpiexec" -np 2 --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then run2+=(--allow-run-as-root); fi
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers without ptrace rights
fail=0
check() {  # check WHAT FILE1 FILE2
  if [ ! -s "$2" ]; then
    echo "EMPTY: $1 ($2)"
    fail=1
  elif cmp -s "$2" "$3"; then
    echo "equal: $1"
  else
    echo "DIFFERENT: $1 ($2 vs $3)"
    diff "$2" "$3" | head -20 || true
    fail=1
  fi
}

# 1. Match: every game's SGF (without its date) and result line (without timings).
match=(match -e uniform=hane:"--policy uniform --prior none --playouts 50"
       -e rules=hane:"--prior none --playouts 50" --size 7 --parallel 1 --quiet --no-plots)
"$hane" "${match[@]}" --games 8 --out one > /dev/null
"${run2[@]}" "$hane" "${match[@]}" --games 8 --out two > /dev/null
for d in one two; do
  cat "$d"/sgf/*.sgf | sed 's/DT\[[^]]*\]//g' > "$d.sgf.txt"
  sed 's/"seconds":[^,}]*//g; s/"move_seconds":\[[^]]*\]//g; s/"date":"[^"]*"//g' "$d/results.jsonl" | sort > "$d.results.txt"
done
check "match SGFs" one.sgf.txt two.sgf.txt
check "match results" one.results.txt two.results.txt
[ "$(ls two/sgf | wc -l)" -eq 8 ] || { echo "expected 8 SGFs from the 2-rank match"; fail=1; }
# Resume: a folder with the first 3 results finishes the same games.
mkdir -p three
cp one/match.json three/
head -3 one/results.jsonl > three/results.jsonl
"${run2[@]}" "$hane" "${match[@]}" --games 8 --out three > /dev/null
cat three/sgf/*.sgf | sed 's/DT\[[^]]*\]//g' > three.sgf.txt
check "resumed match SGFs" one.sgf.txt three.sgf.txt

# With an SPRT that decides early: the same games, the round's later games left out.
"$hane" "${match[@]}" --games 40 --sprt elo0=0,elo1=200 --out one-sprt > /dev/null
"${run2[@]}" "$hane" "${match[@]}" --games 40 --sprt elo0=0,elo1=200 --out two-sprt > /dev/null
for d in one-sprt two-sprt; do
  sed 's/"seconds":[^,}]*//g; s/"move_seconds":\[[^]]*\]//g; s/"date":"[^"]*"//g' "$d/results.jsonl" | sort > "$d.txt"
done
check "match with an SPRT" one-sprt.txt two-sprt.txt

# 2. Trainers, on the match's games: the model payloads (weights, tree) must be equal.
corpus=(one/sgf --size 7 --min-moves 1 --quiet --threads 1)
softmax=(train softmax "${corpus[@]}" --min-count 1 --epochs 3 --batch 16 --shards 4)
"$hane" "${softmax[@]}" --out one.softmax > /dev/null
"${run2[@]}" "$hane" "${softmax[@]}" --out two.softmax > /dev/null
for m in one two; do grep -ao '"payload_[a-z0-9]*":"*[0-9a-f]*' "$m.softmax" > "$m.softmax.txt"; done
check "softmax model" one.softmax.txt two.softmax.txt
tree=(train tree "${corpus[@]}" --leaves 20 --min-leaf 2 --no-early-stop)
"$hane" "${tree[@]}" --out one.tree > /dev/null
"${run2[@]}" "$hane" "${tree[@]}" --out two.tree > /dev/null
for m in one two; do grep -ao '"payload_[a-z0-9]*":"*[0-9a-f]*' "$m.tree" > "$m.tree.txt"; done
check "tree model" one.tree.txt two.tree.txt
# The gamma trainer: minorisation-maximisation, then simulation balancing of its playouts
# towards the values of searches (searched on both ranks, exchanged).
gamma=(train gamma "${corpus[@]}" --min-count 1 --sweeps 3 --balance --balance-positions 6 --balance-playouts 5
       --balance-search 30)
"$hane" "${gamma[@]}" --out one.gamma > /dev/null
"${run2[@]}" "$hane" "${gamma[@]}" --out two.gamma > /dev/null
for m in one two; do grep -ao '"payload_[a-z0-9]*":"*[0-9a-f]*' "$m.gamma" > "$m.gamma.txt"; done
check "gamma model (with balancing)" one.gamma.txt two.gamma.txt
# train diamond runs on one process: with two ranks it refuses instead of writing twice.
if "${run2[@]}" "$hane" train diamond "${corpus[@]}" --out two.diamond > /dev/null 2> diamond.err; then
  echo "train diamond ran on 2 ranks"; fail=1
elif ! grep -q "train diamond runs on one process" diamond.err || [ -e two.diamond ]; then
  echo "train diamond on 2 ranks: no refusal message, or a model written"; cat diamond.err; fail=1
else
  echo "refused: train diamond on 2 ranks"
fi

# 3. Evaluation of the softmax model on every game: counts equal, accuracy and log-likelihood
# within 1e-9 (sums of doubles in another order).
ev=(eval one/sgf --split all --size 7 --min-moves 1 --quiet --threads 1 -m one.softmax)
"$hane" "${ev[@]}" --json one.eval.json > /dev/null
"${run2[@]}" "$hane" "${ev[@]}" --json two.eval.json > /dev/null
numbers() { grep -E '"(positions|top1|top3|top5|top10|log_likelihood)":' "$1" | tr -d ' ,'; }
paste -d' ' <(numbers one.eval.json) <(numbers two.eval.json) > eval.pairs
if [ ! -s eval.pairs ] || ! awk '{ split($1, a, ":"); split($2, b, ":");
       if (a[1] != b[1]) exit 1; d = a[2] - b[2]; if (d < 0) d = -d; if (d > 1e-9) exit 1 }' eval.pairs; then
  echo "DIFFERENT: eval"
  cat eval.pairs
  fail=1
else
  echo "equal: eval ($(wc -l < eval.pairs) figures)"
fi
# 4. Tuning: the same SPSA trajectory (each result line's step record) and tuned value.
tune=(tune -e a=hane:"--prior none --playouts 20" --param rave-equiv=1000:100:3000 --games 8 --pairs 2
      --size 7 --parallel 1 --seed 2 --quiet --no-plots)
"$hane" "${tune[@]}" --out one-tune > one-tune.txt
"${run2[@]}" "$hane" "${tune[@]}" --out two-tune > two-tune.txt
for d in one-tune two-tune; do grep -o '"tune":{[^}]*}' "$d/results.jsonl" | sort > "$d.steps.txt"; done
check "tune steps" one-tune.steps.txt two-tune.steps.txt
check "tuned settings" one-tune.txt two-tune.txt

# 5. Analysis of the match's games: every game's JSON and the summary.
"$hane" analyze one/sgf --visits 50 --end-playouts 20 --quiet --no-plots --out one-analysis > /dev/null
"${run2[@]}" "$hane" analyze one/sgf --visits 50 --end-playouts 20 --quiet --no-plots --out two-analysis > /dev/null
cat one-analysis/*.json > one-analysis.txt
cat two-analysis/*.json > two-analysis.txt
check "analyze" one-analysis.txt two-analysis.txt

# The 2-rank runs really were one job of two ranks (not two copies of one process).
for f in two/report.json two.softmax two.tree two.gamma two.eval.json; do
  grep -aq '"ranks": *2' "$f" || { echo "NOT 2 RANKS: $f"; fail=1; }
done
exit $fail
