#!/usr/bin/env bash
# Downloads (or generates) the development set named in SOURCES into DIR (default:
# ../dev-instances/sat-dev beside the repository) and writes DIR/set.txt, DIR/tuning.txt and
# DIR/confirmation.txt (absolute paths; the halves split by family, column `half`).
# Two kinds of rows:
#   - a public GitHub repository at a fixed commit: fetched from raw.githubusercontent.com
#     (a .gz file is decompressed);
#   - `pypi:cnfgen==0.9.6` (classic crafted families of proof complexity: Tseitin, subset
#     cardinality, ordering principle, parity, stone, clique colouring, …): the `path` column
#     holds the cnfgen arguments, run with that exact version (pip install cnfgen==0.9.6);
#     the `-S` seeds make the random ones reproducible.
# Every file is checked against MD5SUMS (the files as screened). Needs curl, gzip and, for the
# generated rows, cnfgen 0.9.6 on PATH.
# DEVSET_GIT_MIRROR=FORMAT takes the repository files from local git copies instead of
# downloading them: FORMAT is a printf pattern of the owner and the repository name giving a git
# directory, e.g. DEVSET_GIT_MIRROR='/srv/git/%s/%s.git'; the file is `git show COMMIT:PATH`.
# Written on a machine that reaches no GitHub: this script was run end to end here with
# DEVSET_GIT_MIRROR (same commits, same paths); the curl branch itself was not run here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-$here/../../../../dev-instances/sat-dev}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
: > "$dir/set.txt"; : > "$dir/tuning.txt"; : > "$dir/confirmation.txt"
grep -v '^#' "$here/SOURCES" | while IFS=$'\t' read -r file family half kind answer secs repo commit path; do
  [[ -n "$file" ]] || continue
  case "$repo" in
    pypi:cnfgen==*)
      want="${repo#pypi:cnfgen==}"
      have="$(cnfgen --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1)"
      [[ "$have" == "$want" ]] || { echo "cnfgen $want needed for $file (found: ${have:-none}); pip install cnfgen==$want" >&2; exit 1; }
      # shellcheck disable=SC2086 # the arguments are words
      cnfgen -q -o "$dir/$file" $path ;;
    *)
      tmp="$dir/.$file.part"
      if [[ -n "${DEVSET_GIT_MIRROR:-}" ]]; then
        # shellcheck disable=SC2059 # the pattern is the caller's
        git -C "$(printf "$DEVSET_GIT_MIRROR" "${repo%%/*}" "${repo#*/}")" show "$commit:$path" > "$tmp"
      else
        curl -fsSL "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$tmp"
      fi
      case "$path" in
        *.gz) gzip -dc "$tmp" > "$dir/$file" && rm -f "$tmp" ;;
        *) mv "$tmp" "$dir/$file" ;;
      esac ;;
  esac
  # (not grep -q: it would stop reading first, and head's SIGPIPE fails the pipe under pipefail)
  head -c 65536 "$dir/$file" | grep '^p cnf' > /dev/null || { echo "not a CNF: $file" >&2; exit 1; }
  echo "$dir/$file" >> "$dir/set.txt"
  echo "$dir/$file" >> "$dir/$half.txt"
done
for f in set tuning confirmation; do sort -o "$dir/$f.txt" "$dir/$f.txt"; done
(cd "$dir" && md5sum -c --quiet "$here/MD5SUMS")
echo "$(wc -l < "$dir/set.txt") instances in $dir ($(wc -l < "$dir/tuning.txt") tuning, $(wc -l < "$dir/confirmation.txt") confirmation)"
