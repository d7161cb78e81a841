import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { compatibleName, HostedKey } from './WelcomePage';

// The welcome page's model step for a server of one's own (LM Studio,
// Ollama): a base URL filled in, the server asked for its models, and only
// one that answers becomes what chats use.
describe('HostedKey', () => {
  const calls: string[] = [];
  function bind(models: () => Promise<{ id: string }[]>) {
    calls.length = 0;
    window.go = {
      gui: {
        SettingsPage: {
          SaveProvider: async (p: { name: string; baseUrl: string; defaultModel: string }) => { calls.push(`save ${p.name} ${p.baseUrl} ${p.defaultModel}`); },
          ProviderModels: async (name: string) => { calls.push(`models ${name}`); return models(); },
          SetDefaultProvider: async (name: string) => { calls.push(`default ${name}`); },
          ChatSettings: async () => ({ providers: [] }),
        },
      },
    } as unknown as typeof window.go;
  }
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('offers an OpenAI-compatible server with its base URL filled in, and uses it once it answers', async () => {
    bind(async () => [{ id: 'qwen3-8b' }, { id: 'llama-3.2-3b' }]);
    let saved = '';
    render(<HostedKey onSaved={(m) => { saved = m; }} onError={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'compatible' } });
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://localhost:1234/v1');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(saved).toBe('LM Studio (qwen3-8b), connected: 2 models'));
    expect(calls).toEqual([
      'save LM Studio http://localhost:1234/v1 ', 'models LM Studio',
      'save LM Studio http://localhost:1234/v1 qwen3-8b', 'default LM Studio',
    ]);
  });

  it('says when the server does not answer and does not make it the default', async () => {
    bind(async () => { throw new Error('The provider "Ollama" at http://localhost:11434 is not reachable. Is it running?'); });
    let saved = '';
    render(<HostedKey onSaved={(m) => { saved = m; }} onError={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'compatible' } });
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'http://localhost:11434/v1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Saved, but Ollama does not work yet: The provider "Ollama" at http://localhost:11434 is not reachable. Is it running?');
    expect(saved).toBe('');
    expect(calls).toEqual(['save Ollama http://localhost:11434/v1 ', 'models Ollama']);
  });

  it('asks for the key of a hosted provider under its field', async () => {
    bind(async () => []);
    render(<HostedKey onSaved={() => undefined} onError={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    const key = screen.getByLabelText('API key');
    await waitFor(() => expect(document.activeElement).toBe(key));
    expect(key.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Paste your OpenAI API key: it goes to the system keyring.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('names a server by its usual port', () => {
    expect(compatibleName('http://localhost:1234/v1')).toBe('LM Studio');
    expect(compatibleName('http://127.0.0.1:11434/v1')).toBe('Ollama');
    expect(compatibleName('https://openrouter.ai/api/v1')).toBe('openrouter.ai');
  });
});
