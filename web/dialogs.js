/* The header's buttons and their dialogs: new game, undo, hint, save, load, save the log */
'use strict';

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
