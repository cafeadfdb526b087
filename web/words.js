/* Actions in words: a legal action as a button label, a log entry as a sentence, and the
 * prompt of each phase */
'use strict';

function label(a) {
  const c = a.card ? cardDef(a.card) : null;
  const cn = c ? `${a.card} "${c.name}"` : '';
  switch (a.kind) {
    case 'end': return a.notation === 'pass' ? 'Pass (no card this round)' : 'End the round';
    case 'play_move': return `Play ${cn} for movement (${c.mp} MP)`;
    case 'artillery': return `${cn}: artillery, ${unitName(a.unit)} fires`;
    case 'charge': return `${cn}: ${unitName(a.unit)} charges ${a.squares} square${a.squares > 1 ? 's' : ''}`;
    case 'force_charge': return `${cn}: force ${unitName(a.unit)} to charge ${a.squares}`;
    case 'rally': return a.card ? `${cn}: rally ${unitName(a.unit)}` : `Rally ${unitName(a.unit)} too`;
    case 'restore': return `${cn}: restore ${unitName(a.unit)} to full strength`;
    case 'health': return `${cn}: Napoleon's health (the French discard 2 cards)`;
    case 'done': return 'Done moving (end this card)';
    case 'noattack': return 'No attack';
    case 'declare': return `Attack ${a.defender} (${a.defender_square}) with ${a.attackers.join(', ')}: ${a.attack_total} vs ${a.defence_total} before cards`;
    case 'battle_card': return `Commit ${cn} (${a.purpose}${a.purpose === 'points' ? ', ' + c.bp + ' BP' : ''})`;
    case 'battle_done': return 'No more battle cards';
    case 'nofire': return 'Do not fire';
    case 'reduce': return 'Reduce the defender';
    case 'retreat': return `Retreat ${a.unit ? unitName(a.unit) : ''} to ${a.to} facing ${a.facing}`;
    case 'castle_point': return 'Spend a castle point instead';
    case 'advance': return `Advance ${unitName(a.unit)} into ${a.to} facing ${a.facing}`;
    case 'lose': return `Reduce ${unitName(a.unit)} (tied attacker)`;
    case 'evade': return `Evade: ${unitName(a.unit)} to ${a.to} facing ${a.facing}`;
    case 'noevade': return 'Do not evade';
    case 'place': return `Place the leader on ${a.to}`;
    case 'bid': return a.card ? `Bid ${cn} (MP ${c.mp})` : 'Bid no card';
    case 'rally_done': return 'Rally only the one unit';
    case 'leader': return `${a.leader} to ${a.to}`;
    case 'step': return `${unitName(a.unit)} to ${a.to} facing ${a.facing}`;
    case 'turn': return `${unitName(a.unit)} turns ${a.facing}`;
    case 'enter': return `${unitName(a.unit)} enters at ${a.to} facing ${a.facing}`;
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

/* An action in words, from its fields only (the API's structured action; never its notation):
 * the past tense of a log entry's `act`.  A unit by its name ("1st Division (Quiot)"), a card
 * by id and name.  A new action kind needs its line here and in label(). */
const FACING = { N: 'north', E: 'east', S: 'south', W: 'west' };
function unitName(n) {
  const d = n && scen.unitIndex[n];
  return d ? d.longname.split(',')[0] : (n || 'a unit');
}
function cardName(id) { const c = id && scen.cardIndex[id]; return c ? `${id} "${c.name}"` : id; }
function told(a) {
  if (!a) return 'makes a secret choice (revealed later)';
  const u = unitName(a.unit), cn = cardName(a.card), f = FACING[a.facing];
  switch (a.kind) {
    case 'end': return a.notation === 'pass' ? 'passes' : 'ends the round';
    case 'play_move': return `plays ${cn} for movement`;
    case 'artillery': return `plays ${cn}: the artillery of ${u} fires`;
    case 'charge': return `plays ${cn}: ${u} charges ${a.squares} square${a.squares > 1 ? 's' : ''}`;
    case 'force_charge': return `plays ${cn}: forces ${u} to charge`;
    case 'rally': return a.card ? `plays ${cn}: rallies ${u}` : `rallies ${u} too`;
    case 'restore': return `plays ${cn}: restores ${u} to full strength`;
    case 'health': return `plays ${cn}: Napoleon's health`;
    case 'step': return `${u} moves to ${a.to}, facing ${f}`;
    case 'turn': return `${u} turns to face ${f}`;
    case 'leader': return `${a.leader} moves to ${a.to}`;
    case 'enter': return `${u} enters the map at ${a.to}, facing ${f}`;
    case 'done': return 'ends the movement';
    case 'declare': return `attacks ${unitName(a.defender)} (${a.defender_square}) with ${a.attackers.map(unitName).join(', ')}`;
    case 'noattack': return 'does not attack';
    case 'battle_card': return `commits ${cn} to the battle${a.purpose !== 'points' ? ' (' + a.purpose + ')' : ''}`;
    case 'battle_done': return 'commits no more cards';
    case 'nofire': return 'does not fire';
    case 'reduce': return 'takes the loss as a reduction';
    case 'retreat': return `${a.unit ? u : 'the defender'} retreats to ${a.to}, facing ${f}`;
    case 'castle_point': return 'spends a castle point';
    case 'advance': return `${u} advances into ${a.to}, facing ${f}`;
    case 'lose': return `${u} is reduced (tied attack)`;
    case 'evade': return `${u} evades to ${a.to}, facing ${f}`;
    case 'noevade': return 'does not evade';
    case 'place': return `the leader is placed on ${a.to}`;
    case 'bid': return a.card ? `bids ${cn}` : 'bids no card';
    case 'rally_done': return 'rallies one unit only';
    default: return a.kind;
  }
}
