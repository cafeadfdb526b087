#!/usr/bin/env python3
"""A long transcript of the engine protocol (`./waterloo engine`), to show that a change to the
code behind it leaves every answer byte-identical.

    tests/engine_transcript.py [--waterloo ./waterloo] OUTDIR
    (run once on the old build and once on the new one, then: diff -r OLD NEW)

It writes one file per protocol session into OUTDIR: fixed scripts (every command of the help,
good and bad input, loads of broken files, setposition errors, play after the game is over,
genmove and analyze with each player kind at a tiny budget) and random walks that read `legal`
and play through whole games with destination moves, undo, position and state on the way.  The
walks choose from the answers, so two builds that answer the same play the same games.  Saved
files are written under /tmp/waterloo-transcript/ and copied into the transcript.
Deterministic: no wall-clock budgets (every player runs on iterations)."""
import os
import shutil
import subprocess
import sys

TMP = "/tmp/waterloo-transcript"


def fixed_sessions():
    """name -> the protocol lines fed at once (the engine answers each)."""
    s = {}
    s["meta"] = ["protocol_version", "name", "version", "list_commands", "", "   ", "# a comment",
                 "quit", "name"]
    s["no_game"] = ["legal", "legaljson", "show", "play pass", "state", "state french", "scenario",
                    "reach fr-1/I", "position", "turn", "result", "undo", "genmove random",
                    "analyze random", "save %s/none.json" % TMP, "bogus", "quit"]
    s["errors"] = ["new short", "bo\033gus", "Bogus", "play", "play nonsense",
                   "play pass pass", "play play F99 move", "play move", "play move fr-1/I Z99",
                   "play move nobody G5", "state bogus", "state FRENCH", "reach", "reach nobody",
                   "reach fr-1/I", "undo", "undo", "genmove nosuchplayer",
                   "genmove mcts,iters=0", "analyze mcts:nolevel", "save",
                   "save /nonexistent-dir/x.json", "load", "setposition",
                   "new", "new nosuch", "new short nosuchvariant", "new short seed",
                   "new short seed -1", "new short seed 18446744073709551616",
                   "new short seed 18446744073709551615", "turn",
                   "new short a b c d e f g h i j k l m n o p q", "turn", "quit"]
    s["long_line"] = ["new short", "play " + "x" * 70000, "turn", "quit"]
    s["help_commands_short"] = ["new short seed 7", "show", "legal", "legaljson", "state",
                                "state french", "state allied", "scenario", "position", "turn",
                                "result", "reach fr-1/I", "play pass", "turn", "legal",
                                "play play B01 move", "legal", "reach br-3/I", "show", "undo",
                                "undo", "undo", "position", "quit"]
    s["help_commands_long"] = ["new long seed 11", "show", "legal", "scenario", "position", "turn",
                               "result", "state allied", "genmove heuristic", "genmove heuristic",
                               "genmove heuristic", "turn", "result", "position", "undo", "undo",
                               "position", "quit"]
    s["variants"] = ["new short no-bidding seed 2", "turn", "legal", "position",
                     "new long three-player prussians-early seed 3", "turn", "legal", "position",
                     "new short charge-all-cards strong-hougoumont seed 4", "scenario", "position",
                     "new long prussians-late historical-garrisons", "position", "result",
                     "new short base,no-bidding", "turn", "quit"]
    kinds = ["random", "heuristic", "light", "heuristic:eps=0.5", "light:eps=0.3",
             "baseline:n=12", "baseline:n=8,k=3,rollout=heuristic", "mcts:iters=24",
             "mcts:easy,iters=24", "mcts:iters=30,trees=2", "mcts:iters=30,pwc=4,reuse=0",
             "mcts:iters=20,eval=hand", "mcts:sim,iters=20", "flat:normal,iters=30",
             "flat:sim", "mcts:iters=30,cut=0,rollout=heuristic",
             "mcts:easy*0.01", "cheat:iters=24", "cheat:easy,iters=24",
             "heuristic,eps=0.5", "baseline:n=0", "mcts:iters=24,nosuch=1"]
    for scen, seed in (("short", 21), ("long", 22)):
        lines = ["new %s seed %d" % (scen, seed)]
        for k in kinds:
            lines += ["analyze " + k, "genmove " + k, "turn", "legal"]
        lines += ["position", "undo", "position", "quit"]
        s["players_" + scen] = lines
    s["default_level"] = ["new short seed 31", "genmove", "turn", "analyze easy", "genmove easy",
                          "position", "quit"]
    s["setposition"] = [
        "new short seed 5", "position",
        "setposition short base turn=3 phase=round decider=1 active=1",
        "position", "turn", "legal", "undo", "play pass", "position", "undo", "position",
        "setposition", "setposition short", "setposition nosuch base turn=1",
        "setposition short nosuchvariant turn=1", "setposition short base turn=99",
        "setposition short base nosuchkey=1", "setposition short base turn=x",
        "setposition short base turn", "setposition long base units=fr-1/I=Z1:N",
        "setposition short base seed=abc", "setposition short base phase=nosuch",
        "setposition turn=1 phase=round", "setposition short base=1", "position", "turn",
        "setposition short base seed=9 turn=2", "position", "genmove heuristic", "position",
        "save %s/setpos.json" % TMP, "undo", "undo", "position", "quit"]
    s["load"] = [
        "load %s/nonexistent.json" % TMP, "load %s" % TMP, "load %s/empty.json" % TMP,
        "load %s/notjson.json" % TMP, "load %s/array.json" % TMP, "load %s/wrongformat.json" % TMP,
        "load %s/badaction.json" % TMP, "load %s/truncated.json" % TMP,
        "load %s/badscen.json" % TMP, "load %s/badseed.json" % TMP, "turn",
        "new short seed 8", "genmove random", "genmove random", "genmove heuristic",
        "save %s/game.json" % TMP, "position", "load %s/notjson.json" % TMP, "position",
        "load %s/game.json" % TMP, "position", "turn", "legal", "undo", "position", "undo", "undo",
        "undo", "position", "undo", "load %s/game.json" % TMP, "genmove heuristic", "position",
        "save %s/game2.json" % TMP, "load %s/setpos.json" % TMP, "position", "undo", "position",
        "undo", "quit"]
    s["load_prepared"] = ["load %s/setpos.json" % TMP, "position", "undo", "undo", "quit"]
    return s


