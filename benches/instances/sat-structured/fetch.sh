#!/usr/bin/env bash
# Downloads the own structured set named in SOURCES into DIR (default:
# ../shared/bench/instances/sat/structured-own) and writes DIR/set.txt (absolute paths).
# Needs curl and gzip; each file comes from raw.githubusercontent.com at the commit given, and is
# checked against MD5SUMS (the files as screened). Written on a machine that reaches no GitHub,
# so the download itself was not run here; the files were taken from the same commits with git.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-$here/../../../../shared/bench/instances/sat/structured-own}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
: > "$dir/set.txt"
grep -v '^#' "$here/SOURCES" | while IFS=$'\t' read -r file family kind answer secs repo commit path; do
  [[ -n "$file" ]] || continue
  url="https://raw.githubusercontent.com/$repo/$commit/$path"
  tmp="$dir/.$file.part"
  curl -fsSL "$url" -o "$tmp"
  case "$path" in
    *.gz) gzip -dc "$tmp" > "$dir/$file" && rm -f "$tmp" ;;
    *) mv "$tmp" "$dir/$file" ;;
  esac
  head -c 4096 "$dir/$file" | grep -q '^p cnf' || { echo "not a CNF: $file ($url)" >&2; exit 1; }
  echo "$dir/$file" >> "$dir/set.txt"
done
sort -o "$dir/set.txt" "$dir/set.txt"
# The files as screened (md5 of the decompressed CNF).
(cd "$dir" && md5sum -c --quiet "$here/MD5SUMS")
echo "$(wc -l < "$dir/set.txt") instances in $dir (list: $dir/set.txt)"
