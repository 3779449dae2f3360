#!/bin/sh
# Runs a benchmark with the machine's low-priority work paused: every process at nice 19
# (background fuzzing or builds started with `nice -n 19`) is stopped (SIGSTOP) while the
# command runs and continued (SIGCONT) afterwards, even if the command fails.
# Usage: bench/quiet.sh COMMAND [ARG...]
pids=$(ps -eo pid=,ni= | awk '$2 == 19 { print $1 }')
[ -n "$pids" ] && kill -STOP $pids 2>/dev/null
trap '[ -n "$pids" ] && kill -CONT $pids 2>/dev/null' EXIT INT TERM
"$@"
