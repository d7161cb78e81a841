// Agents: named set-ups (prompt, model, servers/tools, policies, delegate
// mode) that chats start from. Loaded on demand; changed only through the
// actions below, which reload the list.
import { useEffect } from 'react';
import { Agents, call, DeleteAgent, hasBackend, SaveAgent } from './backend';
import type { host } from './backend';
import { message } from './errors';
import { createStore, useSelect, useConfigVersion } from './store';

export type Agent = host.Agent;
export type Policy = 'ask' | 'allow' | 'deny';

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
