// The game state's typedef (crates/server/assets/game-state.js, whose
// STATE_SCHEMA the type check ties to the typedef) against what a real
// server sends: every field present with its type, nothing unknown. The
// states come from games in several shapes (a friend game on the clock
// with a draw offer, a game over with its reason, a waiting game), so
// that the nullable fields are seen filled as well as empty. Every other
// test checks each state it receives the same way: the page throws on a
// state it cannot read.

const { test, expect, createGame, joinGame, postAs, moveAs, gameState } = require('./helpers');

test('every state the server sends has exactly the fields of the page\'s typedef', async ({ page, request }) => {
  const states = [];
  // A friend game waiting for the friend.
  const waiting = await createGame(request, { mode: 'friend', color: 'white' });
  states.push(await gameState(request, waiting.id, waiting.token));
  // A friend game on the clock, three moves in, White offering a draw.
  const g = await createGame(request, { mode: 'friend', color: 'white', clock: { initial_s: 300, increment_s: 2 } });
  const friend = await joinGame(request, g.id, g.invite);
  let st = friend.state;
  for (let i = 0; i < 3; i++) {
    const token = st.turn === 'w' ? g.token : friend.token;
    st = await moveAs(request, g.id, token, st.legal[0].canonical, st.ply);
  }
  const offer = await postAs(request, st.turn === 'w' ? friend.token : g.token, `/api/games/${g.id}/draw`, { action: 'offer' });
  expect(offer.status(), await offer.text()).toBe(200);
  states.push(await offer.json(), await gameState(request, g.id, null));
  // A game over: resigned, with its reason.
  const local = await createGame(request, { mode: 'local' });
  const over = await postAs(request, local.token, `/api/games/${local.id}/resign`, {});
  expect(over.status(), await over.text()).toBe(200);
  states.push(await over.json());

  const seen = states.map((s) => [s.status, s.clock && s.clock.running, s.draw_offer, s.reason_i18n && s.reason_i18n.key, s.moves.length]);
  expect(seen).toEqual([
    ['waiting', null, null, null, 0],
    ['active', 'b', 'w', null, 3],
    ['active', 'b', 'w', null, 3],
    ['over', null, null, 'outcome.resignation', 0],
  ]);

  await page.goto('/rules');
  const problems = await page.evaluate(async (list) => {
    const m = await import('/static/game-state.js');
    return list.map((s) => m.problems(s, m.STATE_SCHEMA));
  }, states);
  expect(problems).toEqual(states.map(() => []));

  // And the check itself fails on a field missing, mistyped or unknown.
  const broken = await page.evaluate(async (s) => {
    const m = await import('/static/game-state.js');
    const { check, ...missing } = s;
    return [
      m.problems(missing, m.STATE_SCHEMA),
      m.problems({ ...s, ply: '3' }, m.STATE_SCHEMA),
      m.problems({ ...s, extra: 1 }, m.STATE_SCHEMA),
      m.problems({ ...s, moves: [{ ...s.moves[0], check: undefined }] }, m.STATE_SCHEMA).length,
    ];
  }, states[1]);
  expect(broken[0]).toEqual(["'check' is missing"]);
  expect(broken[1]).toEqual(["'ply' is not a number: \"3\""]);
  expect(broken[2]).toEqual(["'extra' is not a field of the state"]);
  expect(broken[3]).toBe(1);
});
