import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Elicit } from '../chat';
import { ElicitForm } from './ElicitForm';

let opened: ReturnType<typeof vi.fn>;
let answered: ReturnType<typeof vi.fn>;
beforeEach(() => {
  opened = vi.fn();
  answered = vi.fn(() => Promise.resolve());
  (window as unknown as { runtime: unknown }).runtime = { BrowserOpenURL: opened };
  (window as unknown as { go: unknown }).go = { gui: { ChatPage: { AnswerElicitation: answered } } };
});
afterEach(() => {
  delete (window as unknown as { runtime?: unknown }).runtime;
});

const req = (r: Partial<Elicit>): Elicit => ({
  id: 'e1', server: 'links', mode: 'url', message: 'Connect your account.', url: 'https://auth.example.com/connect?id=1', domain: 'auth.example.com', ...r,
});

describe('URL elicitation card', { timeout: 30_000 }, () => { // the first render loads the form library
  it('shows the site and the full address as text and opens nothing until Open', async () => {
    const { container } = render(<ElicitForm req={req({})} />);
    expect(screen.getByTestId('elicit-domain').textContent).toBe('auth.example.com');
    expect(screen.getByTestId('elicit-url-full').textContent).toBe('https://auth.example.com/connect?id=1');
    expect(container.querySelector('a')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Done' })).toBeNull();
    expect(opened).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Open auth.example.com' }));
    expect(opened).toHaveBeenCalledWith('https://auth.example.com/connect?id=1');
    await waitFor(() => expect(answered).toHaveBeenCalledWith('e1', 'accept', ''));
  });

  it('shows a look-alike host in its xn-- form, its registered domain in bold and how it was written', () => {
    render(<ElicitForm req={req({ url: 'https://login.xn--pple-43d.com.evil.example/x', domain: 'login.xn--pple-43d.com.evil.example', registrable: 'evil.example', written: 'login.\u0430pple.com.evil.example' })} />);
    const site = screen.getByTestId('elicit-domain');
    expect(site.textContent).toBe('login.xn--pple-43d.com.evil.example');
    expect(site.querySelector('strong')?.textContent).toBe('evil.example');
    expect(screen.getByTestId('elicit-written').textContent).toMatch(/Written as login\.\u0430pple\.com\.evil\.example: letters from another alphabet/);
  });

  it('keeps a waiting tool call\'s card open after Open, until Done', async () => {
    render(<ElicitForm req={req({ retry: true, url: 'http://127.0.0.1:9/x', domain: '127.0.0.1' })} />);
    expect(screen.getByText('not encrypted')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open 127.0.0.1' }));
    expect(opened).toHaveBeenCalledWith('http://127.0.0.1:9/x');
    expect(screen.getByRole('status').textContent).toContain('Opened in your browser');
    expect(answered).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(answered).toHaveBeenCalledWith('e1', 'accept', ''));
  });

  it('writes out what does not show as itself in the message and the address', () => {
    render(<ElicitForm req={req({ message: 'Log in to \u2067knab\u2069 ex\u200bample.', url: 'https://auth.example.com/\u202ex' })} />);
    expect(screen.getByRole('dialog').textContent).toContain(String.raw`asks you to open a page: Log in to \u2067knab\u2069 ex\u200Bample.`);
    expect(screen.getByTestId('elicit-url-full').textContent).toBe(String.raw`https://auth.example.com/\u202Ex`);
  });

  it('declines and cancels without opening', async () => {
    render(<ElicitForm req={req({})} />);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(answered).toHaveBeenCalledTimes(2));
    expect(answered.mock.calls.map((c) => c[1])).toEqual(['decline', 'cancel']);
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('form elicitation card', { timeout: 30_000 }, () => {
  it('writes out what does not show as itself in the question', () => {
    render(<ElicitForm req={{ id: 'e2', server: 'forms', mode: 'form', message: 'Delete \u202eelif.txt\u202c? ok\u200b', schema: { type: 'object' } }} />);
    expect(screen.getByTestId('elicit-form').querySelector('p')!.textContent).toBe(String.raw`forms asks: Delete \u202Eelif.txt\u202C? ok\u200B`);
  });
});
