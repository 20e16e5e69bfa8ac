#!/usr/bin/env bash
# Rebuilds the real MaxSAT set named in SOURCES from local git mirrors of its repositories
# (the `fetch` tool puts them at MIRRORS/OWNER+NAME/repo) into DIR (default:
# ../shared/bench/instances/maxsat/real), following the rules SOURCES states: `.xz` originals
# decompressed, the plain-MaxSAT `.cnf` files rewritten as new-format WCNF (every clause soft,
# weight 1, the `p cnf` header dropped), each file gzip -9 -n.
# Usage: rebuild.sh [MIRRORS] [DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mirrors="${1:-/work/.mirror}"
dir="${2:-$here/../../../../shared/bench/instances/maxsat/real}"
mkdir -p "$dir"
n=0
while IFS=$'\t' read -r file family kind repo commit path; do
  [[ -n "$file" && "$file" != \#* && -n "${path:-}" ]] || continue
  git_dir="$mirrors/${repo/\//+}/repo"
  [[ -d "$git_dir" ]] || { echo "no mirror of $repo at $git_dir" >&2; exit 1; }
  case "$path" in
    *.xz) git --git-dir="$git_dir" show "$commit:$path" | xz -dc ;;
    *.cnf) git --git-dir="$git_dir" show "$commit:$path" \
             | awk '/^c/ || /^p/ || NF == 0 {next} {print "1 " $0}' ;;
    *) git --git-dir="$git_dir" show "$commit:$path" ;;
  esac | gzip -9 -n > "$dir/$file"
  n=$((n + 1))
done < "$here/SOURCES"
echo "$n instances in $dir"
