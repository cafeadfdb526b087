/* The header's buttons and their dialogs: new game, undo, hint, save, load, save the log */
'use strict';

/* ---------------------------------------------------------------- buttons */
/* the variants as checkboxes with their descriptions, from the server's list */
let variantsLoaded = false;
async function loadVariants() {
  if (variantsLoaded) return;
  const box = $('variant-list');
  try {
    const r = await api('GET', 'variants');
    box.querySelectorAll('label, .note').forEach((x) => x.remove());
    for (const v of r.variants) {
      const lab = h('label', { class: 'variant', title: v.description });
      lab.appendChild(h('input', { type: 'checkbox', name: 'variant', value: v.name }));
      lab.appendChild(h('b', {}, ' ' + v.name));
      lab.appendChild(h('span', { class: 'note' }, ' \u2014 ' + v.description));
      box.appendChild(lab);
    }
    variantsLoaded = true;
  } catch (e) { box.querySelector('.note').textContent = 'variants unavailable: ' + e.message; }
}
function newGameDialog() { $('new-dialog').showModal(); loadVariants(); }
$('new-btn').addEventListener('click', newGameDialog);
$('new-form').addEventListener('submit', async (ev) => {
  const f = new FormData(ev.target);
  if (ev.submitter && ev.submitter.value === 'cancel') return;
  const vars = f.getAll('variant');
  const body = { side: f.get('side'), level: f.get('level'), scenario: f.get('scenario'), variants: vars.length ? vars.join(',') : 'base' };
  if (f.get('seed')) body.seed = Number(f.get('seed'));
  seatsBody(f, body);   /* who sits where (seats.js) */
  try { await openGame(await seatsAccept(await api('POST', 'games', body))); } catch (e) { toast(e.message); }
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
  const save = (overwrite) => api('POST', `games/${game}/save`, overwrite ? { name, overwrite } : { name });
  try {
    try { await save(false); } catch (e) {
      /* another game by that name: replaced only when the player says so */
      if (!/exists/.test(e.message) || !window.confirm(`A saved game named ${name} exists. Replace it with this game?`)) throw e;
      await save(true);
    }
    toast(`saved as ${name}`); $('toast').style.background = '#1a7f37'; setTimeout(() => { $('toast').style.background = ''; }, 4000); } catch (e) { toast(e.message); }
});
$('load-btn').addEventListener('click', async () => {
  try {
    const r = await api('GET', 'saves');
    const box = $('load-list');
    box.innerHTML = '';
    const kept = await api('GET', 'autosaves');
    const kb = $('kept-list');
    kb.innerHTML = '';
    if (!kept.games.length) kb.appendChild(h('span', { class: 'note' }, 'no kept games'));
    for (const g of kept.games) {
      const when = new Date(g.saved * 1000).toLocaleString();
      const b = h('button', { type: 'button', 'data-resume': g.id, title: `game ${g.id}, ${g.actions} actions, kept ${when}` },
        `${g.side === 'french' ? 'French' : 'Allies'} vs ${g.level}, ${g.scenario}${g.variants !== 'base' ? ' (' + g.variants + ')' : ''}, turn ${g.turn}${g.result !== 'running' ? ', ' + g.result : ''}${g.id === game ? ' (this game)' : ''}`);
      b.addEventListener('click', async () => {
        $('load-dialog').close();
        try { await resumeGame(g.id); } catch (e) { toast(e.message); }
      });
      kb.appendChild(b);
    }
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
  const text = log.filter(Boolean).map((e, i) => `${i + 1}. turn ${e.turn}: ${e.side}${e.by === 'computer' ? ' (computer)' : ''} ${told(e.act)}.${e.events ? '\n     ' + e.events + '.' : ''}`).join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text + '\n'], { type: 'text/plain' }));
  a.download = `waterloo-${game || 'log'}.txt`;
  a.click();
});
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && (sel.unit || sel.defender || sel.leader || sel.card)) { sel = {}; render(); } });
