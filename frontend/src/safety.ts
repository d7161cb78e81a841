// Tool safety from the Go side (Safety): tools withheld because their
// definition changed, tools of known servers that are new, warnings about
// hidden instructions, and the approval rules on arguments. Fetched on
// demand and again whenever the tools may have changed (tools:changed).
import { AcceptChange, AddRule, EventConfigChanged, EventToolsChanged, hasBackend, on, ProposeRule, RejectChange, RemoveRule, Rules, Safety } from './backend';
import type { gui, host } from './backend';
import { message } from './errors';
import { createStore, useSelect } from './store';

export type SafetyView = gui.SafetyView;
export type ToolChange = gui.ToolChangeView;
export type Warning = host.WarningView;
export type ToolWarnings = gui.ToolWarningsView;
export type RuleView = gui.RuleView;
export type MatchView = gui.MatchView;

interface SafetyState {
  view: SafetyView | null;
  rules: RuleView[];
  error: string;
}

const safetyStore = createStore<SafetyState>({ view: null, rules: [], error: '' });
let watching = false;

/** refreshSafety fetches changed, new and suspicious tools and the rules. */
export async function refreshSafety(): Promise<void> {
  if (!hasBackend()) return;
  if (!watching) {
    watching = true;
    on(EventToolsChanged, () => void refreshSafety());
    on(EventConfigChanged, () => void refreshSafety());
  }
  try {
    const [view, rules] = await Promise.all([Safety(), Rules()]);
    safetyStore.set({ view, rules, error: '' });
  } catch (e) {
    safetyStore.set({ error: message(e) });
  }
}

/** useServerSafety is one server's changes, new tools and warnings. */
export function useServerSafety(server: string): { changes: ToolChange[]; fresh: string[]; warnings: ToolWarnings[] } {
  const view = useSelect(safetyStore, (s) => s.view);
  return {
    changes: (view?.changes ?? []).filter((c) => c.server === server),
    fresh: view?.new?.[server] ?? [],
    warnings: (view?.warnings ?? []).filter((w) => w.server === server),
  };
}

/** useRules is the approval rules. */
export function useRules(): RuleView[] {
  return useSelect(safetyStore, (s) => s.rules);
}

export async function acceptChange(server: string, tool: string): Promise<void> {
  await AcceptChange(server, tool);
  await refreshSafety();
}

export async function rejectChange(server: string, tool: string): Promise<void> {
  await RejectChange(server, tool);
  await refreshSafety();
}

export const proposeRule = (tool: string, args: string): Promise<RuleView> => ProposeRule(tool, args);

export async function addRule(r: RuleView): Promise<RuleView> {
  const saved = await AddRule(r);
  await refreshSafety();
  return saved;
}

export async function removeRule(id: string): Promise<void> {
  await RemoveRule(id);
  await refreshSafety();
}

/** lineDiff marks each line of a and b as kept, removed or added (a longest common subsequence). */
export function lineDiff(a: string, b: string): { kind: ' ' | '-' | '+'; text: string }[] {
  const x = a ? a.split('\n') : [];
  const y = b ? b.split('\n') : [];
  const n = x.length, m = y.length;
  // lcs[i * (m + 1) + j] is the longest common subsequence of x[i:] and y[j:].
  const lcs = new Int32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => lcs[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = x[i] === y[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: { kind: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      out.push({ kind: ' ', text: x[i] ?? '' }); i++; j++;
    } else if (i < n && (j >= m || at(i + 1, j) >= at(i, j + 1))) {
      out.push({ kind: '-', text: x[i] ?? '' }); i++; // what went, before what came
    } else {
      out.push({ kind: '+', text: y[j] ?? '' }); j++;
    }
  }
  return out;
}

/**
 * effectLabel says what a tool's annotations say about what it does, as
 * MCP defines them: read-only when readOnlyHint is true; destructive only
 * when the tool says destructiveHint: true (the Go side's destructive); any
 * other tool may change things (MCP's default for a tool that does not say).
 */
export function effectLabel(t: { readOnly: boolean; destructive: boolean }): string {
  if (t.readOnly) return 'read-only';
  if (t.destructive) return 'destructive';
  return 'may change things';
}
