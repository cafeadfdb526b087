#!/usr/bin/python3
"""Seats and the server's robustness (issue 22), against a real `./waterloo serve`.

  1. Tokens: a game with people on both sides answers a seat only with its own view, refuses a
     request without a token or with a wrong one, and refuses actions from a seat that does not
     decide; one seat's token never reads or acts for another; a resumed game keeps its links.
  2. Numbers: every number a request carries is range-checked (at -9.2e18, NaN-like, huge).
  2b. Privacy: the kept games' list holds no seat's link; no record and no seed before the end;
     an unfinished save with people on both sides is not replayed; a Host naming another
     machine (DNS rebinding) or an Origin of another site is refused; a save is not replaced
     without asking; DELETE removes the kept game; serve --saves FILE is refused at the start.
  3. Slow clients: 200 half-open connections from 127.0.0.1 do not stop the server answering
     another address (127.0.0.2) at once, and are closed by the server's timeout, after which
     127.0.0.1 is answered again (bounded: a few seconds); 120 connections trickling their
     request a byte a second from four addresses do not either, and are closed by the
     request deadline.
  4. Browsers (unless --api-only): a long game with a person at the Prussian seat and the
     computer at the British seat played to the end on the page; two people in two browser
     sessions (French and Prussian), each page checked at every step never to hold the other
     side's hand; the hot-seat cover on one page.  Screenshots in build/seats-test/.

usage: tests/seats_test.py [--api-only] [--shots DIR]
"""
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_test  # noqa: E402  (the Server class and check())

ROOT = web_test.ROOT
ARGS = sys.argv[1:]
SHOTS = ARGS[ARGS.index('--shots') + 1] if '--shots' in ARGS else os.path.join(ROOT, 'build', 'seats-test')
check = web_test.check


def req(srv, method, path, body=None, token=None):
    import urllib.request
    import urllib.error
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(srv.base + path, data=data, method=method)
    if data is not None:
        r.add_header('Content-Type', 'application/json')
    if token:
        r.add_header('X-Seat-Token', token)
    try:
        with urllib.request.urlopen(r, timeout=60) as resp:
            return resp.status, json.loads(resp.read() or b'null')
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b'null')


def hand_of(view):
    return set(view['observation'].get('hand', []))


