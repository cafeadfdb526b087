/* Start: open the game named in the address, or ask for a new one */
'use strict';


(async () => {
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{16}$/.test(id)) {
    try { await openGame(await api('GET', `games/${id}?since=0`)); return; } catch (e) { /* a new game then */ }
  }
  $('new-dialog').showModal();
})();
