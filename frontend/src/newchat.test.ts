import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatState, newChat, openChat, send } from './chat';

// "New chat" then typing at once: the message goes to the new chat, never
// to the one shown before the click (an e2e test once sent its prompt to
// the previous chat this way, and so could a quick user).
describe('newChat', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('sends a message typed while the new chat is being made to the new chat', async () => {
    let made: (v: { id: string }) => void = () => {};
    const sent: string[] = [];
    let newChats = 0;
    window.go = {
      gui: {
        Window: { Info: async () => ({}) },
        ChatPage: {
          Chats: async () => [],
          ChatMessages: async () => [],
          NewChat: () => {
            newChats++;
            return new Promise((res) => { made = res; });
          },
          SendMessage: async (id: string, text: string) => { sent.push(`${id}: ${text}`); },
        },
      },
    } as unknown as typeof window.go;

    await openChat('old');
    expect(chatState().current).toBe('old');
    const creating = newChat();
    const sending = send('hello'); // typed at once
    await vi.waitFor(() => expect(chatState().current).toBe('')); // the old chat leaves the view (its apps told first)
    made({ id: 'new' });
    await creating;
    expect(await sending).toBe(true);
    expect(sent).toEqual(['new: hello']);
    expect(newChats).toBe(1); // send joined the chat being made, it did not make another
    expect(chatState().current).toBe('new');
  });
});
