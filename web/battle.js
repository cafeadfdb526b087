/* The battle panel: the odds of a chosen attack, the battle in progress, the last battle */
'use strict';

/* the human commits battle cards now: the side panel puts the hand right under the prompt
 * (style.css, aside.cards-phase) and the battle panel below it, so that at 1280x720 the cards
 * to commit are in view without scrolling; the prompt says the totals so far */
const choosingCards = () => view.your_turn && !view.observation.over &&
  (view.observation.phase === 'attack-cards' || view.observation.phase === 'defence-cards');

function renderBattle() {
  const obs = view.observation, p = $('battle-panel'), body = $('battle-body');
  const b = obs.battle, lb = view.last_battle;
  const m = obs.phase === 'declare' ? matchingDeclare() : null;
  const cards = choosingCards();
  $('aside').classList.toggle('cards-phase', cards);
  if (!b && !lb && !m) { p.hidden = true; return; }
  const key = b ? `${b.defender_square}:${b.attackers.join(',')}` : m ? 'odds' : `last:${lb.log_index}`;
  if ((p.hidden || p.dataset.key !== key) && !obs.over)
    requestAnimationFrame(() => (cards ? $('hand-panel') : p).scrollIntoView({ block: 'nearest' }));
  p.dataset.key = key;
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
    $('battle-title').textContent = `Battle in progress: ${b.attacker} attack ${unitName(b.defender)} on ${b.defender_square}${b.kind === 'charge' ? ' (charge)' : ''}`;
    const rows = [['', 'attack', 'defence']].concat(breakdown(b.attacker_values, b.defender, b.defender_bp, b.base_defence, b.defender_why));
    rows.push(['total before cards', b.base_attack, b.base_defence]);
    if (b.seen_attack !== undefined) rows.push(['with your committed cards', b.seen_attack, b.seen_defence]);
    if (b.total_attack !== undefined) rows.push(['total after the reveal', b.total_attack, b.total_defence]);
    body.innerHTML = table(rows) + (b.opponent_cards_committed ? `<p class="note">The computer has committed ${b.opponent_cards_committed} secret card(s).</p>` : '');
  }
  if (lb) {
    const cards = (cs) => cs.length ? cs.map((c) => `${c.card} "${c.name}" ${c.purpose === 'points' ? '+' + c.bp : c.purpose === 'command' ? 'command +' + c.command_attack + '/+' + c.command_defence : 'elite'}`).join('<br>') : 'none';
    /* while another battle is fought the last one is folded (its title says which it was) */
    const div = h(b ? 'details' : 'div', { id: 'last-battle' });
    const title = `Last battle: ${lb.attacker} ${lb.kind === 'charge' ? 'charge' : 'attack'} ${unitName(lb.defender)} on ${lb.defender_square}`;
    div.innerHTML = (b ? `<summary>${title} · ${lb.outcome}</summary>` : `<h3>${title}</h3>`) +
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
  const rows = (values || []).map((v) => [unitName(v.unit), `BP ${v.bp}${v.value !== v.bp ? ' \u2192 ' + v.value : ''}${why(v.why)}`, '']);
  rows.push([unitName(defender), '', `BP ${defBP}${defTotal !== defBP ? ' \u2192 ' + defTotal : ''}${why(defWhy)}`]);
  return rows;
}
function table(rows) {
  return '<table>' + rows.map((r, i) => '<tr>' + r.map((c, j) => (i === 0 ? `<th>${c}</th>` : `<td class="${j ? 'n' : ''}">${c}</td>`)).join('') + '</tr>').join('') + '</table>';
}
