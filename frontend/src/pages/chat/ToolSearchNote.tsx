import type { host } from '../../backend';

export type SearchDecision = Pick<host.ToolSearch, 'on' | 'by' | 'tools' | 'tokens' | 'window' | 'windowKnown' | 'share' | 'above' | 'reason'>;

/**
 * ToolSearchNote says, in the chat's Tools popover, whether the model gets
 * find_tools instead of its tools and why (the sentence the Go side makes
 * from the tools' estimated tokens and the model's context window), and
 * where to change the rule.
 */
export function ToolSearchNote({ decision: d }: { decision: SearchDecision | null }) {
  if (!d) return null;
  return (
    <p className={`small tool-search-note ${d.on ? 'warn' : 'muted'}`} role="note" aria-label="Tool search">
      {d.reason}
      {d.on && ' Switching off servers this chat does not need lets it see them all again.'}
      {' '}<a href="#/settings">Change when in Settings</a>
    </p>
  );
}

/** toolSearchBadge is the Tools button's short label: "search" when the model searches its tools. */
export function toolSearchBadge(d: SearchDecision | null): string {
  return d?.on ? 'search' : '';
}
