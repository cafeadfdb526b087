/* Replay and review (issue 23): step through a saved game (or a game of a sim run, played again
 * by the server) forward and back, with its log, the battles revealed and, when the game was
 * reviewed, the review's marks in the log and its better choice as an arrow.  The server sends
 * each step as a view (GET /api/replay): a finished game whole, an unfinished one only as the
 * chosen seat saw it.  The Review button starts `waterloo review` on the server and polls it. */
'use strict';

let replay = null;      /* {name, seat (asked), step, actions, over, side (shown), review} */

async function replayScenario(name) {
  scen = await api('GET', `replay?name=${encodeURIComponent(name)}&step=0&scenario=1`).then((v) => v.scenario);
  scen.unitIndex = {}; scen.units.forEach((u) => { scen.unitIndex[u.name] = u; });
  scen.cardIndex = {}; scen.cards.forEach((c) => { scen.cardIndex[c.id] = c; });
  scen.squareIndex = {}; scen.squares.forEach((q) => { scen.squareIndex[q.sq] = q; });
  drawBoard();
}

async function openReplay(name, side) {
  try {
    game = null;
    location.hash = 'replay=' + name;
    await replayScenario(name);
    replay = { name, seat: side || '', step: 0, actions: 0, review: null };
    log = [];
    const v = await fetchStep(name, 0);
    await showStep(0, v);
  } catch (e) { replay = null; toast(e.message); }
}

/* the log entries the page has are the same at every step: only the new ones are asked for */
function fetchStep(name, k) {
  const side = replay && replay.seat ? `&side=${replay.seat}` : '';
  const since = Math.min(k, log.length);
  return api('GET', `replay?name=${encodeURIComponent(name)}&step=${k}&since=${since}${side}`).then((v) => {
    v.log = log.slice(0, since).concat(v.log);
    return v;
  });
}

/* the position after the first k actions */
async function showStep(k, have) {
  if (!replay) return;
  k = Math.max(0, Math.min(k, replay.actions || k));
  const v = have && have.replay.step === k ? have : await fetchStep(replay.name, k);
  Object.assign(replay, v.replay);
  replay.review = v.review;
  view = v; log = v.log.slice(); sel = {}; hint = null; changed = new Map();
  render();             /* render ends with renderReplay */
}

const markOf = (n) => (replay && Array.isArray(replay.review) ? replay.review.find((d) => d.index === n) : null);

/* the review's marks on the log, the status line, the better choice of the next decision */
function renderReplay() {
  const p = $('replay-panel');
  p.hidden = !replay;
  $('review-btn').hidden = !(replay ? replay.over : game && view && view.observation.over);
  if (!replay) return;
  const obs = view.observation;
  $('st-phase').textContent = `replay: ${obs.phase}`;
  $('prompt').classList.add('waiting');
  $('prompt-title').textContent = obs.over ? 'Game over' : `Replay: the ${obs.decider} to decide`;
  $('prompt-text').textContent = obs.over ? obs.description : `${obs.phase}; step with ◀ ▶ or the arrow keys`;
  $('actions').innerHTML = '';
  $('replay-step').textContent = `action ${replay.step} of ${replay.actions}` + (replay.over ? '' : ` (as the ${replay.side} saw it)`);
  $('replay-range').max = replay.actions;
  $('replay-range').value = replay.step;
  if (obs.over) { $('result').textContent = obs.result; $('result').className = 'draw'; }
  /* a log line holds the actions from its number to the next line's (steps of one unit merge) */
  const lis = [...document.querySelectorAll('#log li')];
  lis.forEach((li, i) => {
    const to = i + 1 < lis.length ? lis[i + 1].value - 1 : log.length;
    for (let n = li.value - 1; n < to; n++) {
      const d = markOf(n);
      if (!d || !d.mark) continue;
      li.classList.add('mark', 'mark-' + d.mark);
      li.appendChild(h('span', { class: 'why' }, `${d.mark}: ${(100 * d.loss).toFixed(1)} points lost by ${d.played}; better ${d.best}: ${d.why}`));
    }
  });
  const next = markOf(replay.step);
  const box = $('replay-review');
  box.innerHTML = '';
  if (next) {
    box.appendChild(h('div', { class: next.mark ? 'mark-' + next.mark : '' },
      `next: ${next.side} ${next.played}` + (next.mark ? ` \u2014 ${next.mark}, ${(100 * next.loss).toFixed(1)} \u00b1 ${(100 * next.se).toFixed(1)} points` : '') +
      `; the search: ${next.best} (${(100 * next.winrate).toFixed(0)}%)`));
    if (next.why) box.appendChild(h('div', { class: 'why' }, next.why));
    if (next.from && next.to) arrow(next.from, next.to, 'arrow');
  } else if (replay.review === null) box.appendChild(h('span', { class: 'note' }, replay.over ? 'not reviewed yet: Review' : 'a game in progress is not reviewed'));
}

