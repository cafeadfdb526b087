/* The rules reference: docs/RULES.md by rule id, from the server (GET /api/rules), in a dialog
 * with a filter; every rule id in a card's text or a reason opens it there. */
'use strict';

let rules = null;   /* [{id, chapter, text}] once loaded */

async function loadRules() {
  if (!rules) rules = (await api('GET', 'rules')).rules;
  return rules;
}
function renderRules() {
  const box = $('rules-list'), q = $('rules-search').value.trim().toLowerCase();
  box.innerHTML = '';
  let chapter = '';
  for (const r of rules || []) {
    if (q && !(r.id.toLowerCase() === q || r.id.toLowerCase().startsWith(q + '.') || (r.id + ' ' + r.text).toLowerCase().includes(q))) continue;
    if (r.chapter !== chapter) { chapter = r.chapter; box.appendChild(h('h3', {}, chapter)); }
    const p = h('p', { class: 'rule', id: 'rule-' + r.id, 'data-rule': r.id });
    p.appendChild(h('b', {}, r.id + ' '));
    p.appendChild(rulesText(r.text, r.id));
    box.appendChild(p);
  }
  if (!box.children.length) box.appendChild(h('p', { class: 'note' }, 'no rule matches'));
}
async function showRule(id) {
  try { await loadRules(); } catch (e) { toast(e.message); return; }
  const d = $('rules-dialog');
  $('rules-search').value = '';
  renderRules();
  if (!d.open) d.showModal();
  const p = id && document.getElementById('rule-' + id);
  if (p) {
    document.querySelectorAll('#rules-list .rule.lit').forEach((x) => x.classList.remove('lit'));
    p.classList.add('lit');
    p.scrollIntoView({ block: 'center' });
  }
}
/* text with its rule ids as links into the reference */
function rulesText(text, self) {
  const span = h('span', { class: 'rules-text' });
  let last = 0;
  for (const m of text.matchAll(/R-\d+(\.\d+)?/g)) {
    span.appendChild(document.createTextNode(text.slice(last, m.index)));
    if (m[0] === self) span.appendChild(document.createTextNode(m[0]));
    else {
      const a = h('a', { href: '#', class: 'rule-link', 'data-rule': m[0], title: 'open ' + m[0] + ' in the rules reference' }, m[0]);
      a.addEventListener('click', (ev) => { ev.preventDefault(); ev.stopPropagation(); showRule(m[0]); });
      span.appendChild(a);
    }
    last = m.index + m[0].length;
  }
  span.appendChild(document.createTextNode(text.slice(last)));
  return span;
}
$('rules-btn').addEventListener('click', () => showRule(null));
$('rules-search').addEventListener('input', renderRules);
