# Sourced by this folder's r*.sh, which run on the device from the repo root with carry [".devrun"]:
# the lab binaries they name were built here and gzipped into .devrun/ (a local scratch folder).
step() { echo; echo "== [${SECONDS}s] $*"; }

# unpack DIR...: every DIR/*.gz and the base bench into .devrun/x ($X).
X=.devrun/x
unpack() {
  mkdir -p "$X"
  local d f
  for d in "$@" .devrun/bin; do
    for f in "$d"/*.gz; do
      [ "$d" != .devrun/bin ] || [ "$f" = .devrun/bin/bench_base.gz ] || continue
      gunzip -c "$f" > "$X/$(basename "$f" .gz)"
    done
  done
  chmod +x "$X"/*
}

# coalesce-bench's table on stdin -> one line "variant size % | ..." for the rows whose variant
# matches $PICK (an extended regex, followed by a space).
PICK='[a-z_]+/[^ ]+'
line() {
  grep -E "^[a-z_]+ +$PICK " |
    awk '{p=""; for(i=5;i<=NF;i++) if ($i ~ /%$/) p=$i; if (p!="") printf "%s %s %s | ", $2, $4, p} END {print ""}'
}

# one LABEL [VAR=value...] BENCH ARGS...: one bench invocation, its line under a step heading.
one() { local label=$1; shift; step "$label"; timeout 60 env "$@" 2>&1 | line; }
