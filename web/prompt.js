/* The status bar, the result and the prompt with its action buttons; render() draws
 * everything */
'use strict';

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
