#!/bin/sh
# Runs a benchmark with the machine's low-priority work paused: every process at nice 10 or
# more (background fuzzing or builds started with `nice -n 10` or `nice -n 19`), including
# those that start while the command runs, is stopped (SIGSTOP) and continued (SIGCONT)
# when the command ends, even if it fails.
# Usage: bench/quiet.sh COMMAND [ARG...]
stopped=$(mktemp)
pause() {
    pids=$(ps -eo pid=,ni=,stat= | awk '$2 >= 10 && $3 !~ /^T/ { print $1 }')
    [ -n "$pids" ] && kill -STOP $pids 2>/dev/null && echo $pids >>"$stopped"
}
resume() {
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
    kill -CONT $(cat "$stopped") 2>/dev/null
    rm -f "$stopped"
}
pause
(while :; do sleep 0.2; pause; done) &
watcher=$!
trap resume EXIT INT TERM
"$@"
