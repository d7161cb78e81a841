import { useEffect, useState } from 'react';
import { call, ChatContext } from '../../backend';
import { compactNow, setMeter, useChat, type ContextMeter as Meter } from '../../chat';
import { usePopover } from '../../layout';

/** kilo writes a token count short: 812, 3.4k, 128k. */
export function kilo(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

/** level is how full the window is: ok, near (past three quarters of the compaction limit) or full (past the limit). */
export function level(m: Meter): 'ok' | 'near' | 'full' {
  if (!m.window) return 'ok';
  const limit = m.limit || m.window;
  if (m.used >= limit) return 'full';
  return m.used >= limit * 0.75 ? 'near' : 'ok';
}

/**
 * meterName is the meter button's accessible name: its visible text first (what a voice-control
 * user says to press it: "34% · assumed"), then what it measures.
 */
export function meterName(shown: string, label: string): string {
  return `${shown} — ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}

/**
 * ContextMeter is the chat header's gauge of the model's context window: used / window, what takes the
 * space (tools, system prompt, conversation, tool results), where the chat will be summarised, and
 * "Compact now". It follows the chat's context events; a chat just opened asks ChatContext once.
 */
export function ContextMeter({ chatId }: { chatId: string }) {
  const meter = useChat((s) => s.meters[chatId]);
  const running = useChat((s) => !!s.running[chatId]);
  const [open, setOpen] = useState(false);
  const { anchor, pop } = usePopover(open);
  useEffect(() => {
    if (meter || running) return;
    call(() => ChatContext(chatId)).then((m) => setMeter(chatId, m), () => undefined);
  }, [chatId, meter, running]);
  if (!meter) return null;
  const pct = meter.window ? Math.min(100, Math.round((meter.used / meter.window) * 100)) : 0;
  const lv = level(meter);
  // The open chat's; errors show where the chat's do.
  const compact = () => { void compactNow().then((ok) => { if (ok) setOpen(false); }); };
  const label = meter.compacting ? 'Summarising the earlier messages…'
    : !meter.window ? `Context ${kilo(meter.used)} tokens (window not known)`
      : meter.assumed ? `Context ${kilo(meter.used)} of ${kilo(meter.window)} tokens (window assumed)`
        : `Context ${kilo(meter.used)} of ${kilo(meter.window)} tokens`;
  const shown = meter.compacting ? 'Summarising…' : `${meter.window ? `${pct}%` : kilo(meter.used)}${meter.assumed ? ' · assumed' : ''}`;
  return (
    <div className="context-meter" onKeyDown={(e) => { if (e.key === 'Escape' && open) { e.stopPropagation(); setOpen(false); anchor.current?.focus(); } }}>
      <button type="button" ref={anchor} className={`meter-button ${lv}`} aria-expanded={open} aria-label={meter.compacting ? 'Summarising… the earlier messages' : meterName(shown, label)} title={label} onClick={() => setOpen(!open)}>
        {meter.compacting ? <span className="small">{shown}</span> : (
          <>
            <span className="meter-bar" role="meter" aria-valuemin={0} aria-valuemax={meter.window || meter.used} aria-valuenow={meter.used} aria-label="Context used">
              <span className="meter-fill" style={{ width: `${meter.window ? pct : 0}%` }} />
            </span>
            <span className="small">{shown}</span>
          </>
        )}
      </button>
      {open && (
        <div className="popover meter-popover" ref={pop} role="dialog" aria-label="Context window">
          <p className="small"><strong>{label}</strong>{meter.calibrated ? '' : ' (estimated)'}</p>
          <table className="meter-table small">
            <tbody>
              <tr><th scope="row">Conversation</th><td>{kilo(meter.history)}</td></tr>
              <tr><th scope="row">Tool results</th><td>{kilo(meter.results)}{meter.stubbed ? ` (${meter.stubbed} older steps shrunk to stubs)` : ''}</td></tr>
              <tr><th scope="row">Tool definitions</th><td>{kilo(meter.tools)}</td></tr>
              <tr><th scope="row">System prompt</th><td>{kilo(meter.system)}</td></tr>
            </tbody>
          </table>
          <p className="small muted">
            {meter.window
              ? `At ${kilo(meter.limit)} tokens the earlier messages are summarised for the model; they stay here and in exports. Change where in Settings → Chat.`
              : 'The model\'s context window is not known: set it in Settings → Chat → Long chats → Context windows (provider/model=tokens) so the chat is summarised before the model refuses it.'}
          </p>
          {meter.assumed && (
            <p className="small warn" role="note">
              {`The model's context window is not known: ${kilo(meter.window)} tokens is assumed. Set the real one in Settings → Chat → Long chats → Context windows (provider/model=tokens).`}
            </p>
          )}
          {/* Results, not steps: one step of fifteen results may have a few stubbed, the latest whole. */}
          {meter.turnStubbedResults ? <p className="small warn" role="status">{`This turn's results no longer fit the window together: the model sees ${meter.turnStubbedResults === 1 ? '1 of them as a stub' : `${meter.turnStubbedResults} of them as stubs`}, the oldest first, and can read kept results on.`}</p> : null}
          {lv !== 'ok' && meter.window > 0 && <p className="small warn" role="status">This chat is near the model's context window.</p>}
          <div className="row">
            <button type="button" onClick={compact} disabled={running || meter.compacting}>Compact now</button>
          </div>
        </div>
      )}
    </div>
  );
}
