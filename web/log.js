/* The game log, grouped by turn and round, filterable, and the hint panel */
'use strict';

const BATTLE_KINDS = new Set(['declare', 'battle_card', 'battle_done', 'retreat', 'reduce', 'castle_point', 'advance', 'lose', 'charge', 'force_charge', 'artillery', 'nofire']);
/* log lines: consecutive steps of one unit made one line ("moves to G6, G5, facing north") */
function logLines() {
  const lines = [];
  log.forEach((e) => {
    if (!e) return;
    const prev = lines[lines.length - 1], a = e.act;
    if (prev && a && a.kind === 'step' && prev.act && prev.act.kind === 'step' && prev.act.unit === a.unit &&
        prev.e.side === e.side && prev.e.turn === e.turn && !prev.e.events) {
      prev.path.push(a.to);
      prev.act = a;
      prev.e = e;
      prev.fresh = prev.fresh || e.fresh;
      return;
    }
    lines.push({ e, act: a, path: a && a.kind === 'step' ? [a.to] : null, fresh: e.fresh, first: e.n });
  });
  return lines;
}
function lineText(l) {
  const e = l.e;
  const words = l.path && l.path.length > 1 ? `${unitName(l.act.unit)} moves to ${l.path.join(', ')}, facing ${FACING[l.act.facing]}` : told(e.act);
  return `${e.side}${e.by === 'computer' ? ' (computer)' : ''} ${words}.`;
}
function lineShown(l, filter, text) {
  const e = l.e, a = l.act;
  if (filter === 'battles' && !(a && BATTLE_KINDS.has(a.kind)) && !/battle|reduced|eliminated|retreat/i.test(e.events || '')) return false;
  if (filter === 'computer' && e.by !== 'computer') return false;
  if (filter === 'mine' && e.by === 'computer') return false;
  if (filter === 'events' && !e.events) return false;
  return !text || (lineText(l) + ' ' + (e.events || '')).toLowerCase().includes(text);
}
function renderLog() {
  const box = $('log');
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  const filter = $('log-filter').value, text = $('log-search').value.trim().toLowerCase();
  box.innerHTML = '';
  let ol = null, turn = -1, inBid = false, roundSide = '', shown = 0, total = 0;
  for (const l of logLines()) {
    const e = l.e;
    total++;
    /* a new group at each turn, at each round (the first card or pass of the other side's
     * round: a round holds 1 to 5 cards, R-4.4), one for the bid */
    if (e.turn !== turn) roundSide = '';
    const round = e.phase === 'round' && e.side !== roundSide, bid = e.phase === 'bid';
    if (!ol || e.turn !== turn || round || (bid && !inBid)) {
      if (ol && !ol.children.length) box.lastChild.remove();
      const g = h('div', { class: 'round' });
      g.appendChild(h('h4', {}, `Turn ${e.turn} \u00b7 ${bid ? 'the bid' : round ? e.side + ' round' : 'start of the turn'}`));
      ol = h('ol', { start: l.first + 1 });
      g.appendChild(ol);
      box.appendChild(g);
      turn = e.turn;
      inBid = bid;
      if (e.phase === 'round') roundSide = e.side;
    }
    if (!lineShown(l, filter, text)) continue;
    shown++;
    const li = h('li', { class: (e.by === 'computer' ? 'computer' : 'human') + (l.fresh ? ' fresh' : ''), value: l.first + 1, 'data-kind': l.act ? l.act.kind : 'secret' });
    li.appendChild(h('span', { title: e.action }, lineText(l)));
    if (e.events) li.appendChild(h('span', { class: 'ev' }, e.events));
    if (e.why) li.appendChild(h('span', { class: 'why' }, `why: ${e.why}`));
    ol.appendChild(li);
  }
  if (ol && !ol.children.length && box.lastChild) box.lastChild.remove();
  $('log-count').textContent = shown === total ? `${total} line${total === 1 ? '' : 's'}` : `${shown} of ${total} lines`;
  if (atBottom) box.scrollTop = box.scrollHeight;
}
$('log-filter').addEventListener('change', () => view && renderLog());
$('log-search').addEventListener('input', () => view && renderLog());

function renderHint() {
  const p = $('hint-panel'), ol = $('hint-list');
  const arrows = $('arrows');
  arrows.innerHTML = '';
  if (!hint || !view.your_turn) {
    p.hidden = true;
    /* the computer's moves since the human last decided: an arrow from where each unit was */
    const now = new Map(view.observation.units.map((u) => [u.name, u.square]));
    for (const [name, old] of changed) {
      const sq = now.get(name);
      if (/^[A-R]\d+$/.test(old) && /^[A-R]\d+$/.test(sq) && old !== sq) arrow(old, sq, 'arrow moved');
    }
    /* and the battles it declared since then, from each attacker to the defender */
    for (let i = log.length - 1; !replay && i >= 0 && log[i] && log[i].by === 'computer'; i--) {
      const a = log[i].act;
      if (a && a.kind === 'declare') for (const q of a.attacker_squares) arrow(q, a.defender_square, 'arrow moved');
    }
    return;
  }
  p.hidden = false;
  ol.innerHTML = '';
  $('hint-level').textContent = `(${hint.level})`;
  hint.candidates.forEach((c, i) => {
    const li = h('li', { 'data-notation': c.notation, title: 'click to play it' }, `${label(c)} \u2014 win ${(100 * c.winrate).toFixed(0)}%, ${(100 * c.share).toFixed(0)}% of the search`);
    if (c.why) li.appendChild(h('div', { class: 'why' }, c.why));
    li.addEventListener('click', () => act(c));
    ol.appendChild(li);
    const cls = 'arrow' + (i ? ' alt' : '');
    if (c.kind === 'declare') for (const q of c.attacker_squares) arrow(q, c.defender_square, cls);
    else if (c.square && c.to && c.square !== c.to && /^[A-R]\d+$/.test(c.square)) arrow(c.square, c.to, cls);
    else if (c.to) arrow(c.to, c.to, cls);
    else if (c.square && /^[A-R]\d+$/.test(c.square)) arrow(c.square, c.square, cls);
  });
}