BAD_FILES = {
    "empty.json": "",
    "notjson.json": "this is not json\n",
    "array.json": "[1, 2, 3]\n",
    "wrongformat.json": '{"format": "chess-1", "scenario": "short"}\n',
    "badaction.json": '{"format":"waterloo-game-1","scenario":"short","variants":"base",'
                      '"seed":"3","stream":"0","actions":["play Z99 nowhere"]}\n',
    "truncated.json": '{"format":"waterloo-game-1","scenario":"short","variants":"base",\n',
    "badscen.json": '{"format":"waterloo-game-1","scenario":"../etc","variants":"base",'
                    '"seed":"3","stream":"0","actions":[]}\n',
    "badseed.json": '{"format":"waterloo-game-1","scenario":"short","variants":"base",'
                    '"seed":"-3","stream":"0","actions":[]}\n',
}


def play_sessions():
    """`waterloo play` (the terminal game, on the same session code): name -> (options, lines)"""
    moves = []
    for i in range(400):
        moves.append(str(1 + i * 7 % 5))
        if i % 9 == 4:
            moves += ["undo", "odds"]
        if i % 13 == 6:
            moves += ["move fr-1/I G5", "move br-3/I E6 S", "move fr-5/II E6 N", "units"]
        if i % 37 == 20:
            moves += ["log", "legal", "board"]
    first = ["help", "legal", "board", "units", "odds", "bogus", "undo", "2", "legal",
             "move fr-1/I G5", "undo", "move fr-1/I G5 N", "move fr-1/I Z9", "move nobody G5",
             "log", "hint", "99", "0", "undo", "undo", "legal x", "  board", "quit now",
             "save", "  "]
    return {
        "play_french": (["--side", "french", "--level", "random", "--seed", "3"],
                        first + moves[:90] + ["save %s/play.json" % TMP] + moves[90:]),
        "play_allied": (["--side", "allied", "--level", "heuristic", "--seed", "4", "--scenario",
                         "long"], first + moves),
        "play_load": (["--load", TMP + "/play.json", "--level", "random"],
                      ["log", "undo", "board", "1", "undo", "undo"] + moves[:80]),
        "play_bad": (["--load", TMP + "/notjson.json"], []),
    }


def run_fixed(exe, lines, cmd=("engine",)):
    data = ("\n".join(lines) + "\n").encode()
    r = subprocess.run([exe] + list(cmd), input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, check=False)
    return r.stdout + ("[exit %d]\n" % r.returncode).encode()


