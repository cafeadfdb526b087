/* Waterloo in the browser: draws the board from the scenario data, shows what the human side
 * sees (never the computer's cards: the server sends only that side's observation), and turns
 * clicks into actions of the JSON API (docs/API.md).  Plain JavaScript, no build step: the
 * page's scripts share one global scope and load in the order of index.html (this one first).
 * This file: shared state, DOM and SVG helpers, the API call and the legal actions. */
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
function toast(msg, good) {
  const t = $('toast');
  t.textContent = msg;
  t.className = good ? 'good' : '';
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
  if (typeof seatToken === 'function' && seatToken()) opt.headers['X-Seat-Token'] = seatToken();   /* seats.js */
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
/* ---------------------------------------------------------------- legal actions */
const legal = () => (view && view.your_turn ? view.legal : []);
const actionsOf = (kind) => legal().filter((a) => a.kind === kind);
function moverSet() {
  const s = new Set();
  for (const a of legal()) if (a.kind === 'step' || a.kind === 'turn' || a.kind === 'enter') s.add(a.unit);
  return s;
}
