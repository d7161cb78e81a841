// Time to show a chat, in the real window, for make bench (SWITCHBOARD_AUTOMATION):
// clicks the chats titled "Long chat" and "Short chat" in turn and measures,
// on animation frames, from the click until the chat's last message is inside
// the message list's viewport. One warm-up open of each, then RUNS of each.
// Reports through window.runtime.EventsEmit('automation', ...):
//   open long MS / open short MS   per timed open, for a person watching the log
//   done {"long":[MS…],"short":[MS…]}   every time at the end, in one report: the
//                                       events reach the log in no set order
//   error TEXT
(async () => {
  const RUNS = __RUNS__;
  const report = (...a) => window.runtime.EventsEmit('automation', ...a);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const chat = (title) => [...document.querySelectorAll('nav[aria-label="Chats"] li > button')].find((b) => b.textContent === title);
  const open = async (title, last) => {
    const btn = chat(title);
    if (!btn) throw new Error(`no chat titled ${title}`);
    const t0 = performance.now();
    btn.click();
    for (;;) {
      await frame();
      const list = document.querySelector('[aria-label="Messages"]');
      const el = list && [...list.querySelectorAll('article.message')].find((a) => a.textContent.includes(last));
      if (el) {
        const r = el.getBoundingClientRect(), box = list.getBoundingClientRect();
        if (r.bottom > box.top && r.top < box.bottom && r.height > 0) return performance.now() - t0;
      }
      if (performance.now() - t0 > 30_000) throw new Error(`${last} did not show within 30 s`);
    }
  };
  try {
    location.hash = '#/chat';
    for (let t0 = performance.now(); !(chat('Long chat') && chat('Short chat'));) {
      if (performance.now() - t0 > 30_000) throw new Error('the seeded chats are not in the list');
      await frame();
    }
    const long = 'Message 1000 of Long chat:', short = 'Message 10 of Short chat:';
    await open('Short chat', short);
    await open('Long chat', long);
    const times = { long: [], short: [] };
    for (let i = 0; i < RUNS; i++) {
      times.short.push(+(await open('Short chat', short)).toFixed(1));
      report('open', 'short', times.short.at(-1));
      times.long.push(+(await open('Long chat', long)).toFixed(1));
      report('open', 'long', times.long.at(-1));
    }
    report('done', JSON.stringify(times));
  } catch (e) {
    report('error', String(e && e.message || e));
  }
})();
