/* The board: terrain drawn once from the scenario, then pieces, markers, highlights and
 * arrows on every render */
'use strict';

/* ---------------------------------------------------------------- the static board */
function drawBoard() {
  const svg = $('board');
  svg.innerHTML = '';
  const W = M * 2 + scen.width * S, H = M * 2 + scen.height * S;
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const defs = el('defs', {}, svg);
  const mk = el('marker', { id: 'ah', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#e8590c' }, mk);
  const base = el('g', { id: 'base' }, svg);
  for (let c = 0; c < scen.width; c++) {
    const t = el('text', { x: M + c * S + S / 2 - 3, y: 13, class: 'coord' }, base);
    t.textContent = String.fromCharCode(65 + c);
  }
  for (let r = 0; r < scen.height; r++) {
    const t = el('text', { x: 3, y: M + r * S + S / 2 + 3, class: 'coord' }, base);
    t.textContent = r + 1;
  }
  for (const q of scen.squares) {
    const [x, y] = sqXY(q.sq);
    const g = el('g', { 'data-sq': q.sq, class: 'square' }, base);
    el('rect', { x, y, width: S, height: S, class: 'sq t-' + q.terrain }, g);
    if (q.terrain === 'woods') for (const [dx, dy] of [[12, 14], [30, 12], [20, 30], [36, 32]]) el('circle', { cx: x + dx, cy: y + dy, r: 5, fill: '#7fa566', opacity: 0.7 }, g);
    if (q.terrain === 'village') for (const [dx, dy] of [[10, 26], [24, 30], [32, 18]]) el('rect', { x: x + dx, y: y + dy, width: 7, height: 6, fill: '#9c6b3c' }, g);
    if (q.terrain === 'hill') el('path', { d: `M${x + 6},${y + 38} Q${x + 23},${y + 18} ${x + 40},${y + 38}`, stroke: '#a08a4f', fill: 'none', 'stroke-width': 1.5 }, g);
    if (q.terrain === 'castle') el('path', { d: `M${x + 8},${y + 40} v-14 h5 v4 h5 v-4 h5 v4 h5 v-4 h5 v14 z`, fill: '#8a7a60', stroke: '#4b3c22' }, g);
    g.addEventListener('click', () => clickSquare(q.sq));
  }
  /* roads under everything else: centre to centre across a road edge */
  for (const e of scen.edges) {
    const [ax, ay] = center(e.a), [bx, by] = center(e.b);
    if (e.kinds.includes('road')) el('line', { x1: ax, y1: ay, x2: bx, y2: by, class: 'road' }, base);
  }
  for (const e of scen.edges) {
    const [ax, ay] = sqXY(e.a), [bx] = sqXY(e.b);
    const vertical = bx !== ax;           /* b east of a: the edge is a vertical line */
    const x1 = vertical ? ax + S : ax, y1 = vertical ? ay : ay + S;
    const x2 = vertical ? ax + S : ax + S, y2 = vertical ? ay + S : ay + S;
    for (const k of ['pond', 'stream', 'ridge', 'bridge']) {
      if (!e.kinds.includes(k)) continue;
      if (k === 'bridge') {
        const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
        el('line', vertical ? { x1: mx - 6, y1: my, x2: mx + 6, y2: my, class: 'bridge' } : { x1: mx, y1: my - 6, x2: mx, y2: my + 6, class: 'bridge' }, base);
      } else el('line', { x1, y1, x2, y2, class: k }, base);
    }
  }
  el('g', { id: 'dyn' }, svg);
  el('g', { id: 'battle-marks' }, svg);
  /* place names above the counters, on a light halo: the whole name, in two lines if long */
  const labels = el('g', { id: 'labels' }, svg);
  for (const q of scen.squares) {
    if (!q.place) continue;
    const [x, y] = sqXY(q.sq);
    const nm = placeName(q);
    const words = nm.split(' ');
    const lines = nm.length > 11 && words.length > 1 ? [words.slice(0, Math.ceil(words.length / 2)).join(' '), words.slice(Math.ceil(words.length / 2)).join(' ')] : [nm];
    lines.forEach((ln, i) => {
      const t = el('text', { x: x + S / 2, y: y - 1 + (i - lines.length + 1) * 8 + S, class: 'place', 'text-anchor': 'middle' }, labels);
      if (ln.length > 9) { t.setAttribute('textLength', S - 3); t.setAttribute('lengthAdjust', 'spacingAndGlyphs'); }
      t.textContent = ln;
    });
  }
  el('g', { id: 'cdp' }, svg);
  el('g', { id: 'hl' }, svg);
  el('g', { id: 'arrows' }, svg);
  fitBoard();
}

/* ---------------------------------------------------------------- pieces */
function drawPieces() {
  const dyn = $('dyn');
  dyn.innerHTML = '';
  const obs = view.observation;
  /* castle damage points above the counters: filled while left, hollow once paid */
  const cdp = $('cdp');
  cdp.innerHTML = '';
  scen.castles.forEach((c, i) => {
    const [x, y] = sqXY(c.sq);
    const pts = obs.castle_points[i];
    const g = el('g', { class: 'cdp-box' }, cdp);
    el('rect', { x: x + 1, y: y + 1, width: 7 * c.points + 3, height: 9, rx: 2, class: 'cdp-bg' }, g);
    for (let k = 0; k < c.points; k++) el('circle', { cx: x + 5.5 + k * 7, cy: y + 5.5, r: 2.8, class: 'cdp', fill: k < pts ? '#222' : '#fff', stroke: '#222', 'data-cdp': c.sq }, g);
    const t = el('title', {}, g); t.textContent = `${c.name}: ${pts} of ${c.points} castle damage points left (R-10.3)`;
  });
  drawBattleMarks();
  const declares = actionsOf('declare');
  const defenders = new Set(declares.map((a) => a.defender));
  const attackerSet = new Set();
  if (sel.defender) declares.filter((a) => a.defender === sel.defender).forEach((a) => a.attackers.forEach((u) => attackerSet.add(u)));
  const movers = moverSet();
  for (const u of obs.units) {
    if (!/^[A-R]\d+$/.test(u.square)) continue;
    const d = unitDef(u.name);
    const [x, y] = sqXY(u.square);
    const cls = ['unit', armyClass(d.army)];
    if (u.reduced) cls.push('reduced');
    if (d.side === mySide()) cls.push('mine');
    if (movers.has(u.name)) cls.push('selectable');
    if (sel.unit === u.name) cls.push('selected');
    if (sel.attackers && sel.attackers.has(u.name)) cls.push('attacker');
    else if (sel.defender && attackerSet.has(u.name)) cls.push('selectable');
    if (sel.defender === u.name) cls.push('target');
    else if (!sel.defender && defenders.has(u.name)) cls.push('target');
    if (changed.has(u.name)) cls.push('changed');
    const g = el('g', { class: cls.join(' '), 'data-unit': u.name, transform: `translate(${x + 5},${y + 5})` }, dyn);
    const w = S - 10;
    if (changed.has(u.name)) el('rect', { x: -4, y: -4, width: w + 8, height: w + 8, rx: 6, class: 'glow' }, g);
    el('rect', { x: 0, y: 0, width: w, height: w, rx: 3, class: 'body' }, g);
    /* NATO-style symbol box: infantry a cross, cavalry one diagonal */
    el('rect', { x: 5, y: 4, width: 14, height: 9, class: 'sym' }, g);
    el('line', { x1: 5, y1: 13, x2: 19, y2: 4, class: 'sym' }, g);
    if (d.kind === 'infantry') el('line', { x1: 5, y1: 4, x2: 19, y2: 13, class: 'sym' }, g);
    const bp = el('text', { x: (w - 10) / 2, y: w - 5, 'text-anchor': 'middle', 'font-size': 15 }, g);
    bp.textContent = u.bp;
    if (d.elite) { const t = el('text', { x: 20, y: 12, 'font-size': 10 }, g); t.textContent = '\u2605'; }
    if (d.heavy) { const t = el('text', { x: 29, y: 12, 'font-size': 8 }, g); t.textContent = 'H'; }
    /* facing: a yellow notch on that side (none in a castle, where a unit faces all sides) */
    const terr = scen.squareIndex[u.square].terrain;
    if (terr !== 'castle') {
      const f = u.facing, m = w / 2;
      const tri = { N: `${m - 6},0 ${m + 6},0 ${m},-6`, S: `${m - 6},${w} ${m + 6},${w} ${m},${w + 6}`, E: `${w},${m - 6} ${w},${m + 6} ${w + 6},${m}`, W: `0,${m - 6} 0,${m + 6} -6,${m}` }[f];
      el('polygon', { points: tri, class: 'face' }, g);
    }
    /* markers: a column of lettered badges down the counter's right edge */
    let by = 14;
    const badge = (txt, fill, title) => {
      el('rect', { x: w - 10, y: by, width: 11, height: 11, fill, rx: 2, stroke: '#111', 'stroke-width': 0.6 }, g);
      const t = el('text', { x: w - 4.5, y: by + 9, class: 'badge', fill: '#111', 'text-anchor': 'middle' }, g); t.textContent = txt;
      const tt = el('title', {}, t); tt.textContent = title;
      by += 11;
    };
    if (u.reduced) badge('R', '#ffffff', 'reduced');
    if (u.disordered) badge('D', '#ffd43b', 'disordered');
    if (u.moved) badge('m', '#cfe8ff', 'moved this round');
    if (u.rallied) badge('r', '#d3f9d8', 'rallied this round');
    if (u.attacked) badge('a', '#ffc9c9', 'attacked this round');
    g.addEventListener('click', (ev) => { ev.stopPropagation(); clickUnit(u.name); });
    g.addEventListener('mousemove', (ev) => tip(ev, unitTip(u, d)));
    g.addEventListener('mouseleave', () => { $('tooltip').hidden = true; });
  }
  for (const v of obs.victory_squares) {
    const [x, y] = sqXY(v.sq);
    const col = v.holder === 'French' ? '#2f4fb5' : '#b3261e';
    const star = el('polygon', { points: starPts(x + S - 9, y + 9, 7, 3), fill: col, class: 'vsq', 'data-vsq': v.sq }, dyn);
    const t = el('title', {}, star);
    const vd = scen.victory_squares.find((d) => d.index === v.index);
    t.textContent = `${vd ? vd.name : 'victory square'}: held by the ${v.holder === 'French' ? 'French' : 'Allies'}`;
  }
  const leaderActs = actionsOf('leader');
  for (const [name, sq] of Object.entries(obs.leaders)) {
    if (!/^[A-R]\d+$/.test(sq)) continue;
    const [x, y] = sqXY(sq);
    const cls = 'leader' + (leaderActs.length && leaderActs[0].leader === name ? ' mine' : '');
    const g = el('g', { class: cls, 'data-leader': name, transform: `translate(${x + S - 11},${y + S - 11})` }, dyn);
    el('circle', { r: 9, fill: name === 'Napoleon' ? '#14245e' : '#6e0d0d', stroke: leaderActs.length && leaderActs[0].leader === name ? '#ffd43b' : '#111', 'stroke-width': leaderActs.length && leaderActs[0].leader === name ? 3 : 1.2 }, g);
    const t = el('text', { x: -4, y: 4 }, g); t.textContent = name[0];
    g.addEventListener('click', (ev) => { ev.stopPropagation(); clickLeader(name); });
    g.addEventListener('mousemove', (ev) => tip(ev, `<b>${name}</b><br>leader of the ${name === 'Napoleon' ? 'French' : 'British'} army`));
    g.addEventListener('mouseleave', () => { $('tooltip').hidden = true; });
  }
  /* off the map: reinforcements not yet entered, units eliminated */
  const off = $('offmap');
  off.innerHTML = '';
  const offs = obs.units.filter((u) => u.square === 'off');
  if (offs.length) off.appendChild(h('span', {}, 'Off the map:'));
  for (const u of offs) {
    const d = unitDef(u.name);
    const b = h('span', { class: 'off' + (movers.has(u.name) ? ' playable' : ''), 'data-unit': u.name, title: `${d.longname}: arrives turn ${d.arrives || '?'}${movers.has(u.name) ? ' (click to bring it on)' : ''}` }, `${u.name} (${d.bp_full}, turn ${d.arrives || '?'})`);
    b.addEventListener('click', () => clickUnit(u.name));
    off.appendChild(b);
  }
  const dead = obs.units.filter((u) => u.square === 'dead');
  if (dead.length) off.appendChild(h('span', {}, 'Eliminated: ' + dead.map((u) => unitName(u.name)).join(', ')));
}
function starPts(cx, cy, R, r) {
  const p = [];
  for (let i = 0; i < 10; i++) {
    const a = Math.PI / 2 + (i * Math.PI) / 5, rad = i % 2 ? r : R;
    p.push(`${cx + rad * Math.cos(a)},${cy - rad * Math.sin(a)}`);
  }
  return p.join(' ');
}
function unitTip(u, d) {
  const st = [u.reduced ? 'reduced' : 'full strength', u.disordered ? 'disordered' : '', u.moved ? 'moved' : '', u.rallied ? 'rallied' : '', u.attacked ? 'attacked' : ''].filter(Boolean).join(', ');
  return `<b>${d.longname}</b> (${u.name})<br>${d.army} ${d.kind}${d.heavy ? ', heavy' : ''}${d.elite ? ', elite' : ''}<br>` +
    `BP ${u.bp} (full ${d.bp_full}${d.bp_reduced ? ', reduced ' + d.bp_reduced : ''}), facing ${u.facing}<br>${st}<br>on ${u.square}${scen.squareIndex[u.square] && scen.squareIndex[u.square].place ? ' (' + scen.squareIndex[u.square].place + ')' : ''}`;
}
function tip(ev, html) {
  const t = $('tooltip');
  t.innerHTML = html;
  t.hidden = false;
  const r = $('board-wrap').getBoundingClientRect();
  t.style.left = (ev.clientX - r.left + 14) + 'px';
  t.style.top = (ev.clientY - r.top + 14) + 'px';
}

/* ---------------------------------------------------------------- highlights and clicks */
function drawHighlights() {
  const g = $('hl');
  g.innerHTML = '';
  const mark = (sq, text, onclick) => {
    const [x, y] = sqXY(sq);
    const r = el('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'hl', 'data-target': sq }, g);
    r.addEventListener('click', (ev) => { ev.stopPropagation(); onclick(); });
    if (text !== '') { const t = el('text', { x: x + S / 2 - 4, y: y + S / 2 + 4, class: 'hl-cost' }, g); t.textContent = text; }
  };
  if (sel.reach) {
    for (const q of sel.reach.squares) mark(q.sq, q.cost, () => chooseFacing(q));
    return;
  }
  if (sel.leader) {
    for (const a of actionsOf('leader')) mark(a.to, 1, () => act(a));
    return;
  }
  /* decisions that name a square: retreat, advance, evade, place */
  const bySq = {};
  for (const a of legal()) if (a.to && ['retreat', 'advance', 'evade', 'place'].includes(a.kind)) (bySq[a.to] = bySq[a.to] || []).push(a);
  for (const [sq, acts] of Object.entries(bySq)) mark(sq, '', () => (acts.length === 1 ? act(acts[0]) : pickFrom(acts, `${sq}: choose`)));
}

function arrow(a, b, cls) {
  const [x1, y1] = center(a), [x2, y2] = center(b);
  if (a === b) { el('circle', { cx: x1, cy: y1, r: S / 2 - 3, class: cls }, $('arrows')); return; }
  el('line', { x1, y1, x2: x2 - (x2 - x1) * 0.15, y2: y2 - (y2 - y1) * 0.15, class: cls }, $('arrows'));
}

/* the battle being fought: its attackers and defender ringed on the board */
function drawBattleMarks() {
  const g = $('battle-marks');
  g.innerHTML = '';
  const b = view.observation.battle;
  if (!b) return;
  const ring = (sq, cls) => {
    if (!/^[A-R]\d+$/.test(sq || '')) return;
    const [x, y] = sqXY(sq);
    el('rect', { x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 4, class: cls, 'data-battle': sq }, g);
  };
  ring(b.defender_square, 'battle-def');
  const where = new Map(view.observation.units.map((u) => [u.name, u.square]));
  for (const a of b.attackers) ring(where.get(a), 'battle-att');
}

/* the legend under the board: terrain, edges and markers */
function drawLegend() {
  const box = $('legend');
  box.innerHTML = '';
  const item = (svg, text) => {
    const s = h('span', { class: 'lg' });
    s.innerHTML = `<svg width="22" height="16" viewBox="0 0 22 16">${svg}</svg>`;
    s.appendChild(document.createTextNode(text));
    box.appendChild(s);
  };
  for (const [t, n] of [['clear', 'clear 1 MP'], ['woods', 'woods 2'], ['village', 'village 2'], ['castle', 'castle 2'], ['hill', 'hill 2']])
    item(`<rect class="sq t-${t}" x="1" y="1" width="20" height="14"/>`, n);
  item('<line class="ridge" x1="2" y1="8" x2="20" y2="8"/>', 'ridge');
  item('<line class="stream" x1="2" y1="8" x2="20" y2="8"/>', 'stream');
  item('<line class="bridge" x1="11" y1="2" x2="11" y2="14"/><line class="stream" x1="2" y1="8" x2="20" y2="8"/>', 'bridge');
  item('<line class="pond" x1="2" y1="8" x2="20" y2="8"/>', 'pond (impassable)');
  item('<line class="road" x1="2" y1="8" x2="20" y2="8"/>', 'road');
  item(`<polygon points="${starPts(11, 8, 7, 3)}" fill="#b3261e" class="vsq"/>`, 'objective (colour: holder)');
  item('<circle cx="6" cy="8" r="3" fill="#222"/><circle cx="14" cy="8" r="3" fill="#fff" stroke="#222"/>', 'castle points left / paid');
  item('<polygon points="5,10 17,10 11,3" class="face-lg"/>', 'facing (front)');
  for (const [t, c, n] of [['D', '#ffd43b', 'disordered'], ['R', '#ffffff', 'reduced'], ['m', '#cfe8ff', 'moved'], ['r', '#d3f9d8', 'rallied'], ['a', '#ffc9c9', 'attacked']])
    item(`<rect x="5" y="2" width="12" height="12" rx="2" fill="${c}" stroke="#111" stroke-width="0.6"/><text x="11" y="12" text-anchor="middle" font-size="10" font-weight="bold">${t}</text>`, n);
  item('<text x="4" y="13" font-size="13">\u2605</text>', 'elite');
  item('<rect x="1" y="1" width="20" height="14" rx="3" class="battle-def"/>', 'battle: defender');
  item('<rect x="1" y="1" width="20" height="14" rx="3" class="battle-att"/>', 'attacker');
}

/* a square's name: the castle's or objective's own name there, else its place in words */
function placeName(q) {
  const c = scen.castles.find((x) => x.sq === q.sq), v = scen.victory_squares.find((x) => x.sq === q.sq);
  if (c) return c.name;
  if (v) return v.name.replace(/\./g, '');
  return q.place.replace(/\d+$/, '').replace(/-/g, ' ').replace(/\b\w/g, (ch) => ch.toUpperCase());
}

/* the board scaled to the room beside the side panel: all of it in view, no horizontal scroll */
function fitBoard() {
  const svg = $('board'), vb = (svg.getAttribute('viewBox') || '').split(' ').map(Number);
  if (vb.length < 4) return;
  const wrap = $('board-wrap');
  const aw = wrap.clientWidth - 4;
  const ah = window.innerHeight - wrap.getBoundingClientRect().top - $('offmap').offsetHeight - $('legend').offsetHeight - 14;
  const k = Math.max(0.45, Math.min(aw / vb[2], ah / vb[3]));
  svg.style.width = Math.floor(vb[2] * k) + 'px';
  svg.style.height = Math.floor(vb[3] * k) + 'px';
}
window.addEventListener('resize', fitBoard);
