/* The hand: the human's cards, committed cards, and the options of a selected card */
'use strict';

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
