/* The game log and the hint panel */
'use strict';

function renderLog() {
  const ol = $('log');
  const atBottom = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
  ol.innerHTML = '';
  log.forEach((e, i) => {
    if (!e) return;
    const li = h('li', { class: e.by === 'computer' ? 'computer' : 'human', value: i + 1 });
    li.appendChild(h('span', { title: e.action }, `t${e.turn} ${e.side}${e.by === 'computer' ? ' (computer)' : ''} ${sentence(e.action)}.`));
    if (e.events) li.appendChild(h('span', { class: 'ev' }, e.events));
    if (e.why) li.appendChild(h('span', { class: 'why' }, `why: ${e.why}`));
    if (e.fresh) li.classList.add('fresh');
    ol.appendChild(li);
  });
  if (atBottom) ol.scrollTop = ol.scrollHeight;
}

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
    for (let i = log.length - 1; i >= 0 && log[i] && log[i].by === 'computer'; i--) {
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
