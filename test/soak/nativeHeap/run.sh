#!/bin/bash
# The soak with each extension host's native memory traced by heaptrack (docs/soak.md,
# finding 13): every malloc and free with its stack, JavaScript frames named from V8's perf map.
#
#   apt-get install -y heaptrack gcc
#   bash test/soak/nativeHeap/run.sh --minutes 4 --servers 50     (the soak's own options)
#
# Then, for a host's trace (the last host is the newest file):
#   /usr/lib/heaptrack/libexec/heaptrack_interpret < host-PID.raw | zstd > host-PID.zst
#   heaptrack_print -f host-PID.zst -p 1 -a 0 -T 0 -l 0 -n 1 -s 25 > peaks.txt
#   npx tsx test/soak/nativeHeap/frames.ts /tmp/perf-PID.map peaks.txt
# heaptrack slows the host: its figures are for where memory goes, not for the goal.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${NATIVE_HEAP_DIR:-$(mktemp -d -t elicit-native-heap-XXXXXX)}
mkdir -p "$out"
gcc -shared -fPIC -O2 -o "$out/hostShim.so" "$here/hostShim.c" -ldl
cd "$here/../../.."
npm run package
echo "native heap traces in $out"
NATIVE_HEAP_DIR=$out LD_PRELOAD=$out/hostShim.so npx tsx test/soak/soak.ts "$@" || status=$?
echo "native heap traces in $out (host-PID.raw; V8's perf maps in /tmp/perf-PID.map)"
exit "${status:-0}"
