// A day of use, typed into the real window by make bench (SWITCHBOARD_AUTOMATION):
// TURNS chat turns, a new chat every PER_CHAT, each turn sent from the
// composer as a person would and waited for until its reply is complete
// (the fake model answers with a tool call, then streamed Markdown).
// Reports, through window.runtime.EventsEmit('automation', ...):
//   turn N MS     every 10 turns, with the time since the first began
//   done {"turns":N,"ms":MS,"every10":[MS…]}  at the end, in one report (the
//                 events reach the log in no set order): the turns typed, the time
//                 they took, and the time at every 10th turn again
//   error TEXT    when something did not show in time
(async () => {
  const TURNS = __TURNS__, PER_CHAT = 20, TURN_LIMIT_MS = 60_000;
  const report = (...a) => window.runtime.EventsEmit('automation', ...a);
  const tick = () => new Promise((r) => setTimeout(r, 15));
  const until = async (what, f) => {
    const t0 = performance.now();
    for (;;) {
      const v = f();
      if (v) return v;
      if (performance.now() - t0 > TURN_LIMIT_MS) throw new Error(`${what}: not within ${TURN_LIMIT_MS} ms`);
      await tick();
    }
  };
  const button = (name) => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
  try {
    // The configured servers start once the window shows: wait for the echo tool, as a person would wait for the status.
    for (let t0 = performance.now(); !(await window.go.gui.ToolsPage.Tools()).tools.some((t) => t.name === 'everything__echo');) {
      if (performance.now() - t0 > 90_000) throw new Error('everything__echo did not come up within 90 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    location.hash = '#/chat';
    await until('the chat page', () => button('New chat') && !button('New chat').disabled && document.querySelector('textarea[aria-label="Message"]'));
    const start = performance.now(), every10 = [];
    for (let i = 1; i <= TURNS; i++) {
      if ((i - 1) % PER_CHAT === 0) {
        button('New chat').click();
        await until(`new chat before turn ${i}`, () => !document.querySelector('[aria-label="Messages"] article.message'));
      }
      const box = await until('the message box', () => {
        const b = document.querySelector('textarea[aria-label="Message"]');
        return b && !b.disabled && b;
      });
      const text = `day turn ${i}. Please echo ping, then explain the result with a code sample.`;
      setValue.call(box, text);
      box.dispatchEvent(new Event('input', { bubbles: true }));
      (await until(`the Send button for turn ${i}`, () => { const b = button('Send'); return b && !b.disabled && b; })).click();
      await until(`the reply to turn ${i}`, () => {
        const list = document.querySelector('[aria-label="Messages"]');
        const arts = list ? [...list.querySelectorAll('article.message')] : [];
        const asked = arts.findIndex((a) => a.classList.contains('user') && a.textContent.includes(`day turn ${i}.`));
        const last = arts[arts.length - 1];
        return asked >= 0 && last && last !== arts[asked] && last.classList.contains('assistant') &&
          last.dataset.status === 'complete' && last.textContent.includes('End of reply.') && button('Send');
      });
      if (i % 10 === 0) {
        every10.push(Math.round(performance.now() - start));
        report('turn', i, every10.at(-1));
      }
    }
    report('done', JSON.stringify({ turns: TURNS, ms: Math.round(performance.now() - start), every10 }));
  } catch (e) {
    report('error', String(e && e.message || e));
  }
})();
