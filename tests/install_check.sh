#!/bin/sh
# make install-test: `make install` into a temporary DESTDIR, then the installed program, run
# from another folder (no scenarios/ or web/ there), finds its data and page from its own
# location, prints its version, plays a whole game through the engine protocol and serves the
# page; `make uninstall` leaves nothing behind.  A few seconds.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/waterloo-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"
prefix=/opt/waterloo-test
fail() { echo "install-test: FAILED: $*"; exit 1; }

make -s -C "$top" install DESTDIR="$dest" PREFIX="$prefix" >/dev/null
bin="$dest$prefix/bin/waterloo"
[ -x "$bin" ] || fail "no $bin"
[ -f "$dest$prefix/share/man/man1/waterloo.1" ] || fail "no manual page"
[ -f "$dest$prefix/share/waterloo/scenarios/map.ini" ] || fail "no scenario data"
[ -f "$dest$prefix/share/waterloo/web/index.html" ] || fail "no web page"
man -l "$dest$prefix/share/man/man1/waterloo.1" 2>&1 >/dev/null | grep . && fail "the manual page has errors"

mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
unset WATERLOO_DATA WATERLOO_WEB WATERLOO_DOCS 2>/dev/null || true
"$bin" --version > version.txt || fail "--version"
grep -q "^waterloo [0-9]" version.txt || fail "--version: no version line"
grep -q "^scenario data: .*/share/waterloo/scenarios$" version.txt || fail "the data was not found from the program's location: $(cat version.txt)"
# the installed program's rules are the build's
sig=$(grep '^rules signature' version.txt)
[ "$sig" = "$("$top/waterloo" --version | grep '^rules signature')" ] || fail "rules signature differs from the build's"

# a whole game, the computer on both sides, through the engine protocol
{ echo "new short seed 7"; i=0; while [ $i -lt 3000 ]; do echo "genmove heuristic"; i=$((i + 1)); done
  echo "result"; echo "quit"; } | "$bin" engine > game.txt 2>&1 || fail "engine exited with an error"
grep -q "^= \(French win\|Allied win\|draw\)" game.txt || fail "no finished game: $(grep '^=' game.txt | tail -2)"

# the page served by the installed program
"$bin" serve --port 0 --saves "$tmp/saves" > serve.txt 2>&1 &
pid=$!
n=0
while ! grep -q "http://" serve.txt && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
url=$(sed -n 's|.*\(http://[0-9.:]*/\).*|\1|p' serve.txt)
ok=0
if [ -n "$url" ] && python3 -c "import urllib.request,sys; sys.exit(0 if b'<html' in urllib.request.urlopen(sys.argv[1]).read().lower() else 1)" "$url"; then ok=1; fi
kill "$pid"; wait "$pid" 2>/dev/null || true
[ $ok = 1 ] || fail "the installed server did not serve the page: $(cat serve.txt)"
[ ! -e "$tmp/elsewhere/saves" ] || fail "the server wrote into the working folder"

make -s -C "$top" uninstall DESTDIR="$dest" PREFIX="$prefix" >/dev/null
left=$(find "$dest" -type f | head -3)
[ -z "$left" ] || fail "uninstall left $left"
echo "install-test: installed under DESTDIR, found its data from its location, played a game from another folder, served the page, uninstalled cleanly"
