/* Seats (issue 22): who sits at the French, British and Prussian seats, the seat links, and
 * the hot-seat cover.  A game made with seats gives each person's seat a secret token; this page
 * holds the tokens of the seats played at this screen (kept in the address: #ID~seat.TOKEN) and
 * sends the token of the seat it shows now (X-Seat-Token), so the server answers with that
 * seat's view only.  Friends elsewhere get their seat's link.  When people of both sides share
 * this screen, the page covers everything when the decision passes to the other side and shows
 * that seat's cards only after its player says it is them. */
'use strict';

let seatTokens = {};    /* seat -> token of the seats played at this screen */
let seatHere = null;    /* the seat whose view the page shows (its token is sent) */
let seatLinks = null;   /* links for friends, shown once after a new game */
const SEATS = ['french', 'british', 'prussian'];
const SEAT_SIDE = { french: 'French', british: 'Allied', prussian: 'Allied' };
const seatTitle = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/* the token sent with every request (state.js), null without seats */
function seatToken() { return seatHere && seatTokens[seatHere] ? seatTokens[seatHere] : null; }

/* "#ID" or "#ID~french.TOKEN~prussian.TOKEN": the game id, tokens into seatTokens */
function seatsFromHash() {
  const parts = location.hash.slice(1).split('~');
  seatTokens = {};
  for (const p of parts.slice(1)) {
    const m = /^(french|british|prussian)\.([0-9a-f]{32})$/.exec(p);
    if (m) seatTokens[m[1]] = m[2];
  }
  if (!seatTokens[seatHere]) seatHere = Object.keys(seatTokens)[0] || null;
  return parts[0];
}
function seatsHash(id) {
  return id + Object.keys(seatTokens).map((s) => `~${s}.${seatTokens[s]}`).join('');
}

/* ---------------------------------------------------------------- the new-game dialog */
function seatsFormSync() {
  const on = $('seats-on').checked, long = $('new-form').elements.scenario.value === 'long';
  $('seats-rows').hidden = !on;
  $('seat-prussian-row').hidden = !long;
  for (const n of ['side', 'level']) $('new-form').elements[n].disabled = on;
}
/* the seats asked for, into the new game's body; remembers which are played here */
let seatsChoice = null;
function seatsBody(f, body) {
  seatsChoice = null;
  if (!$('seats-on').checked) return;
  const long = body.scenario === 'long';
  seatsChoice = {};
  body.seats = {};
  for (const s of SEATS) {
    if (s === 'prussian' && !long) continue;
    const who = f.get('seat-' + s);
    seatsChoice[s] = who;
    body.seats[s] = who === 'here' || who === 'link' ? 'human' : who;
  }
  const here = SEATS.find((s) => seatsChoice[s] === 'here');
  if (here) body.as = here;
}
/* a new game's answer: keep the tokens of the seats played here, show links for the others */
async function seatsAccept(v) {
  if (!v.tokens || !seatsChoice) { seatTokens = {}; seatHere = null; return v; }
  seatTokens = {};
  seatLinks = [];
  for (const s in v.tokens) {
    if (seatsChoice[s] === 'here') seatTokens[s] = v.tokens[s];
    else seatLinks.push([s, `${location.origin}${location.pathname}#${v.id}~${s}.${v.tokens[s]}`]);
  }
  seatHere = v.seat && seatTokens[v.seat] ? v.seat : Object.keys(seatTokens)[0] || null;
  if (seatLinks.length) showLinks();
  if (!seatHere) {                /* nobody plays here: only the links */
    location.hash = v.id;
    throw new Error('give each player their link');
  }
  return v;
}
function showLinks() {
  const d = $('links-dialog'), box = $('links-list');
  box.innerHTML = '';
  for (const [s, url] of seatLinks) {
    const row = h('label', { class: 'seat-link' }, `${seatTitle(s)}: `);
    const inp = h('input', { type: 'text', readonly: '', value: url, 'data-seat': s, size: 60 });
    inp.addEventListener('focus', () => inp.select());
    row.appendChild(inp);
    box.appendChild(row);
  }
  d.showModal();
}

/* ---------------------------------------------------------------- the cover and the wait */
function coverFor(seat) {
  const c = $('seat-cover');
  $('seat-cover-title').textContent = `The ${seatTitle(seat)} player's decision`;
  $('seat-cover-text').textContent = `Pass the screen to the ${seatTitle(seat)} player; the others look away.`;
  $('seat-cover-btn').textContent = `I am the ${seatTitle(seat)} player: show my cards`;
  $('seat-cover-btn').dataset.seat = seat;
  $('hand').innerHTML = '';      /* the previous player's cards leave the page */
  c.hidden = false;
  document.body.dataset.covered = seat;
}
$('seat-cover-btn').addEventListener('click', async () => {
  seatHere = $('seat-cover-btn').dataset.seat;
  $('seat-cover').hidden = true;
  delete document.body.dataset.covered;
  log = []; baseUnits = null;
  try { mergeView(await api('GET', `games/${game}?since=0`)); render(); } catch (e) { toast(e.message); }
});

/* after every render: the seat shown, the cover when the decision passes to the other side
 * played at this screen, the wait for a friend's decision */
function seatsAfterRender() {
  const bar = $('st-seat');
  if (!view || !view.seats || !seatHere) { bar.hidden = true; return; }
  bar.hidden = false;
  bar.textContent = `${seatTitle(seatHere)} seat`;
  bar.title = 'the seats: ' + Object.keys(view.seats).map((s) => `${s} ${view.seats[s]}`).join(', ');
  const d = view.deciding_seat;
  if (!d || view.observation.over) return;
  if (seatTokens[d] && d !== seatHere) {
    if (SEAT_SIDE[d] === SEAT_SIDE[seatHere]) {   /* partners see the same hand (ruling) */
      seatHere = d;
      refresh().catch((e) => toast(e.message));
    } else if ($('seat-cover').hidden) coverFor(d);
    return;
  }
  if (view.seats[d] === 'human' && !seatTokens[d]) {   /* a friend at their own screen */
    $('st-phase').textContent = `${d}: ${view.observation.phase}\u2026`;
    $('prompt-title').textContent = `Waiting for the ${seatTitle(d)} player\u2026`;
    $('prompt-text').textContent = `The ${seatTitle(d)} player decides (${view.observation.phase}) at their own screen.`;
  }
}
const renderBeforeSeats = render;
render = function () { renderBeforeSeats(); seatsAfterRender(); };  // eslint-disable-line no-global-assign

/* a friend's or the computer's decision: the page asks for news while it is not its turn */
setInterval(() => {
  if (game && view && view.seats && !view.your_turn && !polling && !busy &&
      !view.observation.over && $('seat-cover').hidden) refresh().catch(() => {});
}, 1000);

$('seats-on').addEventListener('change', seatsFormSync);
$('new-form').elements.scenario.addEventListener('change', seatsFormSync);
