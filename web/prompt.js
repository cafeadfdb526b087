/* The status bar, the result and the prompt with its action buttons; render() draws
 * everything */
'use strict';

/* ---------------------------------------------------------------- rendering */
function render() {
  if (!view || !scen) return;
  const obs = view.observation;
  $('st-turn').textContent = `turn ${obs.turn}/${obs.turns}`;
  $('st-round').textContent = `${obs.active} round \u00b7 ${obs.cards_this_round}/${obs.round_limit} cards` + (obs.card ? ` \u00b7 ${obs.card}` : '');
  $('st-phase').textContent = obs.over ? 'game over' : view.your_turn ? `you: ${obs.phase}` : `computer: ${obs.phase}\u2026`;
  $('st-phase').title = obs.over ? 'the game is over' : view.your_turn ? `your decision: ${obs.phase}` : `the computer is deciding (${obs.phase})`;
  $('st-mp').textContent = `MP ${obs.mp}`;
  $('st-mp').hidden = obs.phase !== 'move';
  $('st-mp').className = obs.phase === 'move' ? 'live' : '';
  const sc = obs.score;
  const lost = `lost F ${sc.units_lost_french} / A ${sc.units_lost_allied}`;
  const held = obs.victory_squares.filter((v) => v.holder === 'French').length;
  $('st-score').textContent = (sc.vp_french !== undefined ? `VP F ${sc.vp_french} \u2013 A ${sc.vp_allied}` :
    `French: castles ${sc.castles_french}/3, objectives ${held}/${obs.victory_squares.length}${sc.french_would_win ? ' (winning)' : ''}`) + ' \u00b7 ' + lost;
  $('st-score').title = `${$('st-score').textContent}: units lost by the French / by the Allies (R-12)`;
  $('undo-btn').disabled = !view.can_undo || !view.your_turn;
  $('hint-btn').disabled = !view.your_turn;
  $('save-btn').disabled = false;
  $('tooltip').hidden = true;     /* a tooltip drawn for a piece that may have moved */
  const res = $('result');
  if (obs.over) {
    const won = (obs.result === 'French win' && view.human === 'French') || (obs.result === 'Allied win' && view.human === 'Allied');
    res.hidden = false;
    res.className = obs.result === 'draw' ? 'draw' : won ? 'won' : 'lost';
    res.textContent = `${obs.result}: ${obs.result === 'draw' ? 'a draw' : won ? 'you won' : 'you lost'}`;
    res.setAttribute('data-result', obs.result);
    res.dataset.shown = '1';
  } else { res.hidden = true; delete res.dataset.shown; }
  drawPieces();
  drawHighlights();
  renderPrompt();
  renderHand();
  renderBattle();
  renderLog();
  renderHint();
  renderSummary();
  fitBoard();
  renderReplay();     /* replay.js: the replay's panel and marks, the Review button */
}

/* while the computer thinks: how long so far, against its longest decision of this game */
function renderThink() {
  const box = $('think');
  if (!view || view.your_turn || view.observation.over || !view.thinking) { box.hidden = true; return; }
  const t = view.think || { seconds: 0, longest: 0, cap: 0 };
  const cap = t.cap > 0 ? t.cap : Math.max(t.longest, 2);
  box.hidden = false;
  $('think-bar').max = cap;
  $('think-bar').value = Math.min(t.seconds, cap);
  $('think-text').textContent = `${t.seconds.toFixed(1)} s` + (t.cap > 0 ? ` of at most ${t.cap.toFixed(0)} s` : '') +
    (t.longest >= 1 ? ` (its longest this game: ${t.longest.toFixed(1)} s)` : '') +
    ` \u00b7 level ${view.level}`;
}

function renderPrompt() {
  const obs = view.observation, box = $('actions');
  box.innerHTML = '';
  $('prompt').className = 'panel' + (view.your_turn ? '' : ' waiting');
  renderThink();
  if (obs.over) {
    $('prompt-title').textContent = 'Game over';
    $('prompt-text').textContent = obs.description;
    return;
  }
  if (!view.your_turn) {
    $('prompt-title').textContent = 'The computer is thinking\u2026';
    $('prompt-text').textContent = `${obs.decider} to decide (${obs.phase}). Its moves are highlighted on the board when it is done.`;
    $('news').hidden = true;
    return;
  }
  const [title, text] = PROMPTS[obs.phase] || ['Your decision', 'Choose one of the legal actions.'];
  $('prompt-title').textContent = title;
  let extra = '';
  if (obs.phase === 'move') extra = ` ${obs.mp} MP left on ${obs.card || 'the card'}.`;
  if (sel.defender) extra = ` Defender ${sel.defender}; attackers: ${[...sel.attackers].join(', ') || 'click your units'}.`;
  const b = obs.battle;   /* the totals so far, the battle panel being below the hand now */
  if (choosingCards() && b) {
    const att = b.seen_attack !== undefined ? b.seen_attack : b.base_attack, def = b.seen_defence !== undefined ? b.seen_defence : b.base_defence;
    const secret = b.opponent_cards_committed || 0;
    extra = ` So far: attack ${att}, defence ${def} with your cards${secret ? `; the other side has committed ${secret} secret card${secret === 1 ? '' : 's'}` : ''}.`;
  }
  $('prompt-text').textContent = text + extra;
  /* what happened since the human last decided: bids and cards revealed, battles, losses */
  const since = log.filter((e) => e && e.n >= lastHumanLog);
  const news = since.filter((e) => e.by === 'computer');
  const nb = $('news');
  nb.innerHTML = '';
  const quiet = new Set(['done', 'nofire', 'noevade', 'noattack', 'battle_done']);
  const moves = news.filter((e) => !(e.act && quiet.has(e.act.kind))).map((e) => told(e.act));
  const events = since.filter((e) => e.events);   /* a bid or battle revealed by the human's own last action too */
  nb.hidden = !moves.length && !events.length;
  if (moves.length) {
    nb.appendChild(h('b', {}, 'The computer: '));
    nb.appendChild(h('span', {}, moves.slice(0, 6).join('; ') + (moves.length > 6 ? `; \u2026 (${moves.length - 6} more in the log)` : '') + '.'));
  }
  for (const e of events) nb.appendChild(h('div', { class: 'ev' }, e.events + '.'));
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
