#!/usr/bin/python3
"""How fast the page is answered: server CPU time (from /proc, every thread) and wall time of a
click's requests (select a unit: reach; move it: play), and the computer's CPU time per reply at
a level (default normal).  usage: tests/web_timing.py [--level normal] [--replies 30] [--seed 1]"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_test as W  # noqa: E402

LEVEL = W.arg('--level', 'normal')
REPLIES = int(W.arg('--replies', '30'))
SEED = int(W.arg('--seed', '1'))
HZ = os.sysconf('SC_CLK_TCK')


def cpu(pid):
    f = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / HZ


def main():
    srv = W.Server()
    pid = srv.proc.pid
    try:
        _, v = srv.req('POST', '/api/games', {'side': 'french', 'level': LEVEL, 'seed': SEED})
        gid = v['id']
        srv.req('POST', '/api/games/%s/play' % gid, {'action': next(a['notation'] for a in v['legal'] if a['kind'] == 'play_move')})
        _, v = srv.req('GET', '/api/games/%s' % gid)
        units = sorted({a['unit'] for a in v['legal'] if a['kind'] in ('step', 'turn')})
        n, c0, t0 = 0, cpu(pid), time.time()
        for u in units * 3:
            srv.req('GET', '/api/games/%s/reach?unit=%s' % (gid, u))
            n += 1
        c1, t1 = cpu(pid), time.time()
        print('select a unit (reach + highlight data): %.1f ms server CPU, %.1f ms wall per click (%d clicks)' % (
            1000 * (c1 - c0) / n, 1000 * (t1 - t0) / n, n))
        n, c0, t0 = 0, cpu(pid), time.time()
        for _ in range(20):
            srv.req('GET', '/api/games/%s?since=0' % gid)
            n += 1
        c1, t1 = cpu(pid), time.time()
        print('the whole view (observation, legal actions, log): %.1f ms server CPU, %.1f ms wall per request' % (
            1000 * (c1 - c0) / n, 1000 * (t1 - t0) / n))
        _, r = srv.req('GET', '/api/games/%s/reach?unit=%s' % (gid, units[0]))
        far = max(r['squares'], key=lambda q: q['cost'])
        c0, t0 = cpu(pid), time.time()
        srv.req('POST', '/api/games/%s/play' % gid, {'move': {'unit': units[0], 'to': far['sq'], 'facing': next(iter(far['facings']))}})
        print('a destination move of %d MP (play + new view): %.1f ms server CPU, %.1f ms wall' % (
            far['cost'], 1000 * (cpu(pid) - c0), 1000 * (time.time() - t0)))
        # the computer's replies: the human ends each round / takes the first choice
        total_cpu, total_dec, worst, replies = 0.0, 0, 0.0, 0
        while replies < REPLIES:
            _, v = srv.req('GET', '/api/games/%s?since=0' % gid)
            if v['observation']['over']:
                break
            acts = v['legal']
            a = next((x for x in acts if x['kind'] in ('end', 'done', 'noattack', 'battle_done', 'nofire', 'noevade')), acts[0])
            before = v['log_size']
            c0 = cpu(pid)
            _, v = srv.req('POST', '/api/games/%s/play' % gid, {'action': a['notation']})
            while v.get('thinking'):
                time.sleep(0.02)
                _, v = srv.req('GET', '/api/games/%s?since=%d' % (gid, before))
            dc = cpu(pid) - c0
            dec = sum(1 for e in v['log'] if e['by'] == 'computer')
            if dec:
                replies += 1
                total_cpu += dc
                total_dec += dec
                worst = max(worst, dc)
        print('computer at %s: %d replies, %d decisions, %.3f s CPU per decision, %.3f s CPU per reply (worst reply %.2f s)' % (
            LEVEL, replies, total_dec, total_cpu / max(total_dec, 1), total_cpu / max(replies, 1), worst))
    finally:
        srv.stop()


if __name__ == '__main__':
    main()
