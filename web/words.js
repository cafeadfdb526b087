/* Actions in words: a legal action as a button label, a log entry as a sentence, and the
 * prompt of each phase */
'use strict';

function label(a) {
  const c = a.card ? cardDef(a.card) : null;
  const cn = c ? `${a.card} "${c.name}"` : '';
  switch (a.kind) {
    case 'end': return a.notation === 'pass' ? 'Pass (no card this round)' : 'End the round';
    case 'play_move': return `Play ${cn} for movement (${c.mp} MP)`;
    case 'artillery': return `${cn}: artillery, ${a.unit} fires`;
    case 'charge': return `${cn}: ${a.unit} charges ${a.squares} square${a.squares > 1 ? 's' : ''}`;
    case 'force_charge': return `${cn}: force ${a.unit} to charge ${a.squares}`;
    case 'rally': return a.card ? `${cn}: rally ${a.unit}` : `Rally ${a.unit} too`;
    case 'restore': return `${cn}: restore ${a.unit} to full strength`;
    case 'health': return `${cn}: Napoleon's health (the French discard 2 cards)`;
    case 'done': return 'Done moving (end this card)';
    case 'noattack': return 'No attack';
    case 'declare': return `Attack ${a.defender} (${a.defender_square}) with ${a.attackers.join(', ')}: ${a.attack_total} vs ${a.defence_total} before cards`;
    case 'battle_card': return `Commit ${cn} (${a.purpose}${a.purpose === 'points' ? ', ' + c.bp + ' BP' : ''})`;
    case 'battle_done': return 'No more battle cards';
    case 'nofire': return 'Do not fire';
    case 'reduce': return 'Reduce the defender';
    case 'retreat': return `Retreat ${a.unit || ''} to ${a.to} facing ${a.facing}`;
    case 'castle_point': return 'Spend a castle point instead';
    case 'advance': return `Advance ${a.unit} into ${a.to} facing ${a.facing}`;
    case 'lose': return `Reduce ${a.unit} (tied attacker)`;
    case 'evade': return `Evade: ${a.unit} to ${a.to} facing ${a.facing}`;
    case 'noevade': return 'Do not evade';
    case 'place': return `Place the leader on ${a.to}`;
    case 'bid': return a.card ? `Bid ${cn} (MP ${c.mp})` : 'Bid no card';
    case 'rally_done': return 'Rally only the one unit';
    case 'leader': return `${a.leader} to ${a.to}`;
    case 'step': return `${a.unit} to ${a.to} facing ${a.facing}`;
    case 'turn': return `${a.unit} turns ${a.facing}`;
    case 'enter': return `${a.unit} enters at ${a.to} facing ${a.facing}`;
    default: return a.notation;
  }
}
const PROMPTS = {
  bid: ['Bid for the first player', 'Offer a card: the higher MP goes first this turn (the card is spent). Click a card, or bid none.'],
  round: ['Your round', 'Click a card to play it for movement or its action, or end the round.'],
  move: ['Move', 'Click a unit (yellow frame), then a green square: the number is the MP it costs. Click the unit\'s own square to turn. Done ends the card.'],
  evade: ['Cavalry evasion', 'An enemy infantry unit came next to your cavalry: evade (click a square) or stay.'],
  leader: ['Displaced leader', 'Your leader was displaced: click a highlighted square.'],
  declare: ['Battle', 'Click an enemy unit with a red frame to attack it, then your attacking units; or No attack.'],
  fire: ['Artillery before the battle', 'You may fire artillery at an attacker before the cards are revealed.'],
  'attack-cards': ['Your battle cards', 'Commit cards to the attack, one at a time (they stay secret until both sides are done).'],
  'defence-cards': ['Your battle cards', 'You are attacked: commit cards to the defence (secret until the reveal).'],
  loss: ['The defender loses', 'Reduce, retreat (click a square) or spend a castle point.'],
  advance: ['Advance after combat', 'One attacker may advance into the square the defender left.'],
  'attacker-loss': ['Tied attack', 'Choose the attacking unit that is reduced.'],
  rally: ['Rally', 'Rally a second disordered unit, or only the one.'],
  reaction: ['Artillery reaction', 'You may fire artillery at the unit that just acted.'],
};

/* a log line in words: the engine's notation made into a sentence */
function sentence(text) {
  const card = (id) => { const c = scen.cardIndex[id]; return c ? `${id} "${c.name}"` : id; };
  const F = { N: 'north', E: 'east', S: 'south', W: 'west' };
  let m;
  if ((m = /^play (\S+) move$/.exec(text))) return `plays ${card(m[1])} for movement`;
  if ((m = /^play (\S+) fire (\S+)$/.exec(text))) return `plays ${card(m[1])}: artillery of ${m[2]} fires`;
  if ((m = /^play (\S+) charge (\S+) (\d)$/.exec(text))) return `plays ${card(m[1])}: ${m[2]} charges ${m[3]} square${m[3] > 1 ? 's' : ''}`;
  if ((m = /^play (\S+) force (\S+) (\d)$/.exec(text))) return `plays ${card(m[1])}: forces ${m[2]} to charge`;
  if ((m = /^play (\S+) rally (\S+)$/.exec(text))) return `plays ${card(m[1])}: rallies ${m[2]}`;
  if ((m = /^play (\S+) restore (\S+)$/.exec(text))) return `plays ${card(m[1])}: restores ${m[2]}`;
  if ((m = /^play (\S+) health$/.exec(text))) return `plays ${card(m[1])}: Napoleon's health`;
  if ((m = /^move (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} moves to ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^turn (\S+) ([NESW])$/.exec(text))) return `${m[1]} turns to face ${F[m[2]]}`;
  if ((m = /^leader (\S+)$/.exec(text))) return `the leader moves to ${m[1]}`;
  if ((m = /^enter (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} enters the map at ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^attack (\S+) from (\S+)$/.exec(text))) return `attacks ${m[1]} from ${m[2].split(',').join(', ')}`;
  if ((m = /^battle (\S+)( command| elite)?$/.exec(text)) && m[1] !== 'done') return `commits ${card(m[1])} to the battle${m[2] ? ' (' + m[2].trim() + ')' : ''}`;
  if ((m = /^retreat (\S+) ([NESW])$/.exec(text))) return `retreats to ${m[1]}, facing ${F[m[2]]}`;
  if ((m = /^advance (\S+) ([NESW])$/.exec(text))) return `the unit on ${m[1]} advances, facing ${F[m[2]]}`;
  if ((m = /^evade (\S+) (\S+) ([NESW])$/.exec(text))) return `${m[1]} evades to ${m[2]}, facing ${F[m[3]]}`;
  if ((m = /^lose (\S+)$/.exec(text))) return `the attacker on ${m[1]} is reduced`;
  if ((m = /^place (\S+)$/.exec(text))) return `the leader is placed on ${m[1]}`;
  if ((m = /^bid (\S+)$/.exec(text))) return m[1] === 'none' ? 'bids no card' : `bids ${card(m[1])}`;
  if ((m = /^rally (\S+)$/.exec(text)) && m[1] !== 'done') return `rallies ${m[1]} too`;
  const W = { pass: 'passes', end: 'ends the round', done: 'ends the movement', noattack: 'does not attack', 'battle done': 'commits no more cards',
    '(a secret choice)': 'makes a secret choice (revealed later)', nofire: 'does not fire', reduce: 'takes the loss as a reduction', castle: 'spends a castle point', noevade: 'does not evade', 'rally done': 'rallies one unit only' };
  return W[text] || text;
}
