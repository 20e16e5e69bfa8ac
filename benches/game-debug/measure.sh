#!/bin/bash
# CPU seconds (user+sys) of the README's game loop (5 seeds of dungeon-32) per build profile.
cd "$(dirname "$0")"
G=../../instances/grid/dungeon-32.json
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1+$2}'; }
for cfg in release dev dev-opt3 dev-opt1; do
  sed -i '/^\[profile.dev.package/,$d' Cargo.toml
  case $cfg in
    dev-opt3) printf '\n[profile.dev.package."*"]\nopt-level = 3\n' >> Cargo.toml;;
    dev-opt1) printf '\n[profile.dev.package."*"]\nopt-level = 1\n' >> Cargo.toml;;
  esac
  prof=""; bin=target/debug/grim-game-debug-bench
  [ "$cfg" = release ] && prof="--release" && bin=target/release/grim-game-debug-bench
  rm -rf target/debug
  b=$( { /usr/bin/time -f "%e %U %S" cargo build -q $prof; } 2>&1 | tail -1)
  echo "$cfg: build wall/user/sys $b; run CPU s: $(cpu $bin $G) $(cpu $bin $G) (load $(cut -d' ' -f1 /proc/loadavg))"
done
sed -i '/^\[profile.dev.package/,$d' Cargo.toml