class Engine:
    def __init__(self, exe, log):
        self.p = subprocess.Popen([exe, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.log = log

    def ask(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                break
            out.append(l)
            if l == b"\n":
                break
        ans = b"".join(out)
        self.log.append(b">> " + line.encode() + b"\n" + ans)
        return ans.decode()

    def close(self):
        self.ask("quit")
        self.p.stdin.close()
        self.p.wait()
        self.log.append(("[exit %d]\n" % self.p.returncode).encode())


def dest_of(step):
    """a square two further on than a step "move UNIT SQ F" goes (or None)"""
    w = step.split()
    if len(w) != 4 or w[0] != "move":
        return None
    col, row = w[2][0], int(w[2][1:])
    d = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[w[3]]
    c, r = chr(ord(col) + d[0]), row + d[1]
    if not ("A" <= c <= "Z") or r < 1:
        return None
    return w[1], "%s%d" % (c, r)


def walk(exe, scen, seed, steps):
    log = []
    e = Engine(exe, log)
    e.ask("new %s seed %d" % (scen, seed))
    x = seed * 2654435761 % 4294967296 or 1
    over_checks = 0
    for i in range(steps):
        x = (x * 1103515245 + 12345) % 2147483648
        legal = e.ask("legal")[2:].strip().split("\n")
        legal = [a for a in legal if a]
        if not legal:
            e.ask("result")
            e.ask("play pass")
            e.ask("genmove random")
            e.ask("analyze random")
            e.ask("turn")
            e.ask("position")
            over_checks += 1
            if over_checks > 2:
                break
            e.ask("undo")
            e.ask("undo")
            continue
        if i % 7 == 3:
            e.ask("turn")
        if i % 19 == 5:
            e.ask("position")
        if i % 31 == 9:
            e.ask("state %s" % ("french" if i % 2 else "allied"))
        if i % 43 == 11:
            e.ask("legaljson")
        steps_ = [a for a in legal if a.startswith("move ")]
        if steps_ and x % 3 == 0:
            d = dest_of(steps_[x // 3 % len(steps_)])
            if d:
                fac = " " + "NESW"[x // 7 % 4] if x % 2 else ""
                e.ask("reach %s" % d[0])
                e.ask("play move %s %s%s" % (d[0], d[1], fac))
                if x % 5 == 0:
                    e.ask("undo")
                    e.ask("position")
                continue
        a = legal[x // 5 % len(legal)]
        e.ask("play " + a)
        if i % 11 == 7:
            e.ask("undo")
            e.ask("position")
            e.ask("play " + a)
        if i % 97 == 50:
            e.ask("genmove heuristic")
    e.ask("result")
    e.ask("save %s/walk.json" % TMP)
    e.ask("load %s/walk.json" % TMP)
    e.ask("position")
    e.ask("undo")
    e.ask("position")
    e.close()
    return b"".join(log)


def main():
    args = sys.argv[1:]
    exe = "./waterloo"
    if len(args) >= 2 and args[0] == "--waterloo":
        exe, args = args[1], args[2:]
    if args in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit("usage: engine_transcript.py [--waterloo ./waterloo] OUTDIR")
    out = args[0]
    exe = os.path.abspath(exe)
    os.makedirs(out, exist_ok=True)
    shutil.rmtree(TMP, ignore_errors=True)
    os.makedirs(TMP)
    for name, text in BAD_FILES.items():
        with open(os.path.join(TMP, name), "w") as f:
            f.write(text)
    order = ["meta", "no_game", "errors", "long_line", "help_commands_short",
             "help_commands_long", "variants", "players_short", "players_long", "default_level",
             "setposition", "load", "load_prepared"]
    sess = fixed_sessions()
    for name in order:
        b = run_fixed(exe, sess[name])
        with open(os.path.join(out, name + ".out"), "wb") as f:
            f.write(b)
    for name in sorted(os.listdir(TMP)):
        if name.endswith(".json") and name not in BAD_FILES:
            shutil.copy(os.path.join(TMP, name), os.path.join(out, "saved-" + name))
    for cmd in ("engine", "play"):
        r = subprocess.run([exe, cmd, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           check=False)
        with open(os.path.join(out, "help-%s.out" % cmd), "wb") as f:
            f.write(r.stdout + ("[exit %d]\n" % r.returncode).encode())
    for name, (opts, lines) in play_sessions().items():
        with open(os.path.join(out, name + ".out"), "wb") as f:
            f.write(run_fixed(exe, lines, ["play", "--no-color"] + opts))
    here = os.path.dirname(os.path.abspath(__file__))
    corp = os.path.join(here, "fuzz", "corpus", "protocol")
    for name in sorted(os.listdir(corp)):
        with open(os.path.join(corp, name), "rb") as f:
            data = f.read()
        lines = [l if not l.strip().startswith("save") else "save %s/corpus.json" % TMP
                 for l in data.decode(errors="replace").split("\n")]
        with open(os.path.join(out, "corpus-" + name + ".out"), "wb") as f:
            f.write(run_fixed(exe, lines))
    for scen, seed, steps in (("short", 1, 1500), ("short", 2, 1500), ("long", 3, 2500),
                              ("long", 4, 2500), ("short", 5, 1500)):
        with open(os.path.join(out, "walk-%s-%d.out" % (scen, seed)), "wb") as f:
            f.write(walk(exe, scen, seed, steps))
        shutil.copy(os.path.join(TMP, "walk.json"),
                    os.path.join(out, "saved-walk-%s-%d.json" % (scen, seed)))


if __name__ == "__main__":
    main()
