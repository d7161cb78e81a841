// A model provider checked as it is saved (Settings → Models and the
// welcome page): what the form can tell before saving, and whether the
// saved provider answers.
import { call, ChatSettings, ProviderModels, SetDefaultProvider } from './backend';
import { message } from './errors';

/** ProviderProblems are what a provider form finds before saving, by field. */
export type ProviderProblems = Partial<Record<'name' | 'baseUrl', string[]>>;

/** providerProblems checks what a form can check itself; the Go side checks the rest when saving. */
export function providerProblems(p: { name: string; baseUrl: string }): ProviderProblems {
  const out: ProviderProblems = {};
  if (!p.name.trim()) out.name = ['Give the provider a name: the model picker and Agents show it.'];
  const url = p.baseUrl.trim();
  if (url && !/^https?:\/\/[^\s/]+/i.test(url)) out.baseUrl = ['Write the base URL as http://host:port/v1 (or https://…), or leave it empty for the default of its kind.'];
  return out;
}

/** Checked is how a provider answered right after it was saved: its models, or why not. */
export type Checked = { name: string; ok: true; models: string[] } | { name: string; ok: false; error: string };

/**
 * checkProvider asks a saved provider for its models, as a chat would
 * reach it. A provider that does not answer and became the default only
 * by being saved (the settings make a provider the default when there is
 * none) gives the default to one of those saved before it.
 */
export async function checkProvider(name: string, before: { name: string; default: boolean }[]): Promise<Checked> {
  try {
    const models = await call(() => ProviderModels(name));
    return { name, ok: true, models: (models ?? []).map((m) => m.id) };
  } catch (e) {
    const other = before.find((q) => q.name.toLowerCase() !== name.toLowerCase());
    if (other && !before.some((q) => q.default)) {
      const now = await call(ChatSettings).catch(() => null);
      if (now?.providers?.find((q) => q.default)?.name.toLowerCase() === name.toLowerCase()) {
        await call(() => SetDefaultProvider(other.name)).catch(() => undefined);
      }
    }
    return { name, ok: false, error: message(e) };
  }
}
