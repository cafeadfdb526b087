/* The hand: the human's cards and committed cards.  A click on a card never plays it: it opens
 * the card's whole text and what each of its uses would do now (a battle card's value by the
 * battle's own arithmetic, from the server), or why it cannot be played; Confirm plays the
 * use picked. */
'use strict';

function cardOptions() {
  const byCard = {};
  for (const a of legal()) if (a.card) (byCard[a.card] = byCard[a.card] || []).push(a);
  return byCard;
}

/* why a card of the hand has no legal use now, with the rule */
function whyNot(id, byCard) {
  const obs = view.observation, c = cardDef(id), ph = obs.phase;
  if (obs.over) return 'the game is over';
  if (!view.your_turn) return 'the computer is deciding';
  const playable = Object.keys(byCard);
  if (ph === 'attack-cards' || ph === 'defence-cards') {
    const b = obs.battle;
    const later = obs.committed.map((x) => x.card).filter((x) => scen.cards.findIndex((d) => d.id === x) > scen.cards.findIndex((d) => d.id === id));
    if (later.length) return `R-7.2: battle cards are committed in increasing card order, and ${later.join(', ')} is already committed`;
    if (b && b.kind === 'charge' && c.action !== 'elite') return 'R-9.3 (ruling): only elite cards may be played in a cavalry charge battle';
    if (playable.length && playable.every((x) => cardDef(x).army !== c.army)) return `R-5.5: in this battle only ${cardDef(playable[0]).army} cards (the army that is fighting)`;
    return 'no use in this battle';
  }
  if (ph === 'round') {
    if (playable.length && playable.every((x) => cardDef(x).army !== c.army))
      return `R-4.3, R-5.6: this round's cards must all be ${cardDef(playable[0]).army}`;
    return 'no legal use this round';
  }
  if (ph === 'fire' || ph === 'reaction') return c.action === 'artillery' ? 'R-9.1: no target in front of a unit that may fire' : 'only artillery cards now (R-9.1)';
  return `cards are not played now (${ph})`;
}

/* what a use of a card does, for the detail's option buttons */
function useLabel(a) {
  if (a.kind === 'battle_card') {
    const side = view.observation.battle && view.observation.battle.attacker === view.human ? 'attack' : 'defence';
    const what = a.purpose === 'points' ? 'for its BP' : a.purpose === 'command' ? 'as command' : 'as elite bonus';
    const why = a.adds === 0 && a.purpose === 'command' ? ' (no unit of yours in the battle is next to your leader)' :
      a.adds === 0 && a.purpose === 'elite' ? ' (no elite unit of yours in the battle)' : '';
    return a.adds === undefined ? `commit ${what}` : `commit ${what}: +${a.adds} \u2192 your ${side} ${a.total_after}${why}`;
  }
  if (a.kind === 'bid') return `bid it (MP ${cardDef(a.card).mp}: the higher bid goes first; the card is spent)`;
  return label(a).replace(/^[A-Z]\d\d "[^"]*":? ?/, '').replace(/^Play for/, 'for') || label(a);
}

function cardDiv(it, opts) {
  const c = cardDef(it.id);
  const hinted = hint && view.your_turn && hint.candidates.length && hint.candidates[0].card === it.id;
  const idle = view.your_turn && !opts.length && !it.committed;
  const cls = `card ${armyClass(c.army)}${hinted ? ' hinted' : ''}${opts.length ? ' playable' : ''}${idle ? ' idle' : ''}` +
    `${it.committed ? ' committed' : ''}${sel.card === it.id ? ' selected' : ''}`;
  const div = h('div', { class: cls, 'data-card': it.id, title: c.text + (idle ? '\nNot now: ' + it.why : '') });
  div.appendChild(h('div', { class: 'id' }, c.id));
  div.appendChild(h('div', { class: 'nm' }, c.name));
  const vals = h('div', { class: 'vals' });
  vals.appendChild(h('span', {}, `MP ${c.mp}`));
  vals.appendChild(h('span', {}, `BP ${c.bp}`));
  div.appendChild(vals);
  if (c.action !== '-') div.appendChild(h('div', { class: 'act' }, c.action + (c.action === 'command' ? ` +${c.command_attack}/+${c.command_defence}` : '')));
  if (it.committed) div.appendChild(h('div', { class: 'act' }, `committed (${it.purpose})`));
  div.addEventListener('click', () => {
    sel = sel.card === it.id ? {} : { card: it.id, pick: opts.length === 1 ? 0 : -1 };
    render();
  });
  return div;
}

