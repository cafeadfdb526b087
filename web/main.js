/* Start: open the game named in the address (resumed from the server's kept games after a
 * restart), or ask for a new one */
'use strict';

(async () => {
  drawLegend();
  const id = seatsFromHash();   /* #ID, or #ID~seat.TOKEN... (seats.js) */
  if (/^replay=[A-Za-z0-9_-]{1,40}$/.test(id)) { await openReplay(id.slice(7)); return; }
  if (/^[0-9a-f]{16}$/.test(id)) {
    try { await openGame(await api('GET', `games/${id}?since=0`)); return; } catch (e) { /* kept? */ }
    try { await resumeGame(id); toast('the server restarted: your game was resumed', true); return; } catch (e) { /* a new game then */ }
  }
  newGameDialog();
})();