/* ---------------------------------------------------------------- review */
async function startReview(name) {
  try {
    let st = await api('POST', 'review', { name });
    $('review-btn').disabled = true;
    while (st.state === 'running') {
      $('review-btn').textContent = `Reviewing ${st.done}/${st.of}\u2026`;
      await new Promise((r) => setTimeout(r, 1000));
      st = await api('GET', `review?name=${encodeURIComponent(name)}`);
    }
    if (st.state !== 'done') throw new Error('the review failed');
    if (replay && replay.name === name) await showStep(replay.step); else await openReplay(name);
  } catch (e) { toast(e.message); }
  $('review-btn').textContent = 'Review';
  $('review-btn').disabled = false;
}

/* the live game that just ended: saved under its id, then reviewed and replayed */
async function reviewLiveGame() {
  const name = 'game-' + game;
  await api('POST', `games/${game}/save`, { name });
  await openReplay(name);
  await startReview(name);
}

/* ---------------------------------------------------------------- the dialog and the buttons */
$('replay-btn').addEventListener('click', async () => {
  try {
    const r = await api('GET', 'saves');
    const box = $('replay-list');
    box.innerHTML = '';
    if (!r.saves.length) box.appendChild(h('span', { class: 'note' }, 'no saved games yet'));
    for (const n of r.saves.sort()) {
      const b = h('button', { type: 'button', 'data-replay': n }, n);
      b.addEventListener('click', () => { $('replay-dialog').close(); openReplay(n, $('replay-side').value); });
      box.appendChild(b);
    }
    $('replay-dialog').showModal();
  } catch (e) { toast(e.message); }
});
$('replay-sim').addEventListener('click', async () => {
  const body = { scenario: $('rs-scenario').value, variants: $('rs-variants').value || 'base', players: $('rs-players').value, seed: $('rs-seed').value, index: $('rs-index').value };
  $('replay-dialog').close();
  try { const r = await api('POST', 'replay/sim', body); await openReplay(r.name); } catch (e) { toast(e.message); }
});
$('review-btn').addEventListener('click', () => {
  if (replay) startReview(replay.name);
  else if (game && view && view.observation.over) reviewLiveGame().catch((e) => toast(e.message));
});
$('rp-first').addEventListener('click', () => showStep(0));
$('rp-back').addEventListener('click', () => showStep(replay.step - 1));
$('rp-next').addEventListener('click', () => showStep(replay.step + 1));
$('rp-last').addEventListener('click', () => showStep(replay.actions));
$('replay-range').addEventListener('change', (ev) => showStep(Number(ev.target.value)));
document.addEventListener('keydown', (ev) => {
  if (!replay || ev.target.tagName === 'INPUT') return;
  if (ev.key === 'ArrowRight') showStep(replay.step + 1);
  else if (ev.key === 'ArrowLeft') showStep(replay.step - 1);
});
