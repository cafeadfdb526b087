/* The end of the game: the result, then castles, objectives, VP, units lost and battles turn by
 * turn (GET /api/games/ID/summary, replayed by the server from the record), the units lost by
 * name, and a link to the game's record */
'use strict';

let summary = null;   /* the summary of the finished game on display */

async function loadSummary() {
  if (summary && summary.game === game) return;
  const g = game;
  try {
    const s = await api('GET', `games/${g}/summary`);
    if (g !== game) return;
    summary = s;
    summary.game = g;
    renderSummary();
  } catch (e) { toast(e.message); }
}
function renderSummary() {
  const box = $('summary');
  if (!view || !view.observation.over || !game) { box.hidden = true; delete box.dataset.shown; return; }   /* not in a replay */
  if (!summary || summary.game !== game) { box.hidden = true; loadSummary(); return; }
  box.hidden = false;
  box.innerHTML = '';
  const long = summary.final.vp_french !== undefined;
  box.appendChild(h('h2', {}, 'The game, turn by turn'));
  const head = ['turn', 'first', 'French castles', 'objectives'].concat(long ? ['VP French\u2013Allied'] : []).concat(['units lost F / A', 'battles F / A']);
  const rows = summary.turns.map((t) => [t.turn, t.first, `${t.castles_french}/3`, t.objectives_french].concat(long ? [`${t.vp_french}\u2013${t.vp_allied}`] : [])
    .concat([`${t.units_lost_french} / ${t.units_lost_allied}`, `${t.battles_french} / ${t.battles_allied}`]));
  const tb = h('table', { id: 'summary-table' });
  const tr = h('tr');
  head.forEach((x) => tr.appendChild(h('th', {}, x)));
  tb.appendChild(tr);
  for (const r of rows) {
    const row = h('tr');
    r.forEach((x) => row.appendChild(h('td', {}, String(x))));
    tb.appendChild(row);
  }
  box.appendChild(tb);
  const dead = (side) => view.observation.units.filter((u) => u.square === 'dead' && unitDef(u.name).side === side).map((u) => unitName(u.name));
  const f = dead('French'), a = dead('Allied');
  box.appendChild(h('p', {}, `Units lost \u2014 French: ${f.length ? f.join(', ') : 'none'}; Allied: ${a.length ? a.join(', ') : 'none'}.`));
  const p = h('p');
  p.appendChild(h('a', { href: `/api/games/${game}/record`, download: `waterloo-${game}.json`, id: 'record-link' }, 'Download the game\'s record'));
  p.appendChild(h('span', { class: 'note' }, ` (${summary.actions} actions, seed ${view.seed}; load it with "waterloo play --load" or the Load button after copying it into the saves folder)`));
  box.appendChild(p);
  if (!box.dataset.shown) requestAnimationFrame(() => $('aside').scrollTo({ top: 0 }));   /* the result in view, once */
  box.dataset.shown = game;
}