function renderCardDetail(byCard, whys) {
  const box = $('card-detail');
  box.innerHTML = '';
  const id = sel.card;
  if (!id || !cardDef(id)) { box.hidden = true; delete box.dataset.card; return; }
  box.hidden = false;
  /* a card just picked: its uses and Confirm scrolled into view (at 1280x720 the detail of a
   * hand of three rows opens below the screen's edge) */
  if (box.dataset.card !== id) requestAnimationFrame(() => box.scrollIntoView({ block: 'nearest' }));
  box.dataset.card = id;
  const c = cardDef(id), opts = byCard[id] || [];
  box.appendChild(h('h3', {}, `${c.id} "${c.name}" \u00b7 ${c.army}`));
  box.appendChild(rulesText(c.text));
  if (!opts.length) {
    if (whys[id]) box.appendChild(h('p', { class: 'why-not' }, 'Not now: ' + whys[id]));
    return;
  }
  const list = h('div', { class: 'opts' });
  opts.forEach((a, i) => {
    const b = h('button', { type: 'button', class: 'opt' + (sel.pick === i ? ' picked' : ''), 'data-notation': a.notation, 'data-adds': a.adds === undefined ? '' : a.adds }, useLabel(a));
    b.addEventListener('click', () => { sel.pick = i; render(); });
    list.appendChild(b);
  });
  box.appendChild(list);
  const menu = h('div', { class: 'confirm' });
  const ok = h('button', { type: 'button', id: 'card-confirm', class: 'primary' }, sel.pick >= 0 ? `Confirm: ${label(opts[sel.pick])}` : 'Pick a use above, then confirm');
  ok.disabled = !(sel.pick >= 0);
  ok.addEventListener('click', () => { if (sel.pick >= 0) act(opts[sel.pick]); });
  const no = h('button', { type: 'button', id: 'card-cancel' }, 'Cancel');
  no.addEventListener('click', () => { sel = {}; render(); });
  menu.appendChild(ok);
  menu.appendChild(no);
  box.appendChild(menu);
}

function renderHand() {
  const obs = view.observation, hand = $('hand');
  hand.innerHTML = '';
  $('opp-cards').textContent = `\u00b7 the computer holds ${obs.opponent.hand} card${obs.opponent.hand === 1 ? '' : 's'}` +
    (obs.opponent.committed ? `, ${obs.opponent.committed} committed in secret` : '');
  const byCard = cardOptions(), whys = {};
  let mine = obs.hand;
  /* battle cards to commit: those that may be played first (the others of the army not fighting,
   * or not elite in a charge, after them), so they are the rows in view (battle.js, choosingCards) */
  if (choosingCards()) mine = mine.filter((id) => byCard[id]).concat(mine.filter((id) => !byCard[id]));
  const cards = mine.map((id) => ({ id, committed: false })).concat(obs.committed.map((c) => ({ id: c.card, committed: true, purpose: c.purpose })));
  if (sel.card && !cards.some((it) => it.id === sel.card)) sel = {};
  for (const it of cards) {
    const opts = byCard[it.id] || [];
    if (!opts.length && !it.committed) it.why = whys[it.id] = whyNot(it.id, byCard);
    hand.appendChild(cardDiv(it, opts));
  }
  if (!cards.length) hand.appendChild(h('span', { class: 'note' }, 'no cards'));
  renderCardDetail(byCard, whys);
}
