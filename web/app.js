/* Waterloo in the browser: draws the board from the scenario data, shows what the human side
 * sees (never the computer's cards: the server sends only that side's observation), and turns
 * clicks into actions of the JSON API (docs/API.md).  Plain JavaScript, no build step. */
'use strict';

const S = 46, M = 20;                       /* square size, margin for coordinates */
const DIRS = ['N', 'E', 'S', 'W'];
const ARROWS = { N: '\u2191', E: '\u2192', S: '\u2193', W: '\u2190' };
const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

let game = null;        /* game id */
let scen = null;        /* scenario data */
let view = null;        /* the last view from the server */
let log = [];           /* log entries by index */
let sel = {};           /* what the human has selected: {unit, reach} | {defender, attackers} | {leader} | {card} */
let hint = null;        /* hint candidates on display */
let prevUnits = null;   /* unit positions before the computer's last actions */
let changed = new Map();/* unit -> old square, highlighted after the computer moved */
let baseUnits = null;   /* units when the human last decided */
let lastHumanLog = 0;   /* log size then */
let polling = false;
let busy = false;

/* ---------------------------------------------------------------- helpers */
function sqXY(sq) {
  const c = sq.charCodeAt(0) - 65, r = parseInt(sq.slice(1), 10) - 1;
  return [M + c * S, M + r * S];
}
function center(sq) { const [x, y] = sqXY(sq); return [x + S / 2, y + S / 2]; }
function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function h(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k === 'class') e.className = attrs[k];
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
    else e.setAttribute(k, attrs[k]);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}
function toast(msg) {
  const t = $('toast');
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}
let inflight = 0;       /* requests under way: body[data-busy] tells tests and styles */
function markBusy(d) { inflight += d; document.body.dataset.busy = inflight > 0 ? '1' : '0'; }
async function api(method, path, body) {
  markBusy(1);
  try { return await api1(method, path, body); } finally { markBusy(-1); }
}
async function api1(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) { opt.body = JSON.stringify(body); opt.headers['Content-Type'] = 'application/json'; }
  const r = await fetch('/api/' + path, opt);
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: 'bad answer from the server' }; }
  if (!r.ok) throw new Error(j && j.error ? j.error : 'HTTP ' + r.status);
  return j;
}
const unitDef = (name) => scen.unitIndex[name];
const cardDef = (id) => scen.cardIndex[id];
const armyClass = (army) => army === 'French' ? 'fr' : army === 'British' ? 'br' : 'pr';
const mySide = () => view.human;

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
  for (const q of scen.squares) {
    if (!q.place) continue;
    const [x, y] = sqXY(q.sq);
    const t = el('text', { x: x + 2, y: y + S - 3, class: 'place' }, base);
    const nm = q.place.replace(/-/g, ' ').replace(/\b\w/g, (ch) => ch.toUpperCase());
    t.textContent = nm.length > 14 ? nm.slice(0, 13) + '.' : nm;
    const tt = el('title', {}, t); tt.textContent = q.place;
  }
  el('g', { id: 'dyn' }, svg);
  el('g', { id: 'hl' }, svg);
  el('g', { id: 'arrows' }, svg);
}