def token_tests(srv):
    code, v = req(srv, 'POST', '/api/games', {'scenario': 'long', 'seed': 11, 'level': 'random',
                                               'seats': {'french': 'human', 'british': 'random', 'prussian': 'human'}})
    check(code == 201, 'a game with seats: %s %s' % (code, v))
    gid, tok = v['id'], v.get('tokens', {})
    check(sorted(tok) == ['french', 'prussian'], 'a token for each human seat: %s' % sorted(tok))
    check(all(len(t) == 32 for t in tok.values()) and tok['french'] != tok['prussian'], 'tokens: 128 random bits each')
    check(v.get('seat') == 'french' and v['observation']['side'] == 'French', 'the creator sees the first human seat')
    for t in (None, '0' * 32, tok['french'][:-1] + 'x', 'french'):
        code, e = req(srv, 'GET', '/api/games/' + gid, token=t)
        check(code == 403 and 'error' in e, 'no view without a seat token (%r): %s' % (t, code))
        code, e = req(srv, 'POST', '/api/games/%s/play' % gid, {'index': 0}, token=t)
        check(code == 403, 'no action without a seat token (%r): %s' % (t, code))
    code, fr = req(srv, 'GET', '/api/games/' + gid, token=tok['french'])
    code2, pr = req(srv, 'GET', '/api/games/' + gid, token=tok['prussian'])
    check(code == 200 and code2 == 200, 'each seat reads its view')
    check(fr['seat'] == 'french' and pr['seat'] == 'prussian', 'each view names its seat')
    check(not (hand_of(fr) & hand_of(pr)), 'the two views share no card of a hand')
    check(all(c.startswith('F') for c in hand_of(fr)) and not any(c.startswith('F') for c in hand_of(pr)),
          'the French view holds French cards only, the Prussian view none')
    check(pr['legal'] == [] and not pr['your_turn'], 'the seat not deciding gets no legal action')
    code, e = req(srv, 'POST', '/api/games/%s/play' % gid, {'index': 0}, token=tok['prussian'])
    check(code == 403 and 'french seat decides' in e['error'], 'the Prussian may not act for the French: %s %s' % (code, e))
    code, e = req(srv, 'GET', '/api/games/%s/reach?unit=fr-4/I' % gid, token=tok['prussian'])
    check(code == 409, 'no reach for a seat not deciding: %s' % code)
    code, e = req(srv, 'POST', '/api/games/%s/hint' % gid, {'level': 'random'}, token=tok['prussian'])
    check(code == 403, 'no hint for a seat not deciding: %s' % code)
    code, after = req(srv, 'POST', '/api/games/%s/play' % gid, {'index': 0, 'at': fr['actions']}, token=tok['french'])
    check(code == 200 and after['actions'] > fr['actions'], 'the deciding seat acts')
    code, e = req(srv, 'POST', '/api/games/%s/undo' % gid, token=tok['french'])
    check(code == 409, 'no undo with people on both sides: %s' % code)
    code, _ = req(srv, 'GET', '/api/games/%s/scenario' % gid)
    check(code == 200, 'the scenario (public) needs no token')
    # a resumed game keeps its seats and links; it is not brought back without one
    code, e = req(srv, 'POST', '/api/resume', {'id': gid})
    check(code == 403, 'resume without a token refused: %s' % code)
    code, r = req(srv, 'POST', '/api/resume', {'id': gid}, token=tok['prussian'])
    check(code == 200 and r.get('seat') == 'prussian' and 'tokens' not in r, 'resume with a token: its seat, no tokens')
    # a save keeps the seats; loading it gives fresh links
    code, _ = req(srv, 'POST', '/api/games/%s/save' % gid, {'name': 'three'}, token=tok['french'])
    code, l = req(srv, 'POST', '/api/load', {'name': 'three'})
    check(code == 201 and l.get('seats') == {'french': 'human', 'british': 'random', 'prussian': 'human'},
          'load keeps the seats: %s' % (l.get('seats'),))
    check(set(l.get('tokens', {})) == {'french', 'prussian'} and l['tokens']['french'] != tok['french'],
          'a loaded game gets fresh tokens')
    # people on one side only: the game id is the capability, as before seats
    code, v = req(srv, 'POST', '/api/games', {'scenario': 'long', 'seed': 12, 'level': 'random',
                                               'seats': {'french': 'random', 'british': 'human', 'prussian': 'human'}})
    check(code == 201 and v['observation']['side'] == 'Allied', 'two Allied people: %s' % code)
    code, _ = req(srv, 'GET', '/api/games/' + v['id'])
    check(code == 200, 'one side of people: the id reads the game')
    bad = [{'french': 'human', 'prussian': 'bogus'}, {'spain': 'human'}, {'french': 'random', 'british': 'random'},
           'french=human', {'french': 5}]
    for s in bad:
        code, e = req(srv, 'POST', '/api/games', {'scenario': 'long', 'seats': s})
        check(code == 400 and '\n' not in e.get('error', '\n'), 'bad seats %r refused: %s' % (s, code))
    code, e = req(srv, 'POST', '/api/games', {'scenario': 'short', 'seats': {'french': 'human', 'prussian': 'human'}})
    check(code == 400 and 'prussian' in e['error'], 'no Prussian seat in the short game: %s' % e)
    return gid, tok


def number_tests(srv):
    code, v = req(srv, 'POST', '/api/games', {'scenario': 'short', 'seed': 3, 'level': 'random'})
    gid = v['id']
    for at in (-9.2e18, 9.2e18, -1, 0.5, 1e300, -1e300, 'x', None, [], 2 ** 31, 2 ** 63):
        code, e = req(srv, 'POST', '/api/games/%s/play' % gid, {'index': 0, 'at': at})
        check(code in (400, 409), 'at %r: %s %s' % (at, code, e))
    for k in (-9.2e18, 1e300, -0.0 - 1, 1.5, 2 ** 40):
        code, e = req(srv, 'POST', '/api/games/%s/play' % gid, {'index': k})
        check(code == 400, 'index %r: %s' % (k, code))
    for s in ('-9200000000000000000', '1e9', '99999999999999999999', 'abc', '-1'):
        code, e = req(srv, 'GET', '/api/games/%s?since=%s' % (gid, s))
        check(code == 200, 'since=%s: %s' % (s, code))
    check(srv.alive(), 'server alive after out-of-range numbers')


