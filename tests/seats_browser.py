"""The seats in a real browser (issue 22), run by tests/seats_test.py (make web-test).

  1. A long game made in the new-game dialog with a person at the Prussian seat, the computer at
     the French (random) and British (heuristic) seats, played on the page to the end: the
     person is asked only the Prussian seat's decisions (every prompt names the Prussian seat).
  2. Two people in two browser sessions: the French at one page (made in the dialog, with a
     friend's link for the Prussian), the Prussian at the link in a second browser; at every step
     neither page's view, legal actions nor hand shows a card of the other side's hand.
  3. Hot-seat: French and Prussian at one screen: the cover comes when the decision passes from
     one side to the other, with no card on the page, until that player says it is them.
Screenshots at 1280x720 and 1920x1080 in SHOTS.
"""
import os
import time

from web_test import check


def browser(size):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=%d,%d' % size):
        opts.add_argument(a)
    opts.binary_location = '/usr/bin/chromium'
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
    d.set_page_load_timeout(30)
    return d


class Page:
    def __init__(self, d, shots):
        from selenium.webdriver.common.by import By
        self.d, self.By, self.shots = d, By, shots

    def q(self, css):
        return self.d.find_elements(self.By.CSS_SELECTOR, css)

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def click(self, e):
        try:
            e.click()
        except Exception:
            self.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", e)

    def shot(self, name):
        self.d.save_screenshot(os.path.join(self.shots, name + '.png'))

    def state(self):
        """(over, your turn, covered, busy)"""
        return self.js("return [!!(view && view.observation.over), !!(view && view.your_turn), "
                       "document.body.dataset.covered || '', document.body.dataset.busy === '1' || busy || polling]")

    def settle(self, timeout=60, want_turn=True):
        end = time.time() + timeout
        while time.time() < end:
            over, yours, covered, b = self.state()
            if over or covered or (yours and not b) or (not want_turn and not b):
                return over, yours, covered
            time.sleep(0.03)
        raise SystemExit("page did not settle: %r %r" % (self.state(), self.js("return [inflight, busy, polling, view && view.deciding_seat, view && view.thinking, view && view.your_turn]")))

    def decide(self):
        """one decision by a plain policy: a facing, else the end of a card/round/battle
        choice, else the first button, else the first legal action through the page's act()"""
        if self.q('#facing-dialog[open]'):
            self.click(self.q('#facing-dialog #facing-choices button')[0])
            return
        for n in ('done', 'end', 'pass', 'noattack', 'nofire', 'battle done', 'bid none', 'noevade', 'rally done'):
            b = self.q('#actions button[data-notation="%s"]' % n)
            if b:
                self.click(b[0])
                return
        b = self.q('#actions button')
        if b:
            self.click(b[0])
            return
        self.js('act(view.legal[0])')

    def new_game(self, base, seats, scenario='long', seed=5):
        from selenium.webdriver.support.ui import Select
        self.d.get(base + '/')
        end = time.time() + 10
        while not self.q('#new-dialog[open]') and time.time() < end:
            time.sleep(0.05)
        form = '#new-dialog '
        Select(self.q(form + 'select[name=scenario]')[0]).select_by_value(scenario)
        self.click(self.q('#seats-on')[0])
        for s, who in seats.items():
            Select(self.q(form + 'select[name=seat-%s]' % s)[0]).select_by_value(who)
        self.q(form + 'input[name=seed]')[0].send_keys(str(seed))
        self.shot('seats-dialog')
        self.click(self.q('#new-start')[0])


def hand_ids(page):
    return set(page.js("return view ? view.observation.hand : []") or [])


def page_cards(page):
    """every card id the page shows or holds as its own: the hand (view and DOM), its
    commitments and the legal actions it was sent"""
    return set(page.js("""
      const ids = new Set(view ? view.observation.hand : []);
      for (const c of (view ? view.observation.committed || [] : [])) ids.add(c.card);
      for (const a of (view ? view.legal : [])) if (a.card) ids.add(a.card);
      for (const e of document.querySelectorAll('#hand [data-card], #hand .card')) {
        const t = e.getAttribute('data-card') || (e.textContent.match(/[FBP][0-9][0-9]/) || [''])[0];
        if (t) ids.add(t);
      }
      return [...ids];""") or [])


