#!/bin/sh
# The xiangqi bot's levels against Fairy-Stockfish through the real protocol (README "Bot
# levels"): installs the engine with apt-get when it is missing, builds the match tool in
# release and runs it; every argument goes to the tool (`--help` lists them).
#
#   scripts/xiangqi_match.sh --points beginner:1350,casual:1350,club:1800,expert:2200,master:full \
#       --games 10 --fsf-nodes 20000 --think-ms 1000 --jobs 2
#
# The table goes to stdout (markdown), each game's result to stderr. XIANGQI_MATCH_PROFILE=test
# builds with the tests' profile (the CI smoke: it reuses what `cargo test` built; two games).
set -eu
cd "$(dirname "$0")/.."
engine=$(command -v fairy-stockfish || true)
[ -n "$engine" ] || [ ! -x /usr/games/fairy-stockfish ] || engine=/usr/games/fairy-stockfish
if [ -z "$engine" ]; then
    if [ "$(id -u)" -eq 0 ]; then apt=apt-get; else apt="sudo apt-get"; fi
    $apt update -qq
    $apt install -y -qq fairy-stockfish
    engine=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
fi
profile=${XIANGQI_MATCH_PROFILE:-release}
cargo build --profile "$profile" -q -p qipai-bots --example xiangqi_match
case $profile in dev | test) dir=debug ;; *) dir=$profile ;; esac
exec "target/$dir/examples/xiangqi_match" --fsf "$engine" "$@"