def http_get(addr, src, port, timeout):
    s = socket.create_connection((addr, port), timeout=timeout, source_address=(src, 0))
    s.sendall(b'GET /api/saves HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    data = b''
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data


def slow_client_tests(srv):
    port = srv.port
    slow = []
    t0 = time.time()
    for i in range(200):   # half-open: connected, one partial header line, then silence
        try:
            s = socket.create_connection(('127.0.0.1', port), timeout=2)
            s.sendall(b'GET /api/saves HTTP/1.1\r\nHost: x')
            slow.append(s)
        except OSError:
            pass
    check(len(slow) == 200, 'opened 200 slow connections (%d)' % len(slow))
    t1 = time.time()
    try:
        ans = http_get('127.0.0.1', '127.0.0.2', port, 5)
    except OSError as e:
        ans = repr(e).encode()
    dt = time.time() - t1
    check(ans.startswith(b'HTTP/1.1 200') and dt < 3, 'another address is answered at once under 200 slow '
          'connections: %.2f s %r' % (dt, ans[:40]))
    # the server closes the silent ones (10 s timeout) and answers 127.0.0.1 again
    end = time.time() + 20
    ok = False
    while time.time() < end and not ok:
        try:
            ok = http_get('127.0.0.1', '127.0.0.1', port, 3).startswith(b'HTTP/1.1 200')
        except OSError:
            pass
        if not ok:
            time.sleep(0.5)
    check(ok, '127.0.0.1 answered again within %.1f s of opening the slow connections' % (time.time() - t0))
    closed = 0
    for s in slow:
        s.settimeout(0.05)
        try:
            closed += s.recv(1) == b''
        except (socket.timeout, OSError):
            closed += isinstance(sys.exc_info()[1], ConnectionResetError)
        s.close()
    check(closed >= 150, 'the server closed the silent connections: %d of 200' % closed)
    check(srv.alive(), 'server alive after the slow clients')


def raw(srv, method, path, headers, body=None):
    import http.client
    c = http.client.HTTPConnection('127.0.0.1', srv.port, timeout=30)
    c.putrequest(method, path, skip_host=True)
    for k, val in headers.items():
        c.putheader(k, val)
    data = json.dumps(body).encode() if body is not None else b''
    if body is not None:
        c.putheader('Content-Length', str(len(data)))
    c.endheaders(data)
    r = c.getresponse()
    out = r.status, r.read()
    c.close()
    return out


def privacy_tests(srv, gid, tok):
    """what a seat may not see: the seats' links, the record, the seed, an unfinished save"""
    import urllib.request
    with urllib.request.urlopen(srv.base + '/api/autosaves', timeout=30) as r:
        body = r.read().decode()
    check(gid in body and not any(t in body for t in tok.values()) and 'tokens' not in body,
          'the kept games are listed without the seats\' links')
    code, e = req(srv, 'GET', '/api/games/%s/record' % gid, token=tok['french'])
    check(code == 409, 'no record (every hand, the chance state) before the end: %s' % code)
    code, v = req(srv, 'GET', '/api/games/' + gid, token=tok['french'])
    check(code == 200 and 'seed' not in v, 'no seed (every draw to come) in a view before the end')
    code, e = req(srv, 'GET', '/api/replay?name=three&side=french')
    check(code == 403, 'an unfinished save with people on both sides is not replayed: %s' % code)
    # DNS rebinding and pages of other sites
    host = '127.0.0.1:%d' % srv.port
    code, _ = raw(srv, 'GET', '/api/autosaves', {'Host': 'attacker.example:%d' % srv.port})
    check(code == 403, 'a Host naming another machine is refused: %s' % code)
    for h in (host, 'localhost:%d' % srv.port, '127.0.0.1'):
        code, _ = raw(srv, 'GET', '/api/saves', {'Host': h})
        check(code == 200, 'Host %s answered: %s' % (h, code))
    new = {'side': 'french', 'level': 'random', 'scenario': 'short', 'seed': 4}
    code, _ = raw(srv, 'POST', '/api/games', {'Host': host, 'Origin': 'http://attacker.example',
                                               'Content-Type': 'text/plain'}, new)
    check(code == 403, 'a request from a page of another site is refused: %s' % code)
    code, _ = raw(srv, 'POST', '/api/games', {'Host': host, 'Origin': 'http://' + host,
                                               'Content-Type': 'application/json'}, new)
    check(code == 201, 'a request from the server\'s own page is answered: %s' % code)
    # a save is never replaced without asking; DELETE removes the kept game
    code, g = req(srv, 'POST', '/api/games', new)
    code, _ = req(srv, 'POST', '/api/games/%s/save' % g['id'], {'name': 'dup'})
    code2, e = req(srv, 'POST', '/api/games/%s/save' % g['id'], {'name': 'dup'})
    code3, _ = req(srv, 'POST', '/api/games/%s/save' % g['id'], {'name': 'dup', 'overwrite': True})
    check(code == 200 and code2 == 409 and 'exists' in e['error'] and code3 == 200,
          'a second save by the same name asks first: %s %s %s' % (code, code2, code3))
    code, _ = req(srv, 'DELETE', '/api/games/' + g['id'])
    _, kept = req(srv, 'GET', '/api/autosaves')
    code2, _ = req(srv, 'POST', '/api/resume', {'id': g['id']})
    check(code == 200 and g['id'] not in [k['id'] for k in kept['games']] and code2 == 404,
          'a deleted game is gone from the kept games: %s %s' % (code, code2))
    # a saves folder that is not a folder: one line at the start, not a server that keeps nothing
    bad = os.path.join(srv.saves, 'dup.json')
    p = subprocess.run([os.path.join(ROOT, 'waterloo'), 'serve', '--port', '0', '--saves', bad], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    check(p.returncode == 2 and '--saves' in p.stderr and p.stderr.count('\n') == 1, 'serve --saves FILE refused: %r' % p.stderr)


def trickle_tests(srv):
    """120 connections from four addresses, each sending its request one byte a second: another
    address is answered at once, and the server closes them within its deadline for a request"""
    port = srv.port
    socks = []
    for a in range(3, 7):
        for _ in range(30):
            try:
                s = socket.create_connection(('127.0.0.1', port), timeout=2, source_address=('127.0.0.%d' % a, 0))
                s.setblocking(False)
                socks.append(s)
            except OSError:
                pass
    check(len(socks) == 120, 'opened 120 trickling connections (%d)' % len(socks))
    req_bytes = b'GET /api/saves HTTP/1.1\r\nHost: x\r\nX-Slow: ' + b'a' * 200
    t0 = time.time()
    open_ = set(range(len(socks)))
    answered = None
    last_close = None
    while open_ and time.time() - t0 < 30:
        i_sec = int(time.time() - t0)
        for i in list(open_):
            try:
                socks[i].send(req_bytes[i_sec:i_sec + 1])
                if socks[i].recv(1) == b'':
                    raise ConnectionResetError
            except BlockingIOError:
                pass
            except OSError:
                open_.discard(i)
                last_close = time.time() - t0
        if answered is None and time.time() - t0 > 3:
            t1 = time.time()
            try:
                ok = http_get('127.0.0.1', '127.0.0.50', port, 5).startswith(b'HTTP/1.1 200')
            except OSError:
                ok = False
            answered = ok and time.time() - t1 < 3
        time.sleep(1)
    for s in socks:
        s.close()
    check(answered, 'another address answered at once under 120 trickling connections')
    check(not open_ and last_close is not None and last_close < 20,
          'the trickling connections closed by the request deadline: %d open, last at %s s' % (len(open_), last_close))
    check(srv.alive(), 'server alive after the trickling clients')


def main():
    subprocess.run(['make', '-s', 'waterloo'], cwd=ROOT, check=True)
    srv = web_test.Server()
    try:
        gid, tok = token_tests(srv)
        privacy_tests(srv, gid, tok)
        number_tests(srv)
        slow_client_tests(srv)
        trickle_tests(srv)
        if '--api-only' not in ARGS:
            import seats_browser
            seats_browser.run(srv, SHOTS, req)
        check(srv.alive(), 'server alive at the end')
    finally:
        srv.stop()
    if web_test.FAILS:
        print('seats test: %d failure(s)' % len(web_test.FAILS))
        sys.exit(1)
    print('seats test: all checks passed')


if __name__ == '__main__':
    main()
