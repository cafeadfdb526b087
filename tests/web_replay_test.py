#!/usr/bin/python3
"""The replay and the review in the browser (issue 23), run by `make web-test` after web_test.py.

Starts `./waterloo serve` with a saves folder holding a whole game (saved by `waterloo replay
--save`) and its review (`waterloo review --level sim`), then
  1. API: every step of the replay is a view whose position is the record's; a step out of
     range, a bad name and an unfinished game without a seat are refused with a 4xx; an
     unfinished game replayed by one seat never names the other seat's cards in hand; a game of
     a sim run is played again by its seed and index and replays to the same result as the
     command line's; a review started from the page finishes and its marks reach the replay.
  2. Browser (headless chromium): opens the replay, steps forward through the whole game one
     action at a time and back again, checks the counter, the log and the review's marks, and
     that the final board shows every unit where the save's final position has it; screenshots
     at 1280x720 and 1920x1080 in build/web-test/.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_test  # noqa: E402  (the server helper and check())

from web_test import ROOT, SHOTS, Server, check  # noqa: E402

WL = os.path.join(ROOT, 'waterloo')


def run(*args):
    r = subprocess.run([WL] + list(args), cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('waterloo %s: %s%s' % (' '.join(args), r.stdout, r.stderr))
    return r.stdout


def final_squares(path):
    with open(path) as f:
        return {u['name']: u['square'] for u in json.load(f)['state']['units']}


def on_map(units):
    return {k: q for k, q in units.items() if re.match(r'^[A-R]\d+$', q)}


def api_tests(srv, saves):
    code, v = srv.req('GET', '/api/replay?name=g&step=0')
    check(code == 200 and v['replay']['step'] == 0 and v['log_size'] == 0, 'step 0: no action yet')
    n = v['replay']['actions']
    check(v['replay']['over'] and v['replay']['side'] == 'both', 'a finished game is shown whole')
    code, v = srv.req('GET', '/api/replay?name=g&step=%d' % n)
    fin = final_squares(os.path.join(saves, 'g.json'))
    obs = {u['name']: u['square'] for u in v['observation']['units']}
    check(obs == {k: q for k, q in fin.items() if k in obs} and on_map(obs) == on_map(fin),
          'the last step is the saved position')
    check(v['log_size'] == n and len(v['log']) == n, 'the log of the whole game')
    check(any(e['action'].startswith('battle ') for e in v['log']), 'battle cards named after the game')
    check(isinstance(v['review'], list) and len(v['review']) > 50, 'the review comes with the replay')
    for bad in ('name=g&step=%d' % (n + 1), 'name=g&step=-1', 'name=g&step=x', 'name=../g', 'name=nothing',
                'name=g&side=prussian', 'name=g&step=3&since=4'):
        code, e = srv.req('GET', '/api/replay?' + bad)
        check(400 <= code < 500 and 'error' in e and e.get('request', '').startswith('GET /api/replay'),
              'refused, naming the request: %s (%d %s)' % (bad, code, e))
    # an unfinished game: only one seat's view
    code, g = srv.req('POST', '/api/games', {'side': 'french', 'level': 'heuristic', 'seed': 3})
    gid = g['id']
    for _ in range(30):
        code, v = srv.req('GET', '/api/games/%s' % gid)
        if not v['your_turn']:
            time.sleep(0.1)
            continue
        srv.req('POST', '/api/games/%s/play' % gid, {'index': len(v['legal']) - 1})
    srv.req('POST', '/api/games/%s/save' % gid, {'name': 'half'})
    code, e = srv.req('GET', '/api/replay?name=half')
    check(code == 403 and 'request' in e, 'an unfinished game needs a seat (%d %s)' % (code, e))
    code, v = srv.req('GET', '/api/replay?name=half&side=french')
    allied_hand = set()
    with open(os.path.join(saves, 'half.json')) as f:
        st = json.load(f)['state']
    allied_hand = {c for c in st.get('hand', []) if c[0] in 'BP'}
    seen = set()
    web_test.card_ids(v['observation'], seen)
    check(code == 200 and v['replay']['side'] == 'French' and not (seen & allied_hand),
          'the French seat sees no Allied card in hand (%s)' % sorted(seen & allied_hand))
    code, e = srv.req('GET', '/api/replay?name=half&side=allied')
    check(code == 403, 'an unfinished game is not replayed as the computer\'s side (%d)' % code)
    # its review, started through the API, judges the person's decisions only (never the
    # computer's, whose reasons would name its hidden cards)
    code, st = srv.req('POST', '/api/review', {'name': 'half', 'level': 'sim'})
    end = time.time() + 60
    while code == 200 and st['state'] == 'running' and time.time() < end:
        time.sleep(0.3)
        code, st = srv.req('GET', '/api/review?name=half')
    with open(os.path.join(saves, 'half-review', 'review.json')) as f:
        sides = {d['side'] for d in json.load(f)['decisions']}
    check(st['state'] == 'done' and st['done'] == st['of'] > 0 and sides == {'French'},
          'an unfinished game\'s review is the French person\'s only: %s, %s' % (st, sides))
    # a game of a sim run, by its seed and index
    code, r = srv.req('POST', '/api/replay/sim', {'players': 'heuristic,light', 'seed': '11', 'index': 5})
    check(code == 201 and r.get('name', '').startswith('sim-'), 'a sim game played again (%d)' % code)
    want = run('replay', '--players', 'heuristic,light', '--seed', '11', '--index', '5', '--quiet').strip().split('\n')[-1]
    code, v = srv.req('GET', '/api/replay?name=%s' % r['name'])
    check(code == 200 and v['replay']['result'] in want, 'same result as the command line: %s / %s' % (v['replay']['result'], want))
    code, e = srv.req('POST', '/api/replay/sim', {'players': 'mcts:expert,heuristic', 'seed': 1, 'index': 0})
    check(code == 400, 'expensive players refused for a sim replay')
    # the Review of the page: started, polled, done, its marks in the replay
    code, st = srv.req('POST', '/api/review', {'name': r['name'], 'level': 'sim'})
    check(code == 200 and st['state'] in ('running', 'done'), 'review started')
    end = time.time() + 120
    while st['state'] == 'running' and time.time() < end:
        time.sleep(0.5)
        code, st = srv.req('GET', '/api/review?name=%s' % r['name'])
    check(st['state'] == 'done' and st['done'] == st['of'] and st['of'] > 50, 'review done: %s' % st)
    code, v = srv.req('GET', '/api/replay?name=%s&step=3' % r['name'])
    check(isinstance(v['review'], list) and len(v['review']) == st['of'], 'the page review reaches the replay')
    return n, fin


STEP_JS = """
const [k, n, done] = arguments, t0 = Date.now();
document.getElementById('rp-next').click();
(function wait() {
  const t = document.getElementById('replay-step').textContent;
  if ((t.startsWith('action ' + k + ' of ' + n) && document.body.dataset.busy !== '1') || Date.now() - t0 > 20000) done();
  else setTimeout(wait, 2);
})();
"""


def unit_squares(d):
    """the squares of the counters drawn on the board, from their SVG transforms"""
    out = {}
    for name, tr in d.execute_script(
            "return [...document.querySelectorAll('#board g.unit')].map(g => [g.dataset.unit, g.getAttribute('transform')])"):
        x, y = (float(t) for t in re.findall(r'[-\d.]+', tr)[:2])
        col, row = int((x - 5 - 20) // 46), int((y - 5 - 20) // 46)
        out[name] = '%s%d' % (chr(65 + col), row + 1)
    return out


def browser_test(srv, n, fin):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,720'):
        opts.add_argument(a)
    opts.binary_location = '/usr/bin/chromium'
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
    d.set_page_load_timeout(30)
    d.set_script_timeout(30)

    def step_text():
        return d.find_element(By.ID, 'replay-step').text

    def wait_step(k, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            if step_text().startswith('action %d of %d' % (k, n)) and d.execute_script('return document.body.dataset.busy') != '1':
                return True
            time.sleep(0.01)
        return False

    try:
        d.get(srv.base + '/#replay=g')
        check(wait_step(0), 'the replay opens at action 0: %s' % step_text())
        nxt = d.find_element(By.ID, 'rp-next')
        ok, t0 = True, time.time()
        for k in range(1, n + 1):
            if k <= 5:
                nxt.click()      # a few clicks by webdriver; then the same click from the page's
            else:                # script, waiting there for the step to show (one round trip)
                d.execute_async_script(STEP_JS, k, n)
            if not wait_step(k):
                ok = check(False, 'step forward to %d (page says %s)' % (k, step_text()))
                break
            if k == 120:
                d.save_screenshot(os.path.join(SHOTS, 'replay-1280.png'))
        check(ok, 'stepped forward through all %d actions' % n)
        print('replay: forward through %d actions in %.1f s wall' % (n, time.time() - t0), flush=True)
        lis = d.find_elements(By.CSS_SELECTOR, '#log li')
        check(d.execute_script('return log.length') == n and lis and int(lis[-1].get_attribute('value')) <= n,
              'the log holds every action')
        check(unit_squares(d) == on_map(fin),
              'the last step shows the saved final position')
        check(d.find_element(By.ID, 'result').is_displayed(), 'the result is shown at the end')
        marks = d.find_elements(By.CSS_SELECTOR, '#log li.mark')
        print('replay: %d actions, %d marked decisions in the log' % (n, len(marks)), flush=True)
        back = d.find_element(By.ID, 'rp-back')
        for k in range(n - 1, n - 41, -1):
            back.click()
            if not check(wait_step(k), 'step back to %d' % k):
                break
        d.find_element(By.ID, 'rp-first').click()
        check(wait_step(0) and not d.find_elements(By.CSS_SELECTOR, '#log li'), 'back to the start: empty log')
        d.find_element(By.ID, 'rp-last').click()
        check(wait_step(n) and unit_squares(d) == on_map(fin),
              'to the end again: the same final position')
        d.set_window_size(1920, 1080)
        d.find_element(By.ID, 'rp-first').click()
        wait_step(0)
        for _ in range(60):
            nxt.click()
        wait_step(60)
        d.save_screenshot(os.path.join(SHOTS, 'replay-1920.png'))
    finally:
        d.quit()


def main():
    os.makedirs(SHOTS, exist_ok=True)
    saves = tempfile.mkdtemp(prefix='waterloo-replay-')
    run('replay', '--players', 'heuristic,mcts:sim', '--seed', '4', '--index', '2', '--save', os.path.join(saves, 'g.json'), '--quiet')
    run('review', os.path.join(saves, 'g.json'), '--level', 'sim', '--out', os.path.join(saves, 'g-review'), '--quiet')
    srv = Server(saves)
    try:
        t0 = time.time()
        n, fin = api_tests(srv, saves)
        print('replay: API checks in %.1f s wall' % (time.time() - t0), flush=True)
        if '--api-only' not in sys.argv:
            browser_test(srv, n, fin)
        check(srv.alive(), 'server alive at the end')
    finally:
        srv.stop()
        subprocess.run(['rm', '-rf', saves])
    if web_test.FAILS:
        print('web replay test: %d failure(s)' % len(web_test.FAILS))
        sys.exit(1)
    print('web replay test: all checks passed (screenshots in %s)' % SHOTS)


if __name__ == '__main__':
    main()
