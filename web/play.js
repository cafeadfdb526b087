/* Clicks on the board, choices in a dialog, and the server round trips that play them */
'use strict';

function chooseFacing(q) {
  const u = sel.unit;
  let f = Object.entries(q.facings);
  /* infantry in a castle faces every side: no facing to ask, the cheapest */
  if (unitDef(u).kind === 'infantry' && scen.squareIndex[q.sq].terrain === 'castle')
    f = [f.reduce((b, x) => (x[1] < b[1] ? x : b))];
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
  if (v.id && game && v.id !== game) return false;   /* an answer about the previous game */
  /* the server could not keep the game (its saves folder full or not writable): say so once */
  if (v.kept === false && (!view || view.kept !== false))
    toast('this game is not being kept: the server cannot write its saves folder (a restart would lose it)');
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
  return true;
}
/* the human decides: what the computer does next is compared with this board */
function humanActs() {
  lastHumanLog = log.length;
  baseUnits = view ? new Map(view.observation.units.map((u) => [u.name, u])) : null;
  changed = new Map();
}
/* the human plays a legal action: sent as its index in the view's legal list with the view's
 * action count (a hint's candidate is found in that list by kind and fields) */
const ACTION_KEYS = ['kind', 'card', 'purpose', 'unit', 'square', 'to', 'facing', 'squares', 'leader', 'defender_square'];
function sameAction(a, b) {
  return ACTION_KEYS.every((k) => a[k] === b[k]) && String(a.attacker_squares || '') === String(b.attacker_squares || '');
}
function legalIndex(a) {
  const i = view.legal.indexOf(a);
  return i >= 0 ? i : view.legal.findIndex((b) => sameAction(a, b));
}
async function act(a) {
  if (busy) return;
  const index = legalIndex(a);
  if (index < 0) { toast('that choice is no longer open'); return; }
  busy = true;
  hint = null;
  try {
    const v = await api('POST', `games/${game}/play`, { index, at: view.actions });
    const from = log.length;
    sel = {};
    mergeView(v);
    humanActs();
    lastHumanLog = from;     /* the news: what the human's action revealed, then the computer's */
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
  if (mergeView(v)) render();
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
  replay = null;        /* replay.js: leaving a replay */
  game = v.id;
  location.hash = seatsHash(game);
  scen = await api('GET', `games/${game}/scenario`);
  scen.unitIndex = {}; scen.units.forEach((u) => { scen.unitIndex[u.name] = u; });
  scen.cardIndex = {}; scen.cards.forEach((c) => { scen.cardIndex[c.id] = c; });
  scen.squareIndex = {}; scen.squares.forEach((q) => { scen.squareIndex[q.sq] = q; });
  view = null; log = []; sel = {}; hint = null; changed = new Map(); baseUnits = null; lastHumanLog = 0;
  summary = null;
  drawBoard();
  mergeView(v.log_size > v.log.length ? await api('GET', `games/${game}?since=0`) : v);
  lastHumanLog = log.length;    /* a new or loaded game: no news yet */
  render();
  if (view.thinking) poll();
}
async function resumeGame(id) {
  const v = await api('POST', 'resume', { id });
  await openGame(v);
}