/* ---------------------------------------------------------------- pieces */
function drawPieces() {
  const dyn = $('dyn');
  dyn.innerHTML = '';
  const obs = view.observation;
  scen.castles.forEach((c, i) => {
    const [x, y] = sqXY(c.sq);
    const pts = obs.castle_points[i];
    for (let k = 0; k < c.points; k++) el('circle', { cx: x + 6 + k * 7, cy: y + 6, r: 2.8, class: 'cdp', fill: k < pts ? '#222' : 'none', stroke: '#222', 'data-cdp': c.sq }, dyn);
  });
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
    const bp = el('text', { x: w / 2, y: w - 5, 'text-anchor': 'middle', 'font-size': 15 }, g);
    bp.textContent = u.bp;
    if (d.elite) { const t = el('text', { x: w - 9, y: 11, 'font-size': 10 }, g); t.textContent = '\u2605'; }
    if (d.heavy) { const t = el('text', { x: 22, y: 12, 'font-size': 8 }, g); t.textContent = 'H'; }
    /* facing: a yellow notch on that side (none in a castle, where a unit faces all sides) */
    const terr = scen.squareIndex[u.square].terrain;
    if (terr !== 'castle') {
      const f = u.facing, m = w / 2;
      const tri = { N: `${m - 6},0 ${m + 6},0 ${m},-6`, S: `${m - 6},${w} ${m + 6},${w} ${m},${w + 6}`, E: `${w},${m - 6} ${w},${m + 6} ${w + 6},${m}`, W: `0,${m - 6} 0,${m + 6} -6,${m}` }[f];
      el('polygon', { points: tri, class: 'face' }, g);
    }
    let bx = 0;
    const badge = (txt, fill, title) => {
      el('rect', { x: bx, y: w - 11, width: 9, height: 9, fill, rx: 1 }, g);
      const t = el('text', { x: bx + 1.5, y: w - 4, class: 'badge', fill: '#111' }, g); t.textContent = txt;
      const tt = el('title', {}, t); tt.textContent = title;
      bx += 10;
    };
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
  if (dead.length) off.appendChild(h('span', {}, 'Eliminated: ' + dead.map((u) => u.name).join(', ')));
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

/* ---------------------------------------------------------------- legal actions */
const legal = () => (view && view.your_turn ? view.legal : []);
const actionsOf = (kind) => legal().filter((a) => a.kind === kind);
function moverSet() {
  const s = new Set();
  for (const a of legal()) if (a.kind === 'step' || a.kind === 'turn' || a.kind === 'enter') s.add(a.unit);
  return s;
}
function label(a) {
  const c = a.card ? cardDef(a.card) : null;
  const cn = c ? `${a.card} "${c.name}"` : '';
  switch (a.kind) {
    case 'end': return a.notation === 'pass' ? 'Pass (no card this round)' : 'End the round';
    case 'play_move': return `Play ${cn} for movement (${c.mp} MP)`;
    case 'artillery': return `${cn}: artillery, ${a.unit} fires`;
    case 'charge': return `${cn}: ${a.unit} charges ${a.squares} square${a.squares > 1 ? 's' : ''}`;
    case 'force_charge': return `${cn}: force ${a.unit} to charge ${a.squares}`;
    case 'rally': return a.card ? `${cn}: rally ${a.unit}` : `Rally ${a.unit} too`;
    case 'restore': return `${cn}: restore ${a.unit} to full strength`;
    case 'health': return `${cn}: Napoleon's health (the French discard 2 cards)`;
    case 'done': return 'Done moving (end this card)';
    case 'noattack': return 'No attack';
    case 'declare': return `Attack ${a.defender} (${a.defender_square}) with ${a.attackers.join(', ')}: ${a.attack_total} vs ${a.defence_total} before cards`;
    case 'battle_card': return `Commit ${cn} (${a.purpose}${a.purpose === 'points' ? ', ' + c.bp + ' BP' : ''})`;
    case 'battle_done': return 'No more battle cards';
    case 'nofire': return 'Do not fire';
    case 'reduce': return 'Reduce the defender';
    case 'retreat': return `Retreat ${a.unit || ''} to ${a.to} facing ${a.facing}`;
    case 'castle_point': return 'Spend a castle point instead';
    case 'advance': return `Advance ${a.unit} into ${a.to} facing ${a.facing}`;
    case 'lose': return `Reduce ${a.unit} (tied attacker)`;
    case 'evade': return `Evade: ${a.unit} to ${a.to} facing ${a.facing}`;
    case 'noevade': return 'Do not evade';
    case 'place': return `Place the leader on ${a.to}`;
    case 'bid': return a.card ? `Bid ${cn} (MP ${c.mp})` : 'Bid no card';
    case 'rally_done': return 'Rally only the one unit';
    case 'leader': return `${a.leader} to ${a.to}`;
    case 'step': return `${a.unit} to ${a.to} facing ${a.facing}`;
    case 'turn': return `${a.unit} turns ${a.facing}`;
    case 'enter': return `${a.unit} enters at ${a.to} facing ${a.facing}`;
    default: return a.notation;
  }
}
const PROMPTS = {
  bid: ['Bid for the first player', 'Offer a card: the higher MP goes first this turn (the card is spent). Click a card, or bid none.'],
  round: ['Your round', 'Click a card to play it for movement or its action, or end the round.'],
  move: ['Move', 'Click a unit (yellow frame), then a green square: the number is the MP it costs. Click the unit\'s own square to turn. Done ends the card.'],
  evade: ['Cavalry evasion', 'An enemy infantry unit came next to your cavalry: evade (click a square) or stay.'],
  leader: ['Displaced leader', 'Your leader was displaced: click a highlighted square.'],
  declare: ['Battle', 'Click an enemy unit with a red frame to attack it, then your attacking units; or No attack.'],
  fire: ['Artillery before the battle', 'You may fire artillery at an attacker before the cards are revealed.'],
  'attack-cards': ['Your battle cards', 'Commit cards to the attack, one at a time (they stay secret until both sides are done).'],
  'defence-cards': ['Your battle cards', 'You are attacked: commit cards to the defence (secret until the reveal).'],
  loss: ['The defender loses', 'Reduce, retreat (click a square) or spend a castle point.'],
  advance: ['Advance after combat', 'One attacker may advance into the square the defender left.'],
  'attacker-loss': ['Tied attack', 'Choose the attacking unit that is reduced.'],
  rally: ['Rally', 'Rally a second disordered unit, or only the one.'],
  reaction: ['Artillery reaction', 'You may fire artillery at the unit that just acted.'],
};

/* ---------------------------------------------------------------- rendering */
function render() {
  if (!view || !scen) return;
  const obs = view.observation;
  $('st-turn').textContent = `turn ${obs.turn}/${obs.turns}`;
  $('st-round').textContent = `${obs.active} round \u00b7 cards ${obs.cards_this_round}/${obs.round_limit}` + (obs.card ? ` \u00b7 card ${obs.card}` : '');
  $('st-phase').textContent = obs.over ? 'game over' : view.your_turn ? `your decision: ${obs.phase}` : `computer thinking (${obs.phase})\u2026`;
  $('st-mp').textContent = `MP ${obs.phase === 'move' ? obs.mp : '-'}`;
  $('st-mp').className = obs.phase === 'move' ? 'live' : '';
  const sc = obs.score;
  const lost = `units lost F ${sc.units_lost_french} / A ${sc.units_lost_allied}`;
  const held = obs.victory_squares.filter((v) => v.holder === 'French').length;
  $('st-score').textContent = (sc.vp_french !== undefined ? `VP French ${sc.vp_french} \u2013 Allied ${sc.vp_allied}` :
    `French hold ${sc.castles_french}/3 castles, ${held}/${obs.victory_squares.length} objectives${sc.french_would_win ? ' (French winning)' : ''}`) + ' \u00b7 ' + lost;
  $('undo-btn').disabled = !view.can_undo || !view.your_turn;
  $('hint-btn').disabled = !view.your_turn;
  const res = $('result');
  if (obs.over) {
    const won = (obs.result === 'French win' && view.human === 'French') || (obs.result === 'Allied win' && view.human === 'Allied');
    res.hidden = false;
    res.className = obs.result === 'draw' ? 'draw' : won ? 'won' : 'lost';
    res.textContent = `${obs.result}: ${obs.result === 'draw' ? 'a draw' : won ? 'you won' : 'you lost'}`;
    res.setAttribute('data-result', obs.result);
  } else res.hidden = true;
  drawPieces();
  drawHighlights();
  renderPrompt();
  renderHand();
  renderBattle();
  renderLog();
  renderHint();
}

function renderPrompt() {
  const obs = view.observation, box = $('actions');
  box.innerHTML = '';
  $('prompt').className = 'panel' + (view.your_turn ? '' : ' waiting');
  if (obs.over) {
    $('prompt-title').textContent = 'Game over';
    $('prompt-text').textContent = obs.description;
    return;
  }
  if (!view.your_turn) {
    $('prompt-title').textContent = 'The computer is thinking\u2026';
    $('prompt-text').textContent = `${obs.decider} to decide (${obs.phase}). Its moves are highlighted on the board when it is done.`;
    return;
  }
  const [title, text] = PROMPTS[obs.phase] || ['Your decision', 'Choose one of the legal actions.'];
  $('prompt-title').textContent = title;
  let extra = '';
  if (obs.phase === 'move') extra = ` ${obs.mp} MP left on ${obs.card || 'the card'}.`;
  if (sel.defender) extra = ` Defender ${sel.defender}; attackers: ${[...sel.attackers].join(', ') || 'click your units'}.`;
  $('prompt-text').textContent = text + extra;
  /* what happened since the human last decided: bids and cards revealed, battles, losses */
  const news = log.filter((e) => e && e.n >= lastHumanLog && e.by === 'computer');
  const nb = $('news');
  nb.innerHTML = '';
  nb.hidden = !news.length;
  if (news.length) {
    nb.appendChild(h('b', {}, 'The computer: '));
    const moves = news.map((e) => sentence(e.action)).filter((t) => !/^(ends the movement|does not fire|does not evade|does not attack)$/.test(t));
    nb.appendChild(h('span', {}, moves.slice(0, 6).join('; ') + (moves.length > 6 ? `; \u2026 (${moves.length - 6} more in the log)` : '') + '.'));
    for (const e of news) if (e.events) nb.appendChild(h('div', { class: 'ev' }, e.events + '.'));
  }
  /* buttons: every legal action not played by clicking the board or a card */
  const viaBoard = new Set(['step', 'turn', 'enter', 'leader', 'declare']);
  const acts = legal();
  acts.forEach((a) => {
    if (viaBoard.has(a.kind)) return;
    if (a.card && (obs.phase === 'round' || obs.phase === 'bid' || obs.phase.endsWith('cards') || obs.phase === 'reaction' || obs.phase === 'fire')) return; /* on the cards */
    const b = h('button', { 'data-notation': a.notation }, label(a));
    b.addEventListener('click', () => act(a));
    box.appendChild(b);
  });
  if (obs.phase === 'declare') {
    const m = matchingDeclare();
    const b = h('button', { id: 'attack-btn', class: 'primary' }, m ? `Attack: ${m.attack_total} vs ${m.defence_total} before cards` : 'Attack (choose defender and attackers)');
    b.disabled = !m;
    b.addEventListener('click', () => m && act(m));
    box.insertBefore(b, box.firstChild);
    if (sel.defender) {
      const c = h('button', {}, 'Clear selection');
      c.addEventListener('click', () => { sel = {}; render(); });
      box.appendChild(c);
    }
  }
}

function renderHand() {
  const obs = view.observation, hand = $('hand');
  hand.innerHTML = '';
  $('opp-cards').textContent = `\u00b7 the computer holds ${obs.opponent.hand} card${obs.opponent.hand === 1 ? '' : 's'}` +
    (obs.opponent.committed ? `, ${obs.opponent.committed} committed in secret` : '');
  const byCard = {};
  for (const a of legal()) if (a.card) (byCard[a.card] = byCard[a.card] || []).push(a);
  const cards = obs.hand.map((id) => ({ id, committed: false })).concat(obs.committed.map((c) => ({ id: c.card, committed: true, purpose: c.purpose })));
  for (const it of cards) {
    const c = cardDef(it.id);
    const opts = byCard[it.id] || [];
    const hinted = hint && view.your_turn && hint.candidates.length && hint.candidates[0].card === it.id;
    const div = h('div', { class: `card ${armyClass(c.army)}${hinted ? ' hinted' : ''}${opts.length ? ' playable' : ''}${it.committed ? ' committed' : ''}${sel.card === it.id ? ' selected' : ''}`, 'data-card': it.id, title: `${c.army} card ${c.id}` });
    div.appendChild(h('div', { class: 'id' }, c.id));
    div.appendChild(h('div', { class: 'nm' }, c.name));
    const vals = h('div', { class: 'vals' });
    vals.appendChild(h('span', {}, `MP ${c.mp}`));
    vals.appendChild(h('span', {}, `BP ${c.bp}`));
    div.appendChild(vals);
    if (c.action !== '-') div.appendChild(h('div', { class: 'act' }, c.action + (c.action === 'command' ? ` +${c.command_attack}/+${c.command_defence}` : '')));
    if (it.committed) div.appendChild(h('div', { class: 'act' }, `committed (${it.purpose})`));
    if (sel.card === it.id && opts.length > 1) {
      const o = h('div', { class: 'opts' });
      for (const a of opts) {
        const b = h('button', { 'data-notation': a.notation }, label(a).replace(/^[A-Z]\d\d "[^"]*":? ?/, ''));
        b.addEventListener('click', (ev) => { ev.stopPropagation(); act(a); });
        o.appendChild(b);
      }
      div.appendChild(o);
    }
    if (opts.length) div.addEventListener('click', () => {
      if (opts.length === 1) act(opts[0]);
      else { sel = { card: it.id }; render(); }
    });
    hand.appendChild(div);
  }
  if (!cards.length) hand.appendChild(h('span', { class: 'note' }, 'no cards'));
}

function renderBattle() {
  const obs = view.observation, p = $('battle-panel'), body = $('battle-body');
  const b = obs.battle, lb = view.last_battle;
  const m = obs.phase === 'declare' ? matchingDeclare() : null;
  if (!b && !lb && !m) { p.hidden = true; return; }
  p.hidden = false;
  body.innerHTML = '';
  if (m) {
    $('battle-title').textContent = 'Odds of this attack';
    body.innerHTML = table([['', 'attack', 'defence']].concat(breakdown(m.attacker_values, m.defender, m.defender_bp, m.defence_total, m.defender_why))
      .concat([['total before cards', m.attack_total, m.defence_total]])) +
      `<p class="note">Then each side adds its secret battle cards. The attacker wins only with more; more than double: the defender is reduced and retreats.</p>`;
    return;
  }
  if (b) {
    $('battle-title').textContent = `Battle in progress: ${b.attacker} attack ${b.defender} on ${b.defender_square}${b.kind === 'charge' ? ' (charge)' : ''}`;
    const rows = [['', 'attack', 'defence']].concat(breakdown(b.attacker_values, b.defender, b.defender_bp, b.base_defence, b.defender_why));
    rows.push(['total before cards', b.base_attack, b.base_defence]);
    if (b.seen_attack !== undefined) rows.push(['with your committed cards', b.seen_attack, b.seen_defence]);
    if (b.total_attack !== undefined) rows.push(['total after the reveal', b.total_attack, b.total_defence]);
    body.innerHTML = table(rows) + (b.opponent_cards_committed ? `<p class="note">The computer has committed ${b.opponent_cards_committed} secret card(s).</p>` : '');
  }
  if (lb) {
    const cards = (cs) => cs.length ? cs.map((c) => `${c.card} "${c.name}" ${c.purpose === 'points' ? '+' + c.bp : c.purpose === 'command' ? 'command +' + c.command_attack + '/+' + c.command_defence : 'elite'}`).join('<br>') : 'none';
    const div = h('div', { id: 'last-battle' });
    div.innerHTML = `<h3 style="font-size:13px;margin:6px 0 2px">Last battle: ${lb.attacker} ${lb.kind === 'charge' ? 'charge' : 'attack'} ${lb.defender} on ${lb.defender_square}</h3>` +
      table([['', `attack (${lb.attacker})`, `defence (${lb.attacker === 'French' ? 'Allied' : 'French'})`]]
        .concat(breakdown(lb.attacker_values, lb.defender, lb.defender_bp, lb.base_defence, lb.defender_why)).concat([
        ['total before cards', lb.base_attack, lb.base_defence],
        ['cards revealed', cards(lb.attack_cards), cards(lb.defence_cards)],
        ['final total', lb.total_attack, lb.total_defence]])) +
      `<div class="outcome" data-outcome="${lb.outcome}">${lb.outcome}</div>`;
    body.appendChild(div);
    if (!b) $('battle-title').textContent = 'Battle';
  }
}
const signed = (n) => (n >= 0 ? '+' + n : '' + n);
/* one row per unit: printed BP and what it counts for before cards (terrain, edges, flank or
 * rear, charge, leaders, castle) */
function breakdown(values, defender, defBP, defTotal, defWhy) {
  const why = (w) => (w ? ` <span class="why">(${w.replace(/x(\d)/g, '\u00d7$1').replace(/-(\d)/g, '\u2212$1')})</span>` : '');
  const rows = (values || []).map((v) => [v.unit, `BP ${v.bp}${v.value !== v.bp ? ' \u2192 ' + v.value : ''}${why(v.why)}`, '']);
  rows.push([defender, '', `BP ${defBP}${defTotal !== defBP ? ' \u2192 ' + defTotal : ''}${why(defWhy)}`]);
  return rows;
}
function table(rows) {
  return '<table>' + rows.map((r, i) => '<tr>' + r.map((c, j) => (i === 0 ? `<th>${c}</th>` : `<td class="${j ? 'n' : ''}">${c}</td>`)).join('') + '</tr>').join('') + '</table>';
}

/* a log line in words: the engine's notation made into a sentence */
function sentence(text) {
  const card = (id) => { const c = scen.cardIndex[id]; return c ? `${id} "${c.name}"` : id; };
  const F = { N: 'north', E: 'east', S: 'south', W: 'west' };
  let m;
  if ((m = /^play (\S+) move$/.exec(text))) return `plays ${card(m[1])} for movement`;
  if ((m = /^play (\S+) fire (\S+)$/.exec(text))) return `plays ${card(m[1])}: artillery of ${m[2]} fires`;
  if ((m = /^play (\S+) charge (\S+) (\d)$/.exec(text))) return `plays ${card(m[1])}: ${m[2]} charges ${m[3]} square${m[3] > 1 ? 's' : ''}`;
  if ((m = /^play (\S+) force (\S+) (\d)$/.exec(text))) return `plays ${card(m[1])}: forces ${m[2]} to charge`;
  if ((m = /^play (\S+) rally (\S+)$/.exec(text))) return `plays ${card(m[1])}: rallies ${m[2]}`;
  if ((m = /^play (\S+) restore (\S+)$/.exec(text))) return `plays ${card(m[1])}: restores ${m[2]}`;
  if ((m = /^play (\S+) health$/.exec(text))) return `plays ${card(m[1])}: Napoleon's health`;
  if ((m = /^move (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} moves to ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^turn (\S+) ([NESW])$/.exec(text))) return `${m[1]} turns to face ${F[m[2]]}`;
  if ((m = /^leader (\S+)$/.exec(text))) return `the leader moves to ${m[1]}`;
  if ((m = /^enter (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} enters the map at ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^attack (\S+) from (\S+)$/.exec(text))) return `attacks ${m[1]} from ${m[2].split(',').join(', ')}`;
  if ((m = /^battle (\S+)( command| elite)?$/.exec(text)) && m[1] !== 'done') return `commits ${card(m[1])} to the battle${m[2] ? ' (' + m[2].trim() + ')' : ''}`;
  if ((m = /^retreat (\S+) ([NESW])$/.exec(text))) return `retreats to ${m[1]}, facing ${F[m[2]]}`;
  if ((m = /^advance (\S+) ([NESW])$/.exec(text))) return `the unit on ${m[1]} advances, facing ${F[m[2]]}`;
  if ((m = /^evade (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} evades to ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^lose (\S+)$/.exec(text))) return `the attacker on ${m[1]} is reduced`;
  if ((m = /^place (\S+)$/.exec(text))) return `the leader is placed on ${m[1]}`;
  if ((m = /^bid (\S+)$/.exec(text))) return m[1] === 'none' ? 'bids no card' : `bids ${card(m[1])}`;
  if ((m = /^rally (\S+)$/.exec(text)) && m[1] !== 'done') return `rallies ${m[1]} too`;
  const W = { pass: 'passes', end: 'ends the round', done: 'ends the movement', noattack: 'does not attack', 'battle done': 'commits no more cards',
    '(a secret choice)': 'makes a secret choice (revealed later)', nofire: 'does not fire', reduce: 'takes the loss as a reduction', castle: 'spends a castle point', noevade: 'does not evade', 'rally done': 'rallies one unit only' };
  return W[text] || text;
}

function renderLog() {
  const ol = $('log');
  const atBottom = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
  ol.innerHTML = '';
  log.forEach((e, i) => {
    if (!e) return;
    const li = h('li', { class: e.by === 'computer' ? 'computer' : 'human', value: i + 1 });
    li.appendChild(h('span', { title: e.action }, `t${e.turn} ${e.side}${e.by === 'computer' ? ' (computer)' : ''} ${sentence(e.action)}.`));
    if (e.events) li.appendChild(h('span', { class: 'ev' }, e.events));
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
    return;
  }
  p.hidden = false;
  ol.innerHTML = '';
  $('hint-level').textContent = `(${hint.level})`;
  hint.candidates.forEach((c, i) => {
    const li = h('li', { 'data-notation': c.notation, title: 'click to play it' }, `${label(c)} \u2014 win ${(100 * c.winrate).toFixed(0)}%, ${(100 * c.share).toFixed(0)}% of the search`);
    li.addEventListener('click', () => act(c));
    ol.appendChild(li);
    const cls = 'arrow' + (i ? ' alt' : '');
    if (c.kind === 'declare') for (const q of c.attacker_squares) arrow(q, c.defender_square, cls);
    else if (c.square && c.to && c.square !== c.to && /^[A-R]\d+$/.test(c.square)) arrow(c.square, c.to, cls);
    else if (c.to) arrow(c.to, c.to, cls);
    else if (c.square && /^[A-R]\d+$/.test(c.square)) arrow(c.square, c.square, cls);
  });
}
function arrow(a, b, cls) {
  const [x1, y1] = center(a), [x2, y2] = center(b);
  if (a === b) { el('circle', { cx: x1, cy: y1, r: S / 2 - 3, class: cls }, $('arrows')); return; }
  el('line', { x1, y1, x2: x2 - (x2 - x1) * 0.15, y2: y2 - (y2 - y1) * 0.15, class: cls }, $('arrows'));
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

function chooseFacing(q) {
  const u = sel.unit;
  const f = Object.entries(q.facings);
  if (f.length === 1) return moveTo(u, q.sq, f[0][0]);
  pickFrom(f.map(([d, cost]) => ({ label: `${ARROWS[d]} ${d} (${cost} MP)`, facing: d })), `${u} to ${q.sq}: facing`, (c) => moveTo(u, q.sq, c.facing));
}
function pickFrom(list, title, fn) {
  const d = $('facing-dialog'), box = $('facing-choices');
  $('facing-title').textContent = title;
  box.innerHTML = '';
  for (const it of list) {
    const b = h('button', it.facing ? { 'data-facing': it.facing, type: 'button' } : { 'data-notation': it.notation, type: 'button' }, it.label || label(it));
    b.addEventListener('click', () => { d.close(); fn ? fn(it) : act(it); });
    box.appendChild(b);
  }
  d.showModal();
}

async function clickUnit(name) {
  if (!view || !view.your_turn || busy) return;
  const phase = view.observation.phase;
  if (phase === 'move' && moverSet().has(name)) {
    if (sel.unit === name) { sel = {}; render(); return; }
    try {
      const r = await api('GET', `games/${game}/reach?unit=${encodeURIComponent(name)}`);
      sel = { unit: name, reach: r };
      render();
    } catch (e) { toast(e.message); }
    return;
  }
  if (phase === 'declare') {
    const declares = actionsOf('declare');
    if (declares.some((a) => a.defender === name) && (!sel.defender || sel.attackers.size === 0 || sel.defender === name)) {
      sel = sel.defender === name ? {} : { defender: name, attackers: new Set() };
      /* one possible set of attackers: select it */
      const ds = declares.filter((a) => a.defender === name);
      const all = new Set(); ds.forEach((a) => a.attackers.forEach((x) => all.add(x)));
      if (sel.defender && all.size === 1) sel.attackers = all;
      render();
      return;
    }
    if (sel.defender) {
      const ok = declares.some((a) => a.defender === sel.defender && a.attackers.includes(name));
      if (ok) {
        if (sel.attackers.has(name)) sel.attackers.delete(name); else sel.attackers.add(name);
        render();
      }
      return;
    }
  }
  /* a unit named by a card action or a loss choice */
  const acts = legal().filter((a) => a.unit === name && !['step', 'turn', 'enter'].includes(a.kind));
  if (acts.length === 1) act(acts[0]);
  else if (acts.length > 1) pickFrom(acts, name);
}
function matchingDeclare() {
  if (!sel.defender || !sel.attackers || !sel.attackers.size) return null;
  return actionsOf('declare').find((a) => a.defender === sel.defender && a.attackers.length === sel.attackers.size && a.attackers.every((x) => sel.attackers.has(x))) || null;
}
function clickLeader(name) {
  const acts = actionsOf('leader');
  if (!acts.length || acts[0].leader !== name) return;
  sel = sel.leader ? {} : { leader: name };
  render();
}
function clickSquare(sq) {
  if (!view || !view.your_turn) return;
  const obs = view.observation;
  const u = obs.units.find((x) => x.square === sq);
  if (u) return clickUnit(u.name);
  if (sel.unit || sel.leader || sel.card) { sel = {}; render(); }
}

/* ---------------------------------------------------------------- server round trips */
function mergeView(v) {
  view = v;
  if (v.log_size < log.length) log.length = v.log_size;
  for (const e of log) if (e) e.fresh = false;
  let computer = false;
  for (const e of v.log) { log[e.n] = e; e.fresh = true; computer = computer || e.by === 'computer'; }
  log.length = v.log_size;
  /* the computer's moves: units that changed since the human's last decision */
  if (!baseUnits) baseUnits = new Map(v.observation.units.map((u) => [u.name, u]));
  if (computer) {
    changed = new Map();
    for (const u of v.observation.units) {
      const o = baseUnits.get(u.name);
      if (o && (o.square !== u.square || o.facing !== u.facing || o.bp !== u.bp || o.disordered !== u.disordered)) changed.set(u.name, o.square);
    }
  }
}
/* the human decides: what the computer does next is compared with this board */
function humanActs() {
  lastHumanLog = log.length;
  baseUnits = view ? new Map(view.observation.units.map((u) => [u.name, u])) : null;
  changed = new Map();
}
async function act(a) {
  if (busy) return;
  busy = true;
  hint = null;
  try {
    const v = await api('POST', `games/${game}/play`, { action: a.notation, at: view.actions });
    sel = {};
    mergeView(v);
    humanActs();
    render();
    if (v.thinking) poll();
  } catch (e) { toast(e.message); await refresh(); }
  busy = false;
}
async function moveTo(unit, to, facing) {
  if (busy) return;
  busy = true;
  try {
    const v = await api('POST', `games/${game}/play`, { move: { unit, to, facing }, at: view.actions });
    sel = {};
    mergeView(v);
    humanActs();
    render();
    if (v.thinking) poll();
  } catch (e) { toast(e.message); }
  busy = false;
}
async function refresh() {
  const v = await api('GET', `games/${game}?since=${log.length}`);
  mergeView(v);
  render();
  return v;
}
async function poll() {
  if (polling) return;
  polling = true;
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const v = await refresh();
      if (!v.thinking) break;
    }
  } catch (e) { toast(e.message); }
  polling = false;
}
async function openGame(v) {
  game = v.id;
  location.hash = game;
  scen = await api('GET', `games/${game}/scenario`);
  scen.unitIndex = {}; scen.units.forEach((u) => { scen.unitIndex[u.name] = u; });
  scen.cardIndex = {}; scen.cards.forEach((c) => { scen.cardIndex[c.id] = c; });
  scen.squareIndex = {}; scen.squares.forEach((q) => { scen.squareIndex[q.sq] = q; });
  view = null; log = []; sel = {}; hint = null; changed = new Map(); baseUnits = null; lastHumanLog = 0;
  drawBoard();
  mergeView(v.log_size > v.log.length ? await api('GET', `games/${game}?since=0`) : v);
  if (v.log_size > 0) lastHumanLog = log.length;    /* a loaded game: no news yet */
  render();
  if (view.thinking) poll();
}

/* ---------------------------------------------------------------- buttons */
$('new-btn').addEventListener('click', () => $('new-dialog').showModal());
$('new-form').addEventListener('submit', async (ev) => {
  const f = new FormData(ev.target);
  if (ev.submitter && ev.submitter.value === 'cancel') return;
  const body = { side: f.get('side'), level: f.get('level'), scenario: f.get('scenario'), variants: f.get('variants') || 'base' };
  if (f.get('seed')) body.seed = Number(f.get('seed'));
  try { await openGame(await api('POST', 'games', body)); } catch (e) { toast(e.message); }
});
$('undo-btn').addEventListener('click', async () => {
  try { const v = await api('POST', `games/${game}/undo`); log = []; sel = {}; hint = null; mergeView(v); humanActs(); render(); } catch (e) { toast(e.message); }
});
$('hint-btn').addEventListener('click', async () => {
  $('hint-btn').disabled = true;
  $('hint-btn').textContent = 'Thinking\u2026';
  try { hint = await api('POST', `games/${game}/hint`, {}); render(); } catch (e) { toast(e.message); }
  $('hint-btn').textContent = 'Hint';
  $('hint-btn').disabled = !view || !view.your_turn;
});
$('save-btn').addEventListener('click', () => { if (game) $('save-dialog').showModal(); });
$('save-ok').addEventListener('click', async (ev) => {
  const name = $('save-name').value.trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) { ev.preventDefault(); toast('name: letters, digits, - and _'); return; }
  try { await api('POST', `games/${game}/save`, { name }); toast(`saved as ${name}`); $('toast').style.background = '#1a7f37'; setTimeout(() => { $('toast').style.background = ''; }, 4000); } catch (e) { toast(e.message); }
});
$('load-btn').addEventListener('click', async () => {
  try {
    const r = await api('GET', 'saves');
    const box = $('load-list');
    box.innerHTML = '';
    if (!r.saves.length) box.appendChild(h('span', { class: 'note' }, 'no saved games yet'));
    $('load-side').value = view ? view.human.toLowerCase() : 'french';
    for (const n of r.saves.sort()) {
      const b = h('button', { type: 'button', 'data-save': n }, n);
      b.addEventListener('click', async () => {
        $('load-dialog').close();
        try { await openGame(await api('POST', 'load', { name: n, side: $('load-side').value, level: view ? view.level : 'normal' })); toast(`loaded ${n}`); } catch (e) { toast(e.message); }
      });
      box.appendChild(b);
    }
    $('load-dialog').showModal();
  } catch (e) { toast(e.message); }
});
$('log-save').addEventListener('click', () => {
  const text = log.filter(Boolean).map((e, i) => `${i + 1}. turn ${e.turn}: ${e.side}${e.by === 'computer' ? ' (computer)' : ''} ${sentence(e.action)}.${e.events ? '\n     ' + e.events + '.' : ''}`).join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text + '\n'], { type: 'text/plain' }));
  a.download = `waterloo-${game || 'log'}.txt`;
  a.click();
});
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && (sel.unit || sel.defender || sel.leader || sel.card)) { sel = {}; render(); } });

(async () => {
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{16}$/.test(id)) {
    try { await openGame(await api('GET', `games/${id}?since=0`)); return; } catch (e) { /* a new game then */ }
  }
  $('new-dialog').showModal();
})();
