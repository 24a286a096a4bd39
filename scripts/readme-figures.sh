#!/usr/bin/env bash
# The README's figures are program output, not hand-kept text. Each one is a
# fenced block right after a marker line
#     <!-- figure: COMMAND -->
# and holds what COMMAND prints on stdout (run from the repository root,
# with `build/bin/` standing for the build's bin folder).
#
#   scripts/readme-figures.sh            check: exit 1 naming each stale figure
#   scripts/readme-figures.sh --update   rewrite the stale figures in place
#   --bin DIR                            the executables (default build/bin)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readme="$root/README.md"
bin="$root/build/bin"
update=0
while [ $# -gt 0 ]; do
  case $1 in
    --update) update=1 ;;
    --bin) bin=$(cd "$2" && pwd); shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "readme-figures: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
cd "$root"
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT
stale=0 figures=0
# Copy the README, replacing each figure's block with the command's output.
{
  in_figure=0 cmd=""
  while IFS= read -r line || [ -n "$line" ]; do
    if [ $in_figure -eq 2 ]; then  # inside the old block: skip to its closing fence
      if [ "$line" = '```' ]; then
        in_figure=0
        if ! cmp -s "$out.new" "$out.old"; then
          stale=$((stale + 1))
          echo "readme-figures: README.md is stale after '<!-- figure: $cmd -->':" >&2
          diff "$out.old" "$out.new" | sed 's/^/  /' >&2 || true
        fi
        cat "$out.new"
        echo '```'
      else
        printf '%s\n' "$line" >>"$out.old"
      fi
      continue
    fi
    printf '%s\n' "$line"
    if [ $in_figure -eq 1 ]; then
      [ "${line:0:3}" = '```' ] || { echo "readme-figures: '$cmd' is not followed by a fenced block" >&2; exit 1; }
      in_figure=2
      : >"$out.old"
      continue
    fi
    if [[ $line =~ ^'<!-- figure: '(.*)' -->'$ ]]; then
      cmd=${BASH_REMATCH[1]}
      figures=$((figures + 1))
      run=${cmd//build\/bin\//$bin/}
      if ! bash -c "$run" >"$out.new" 2>/dev/null; then
        echo "readme-figures: '$cmd' failed" >&2
        exit 1
      fi
      in_figure=1
    fi
  done <"$readme"
  [ $in_figure -eq 0 ] || { echo "readme-figures: the last figure's block is not closed" >&2; exit 1; }
  echo "$stale $figures" >"$out.count"
} >"$out"
read -r stale figures <"$out.count"
if [ "$stale" -eq 0 ]; then
  echo "readme-figures: all $figures figures are current"
  exit 0
fi
if [ $update -eq 1 ]; then
  cp "$out" "$readme"
  echo "readme-figures: rewrote $stale of $figures figures in README.md"
  exit 0
fi
echo "readme-figures: $stale of $figures figures are stale; run scripts/readme-figures.sh --update" >&2
exit 1
