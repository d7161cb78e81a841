// Agents: named set-ups (prompt, model, servers/tools, policies, delegate
// mode) that chats start from. Loaded on demand; changed only through the
// actions below, which reload the list.
import { useEffect } from 'react';
import { Agents, call, DeleteAgent, DuplicateAgent, FindAgentFiles, hasBackend, ImportAgentFiles, SaveAgent } from './backend';
import type { host } from './backend';
import { message } from './errors';
import { createStore, useSelect, useConfigVersion } from './store';

export type Agent = host.Agent;
export type Policy = 'ask' | 'allow' | 'deny';
export type AgentFile = host.AgentFile;

/** MAX_AGENT_NAME is the longest agent name, in characters (chat.MaxAgentName). */
export const MAX_AGENT_NAME = 64;

interface AgentsState { agents: Agent[]; loaded: boolean; error: string }

const agentsStore = createStore<AgentsState>({ agents: [], loaded: false, error: '' });
const set = agentsStore.set;

export async function loadAgents(): Promise<void> {
  if (!hasBackend()) {
    set({ loaded: true });
    return;
  }
  try {
    set({ agents: (await call(() => Agents())) ?? [], loaded: true, error: '' });
  } catch (err) {
    set({ error: message(err), loaded: true });
  }
}

export function useAgents(): AgentsState {
  const configVersion = useConfigVersion();
  useEffect(() => {
    void loadAgents();
  }, [configVersion]);
  return useSelect(agentsStore, (s) => s);
}

/** emptyAgent is the form's starting point for a new agent. */
export function emptyAgent(): Agent {
  return { id: '', name: '', description: '', system: '', provider: '', model: '', servers: [], tools: [], policies: {}, delegate: false };
}

/** saveAgent creates or updates an agent; it throws the backend's message. */
export async function saveAgent(a: Agent): Promise<Agent> {
  const saved = await call(() => SaveAgent(a));
  await loadAgents();
  return saved;
}

export async function deleteAgent(id: string): Promise<void> {
  await call(() => DeleteAgent(id));
  await loadAgents();
}

/** duplicateAgent saves a copy of an agent ("NAME copy") and returns it. */
export async function duplicateAgent(id: string): Promise<Agent> {
  const copy = await call(() => DuplicateAgent(id));
  await loadAgents();
  return copy;
}

/** findAgentFiles lists Claude Code's agent files as an import would make them. */
export async function findAgentFiles(): Promise<AgentFile[]> {
  return (await call(() => FindAgentFiles())) ?? [];
}

/** importAgentFiles imports the files at paths and says what became of each. */
export async function importAgentFiles(paths: string[]): Promise<AgentFile[]> {
  const done = (await call(() => ImportAgentFiles(paths))) ?? [];
  await loadAgents();
  return done;
}

/** nameProblem says what is wrong with an agent name as typed ("" when nothing), as the backend would (chat.ValidAgentName). */
export function nameProblem(name: string): string {
  const n = name.trim();
  if (!n) return '';
  // Control, bidirectional and zero-width characters (U+200D, which joins emoji, is allowed).
  const bad = [...n].find((c) => /[\p{Cc}\p{Cf}]/u.test(c) && c !== '\u200d');
  if (bad) return `The name has the invisible character U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}: remove it.`;
  const len = [...n].length;
  if (len > MAX_AGENT_NAME) return `The name is ${len} characters long: shorten it to ${MAX_AGENT_NAME} or fewer (the description can say more).`;
  return '';
}

/** serverPolicy is the agent's policy for a whole server ("" = the global one). */
export function serverPolicy(a: Agent, server: string): Policy | '' {
  return ((a.policies ?? {})[`${server}__*`] as Policy | undefined) ?? '';
}

/** withServerPolicy sets (or, with "", removes) the agent's policy for a server. */
export function withServerPolicy(a: Agent, server: string, p: Policy | ''): Agent {
  const policies: Record<string, string> = { ...(a.policies ?? {}) };
  if (p) policies[`${server}__*`] = p;
  else delete policies[`${server}__*`];
  return { ...a, policies };
}