def long_game_prussian(srv, shots, req):
    d = browser((1280, 720))
    p = Page(d, shots)
    try:
        t0 = time.time()
        p.new_game(srv.base, {'french': 'random', 'british': 'heuristic', 'prussian': 'here'}, seed=5)
        asked = 0
        seats_seen = set()
        while True:
            over, yours, covered = p.settle(120)
            if over:
                break
            seat = p.js('return view.deciding_seat')
            seats_seen.add(seat)
            check(seat == 'prussian', 'the person is asked only the Prussian seat\'s decisions (asked %s)' % seat)
            if asked == 0:
                p.shot('seats-prussian-1280')
            p.decide()
            asked += 1
            if asked > 3000:
                check(False, 'the long game did not end')
                break
        res = p.js('return view.observation.result')
        check(res in ('French win', 'Allied win', 'draw'), 'the long game ended on the page: %s' % res)
        check(asked > 0, 'the Prussian person decided %d times' % asked)
        check(p.q('#result')[0].is_displayed(), 'the result is shown')
        p.shot('seats-prussian-end')
        print('seats: long game, Prussian person, computer French (random) and British (heuristic): '
              '%d decisions of the person, %.0f s, %s' % (asked, time.time() - t0, res), flush=True)
    finally:
        d.quit()


def two_browsers(srv, shots, req):
    a = Page(browser((1280, 720)), shots)
    b = None
    try:
        a.new_game(srv.base, {'french': 'here', 'british': 'random', 'prussian': 'link'}, seed=8)
        end = time.time() + 10
        while not a.q('#links-dialog[open] input[data-seat=prussian]') and time.time() < end:
            time.sleep(0.05)
        links = a.q('#links-dialog input[data-seat=prussian]')
        check(bool(links), 'a link for the friend at the Prussian seat')
        a.shot('seats-links')
        url = links[0].get_attribute('value')
        a.click(a.q('#links-dialog menu button')[0])
        check('~prussian.' in url and '~french.' in a.js('return location.hash') and '~prussian.' not in a.js('return location.hash'),
              'the French page keeps only its own token')
        b = Page(browser((1920, 1080)), shots)
        b.d.get(url)
        time.sleep(0.5)
        steps = {'french': 0, 'prussian': 0}
        pages = {'french': a, 'prussian': b}
        for i in range(120):
            b.settle(60, want_turn=False)
            a.settle(60, want_turn=False)
            fa, fb = page_cards(a), page_cards(b)
            ha, hb = hand_ids(a), hand_ids(b)
            check(not (fa & hb), 'the French page never holds a Prussian-side card in hand (%s)' % sorted(fa & hb))
            check(not (fb & ha), 'the Prussian page never holds a French card in hand (%s)' % sorted(fb & ha))
            check(all(c.startswith('F') for c in ha) and not any(c.startswith('F') for c in hb),
                  'each page shows its own side\'s cards only')
            if a.js('return !!view.observation.over'):
                break
            seat = a.js('return view.deciding_seat')
            if seat not in pages:
                time.sleep(0.1)
                continue
            pg = pages[seat]
            end = time.time() + 10
            while not pg.js('return !!(view && view.your_turn)') and time.time() < end:
                time.sleep(0.05)
            if steps[seat] == 3:
                pg.shot('seats-two-browsers-%s' % seat)
            pg.decide()
            steps[seat] += 1
        check(steps['french'] > 5 and steps['prussian'] > 0, 'both people decided on their own page: %s' % steps)
        print('seats: two browsers, decisions %s, no page held the other side\'s hand' % steps, flush=True)
    finally:
        a.d.quit()
        if b:
            b.d.quit()


def hot_seat(srv, shots, req):
    p = Page(browser((1920, 1080)), shots)
    try:
        p.new_game(srv.base, {'french': 'here', 'british': 'random', 'prussian': 'here'}, seed=21)
        covered_seen = 0
        for i in range(600):
            over, yours, covered = p.settle(60)
            if over:
                break
            if covered:
                covered_seen += 1
                check(p.q('#seat-cover')[0].is_displayed(), 'the cover hides the page')
                check(p.js("return document.querySelectorAll('#hand .card').length") == 0,
                      'no card on the page under the cover')
                if covered_seen == 1:
                    p.shot('seats-hot-seat-cover')
                side_before = p.js('return view.human')
                p.click(p.q('#seat-cover-btn')[0])
                p.settle(30)
                check(p.js('return view.human') != side_before, 'after the confirmation the page shows the other side')
                if covered_seen >= 3:
                    break
                continue
            p.decide()
        check(covered_seen >= 2, 'the cover came each time the decision changed sides (%d)' % covered_seen)
    finally:
        p.d.quit()


def run(srv, shots, req):
    os.makedirs(shots, exist_ok=True)
    long_game_prussian(srv, shots, req)
    two_browsers(srv, shots, req)
    hot_seat(srv, shots, req)
