import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { gui, host } from '../backend';
import { ResourceLinks } from './ResourceLinks';

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

describe('ResourceLinks', () => {
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
  });

  it('shows a resource read as the tool result\'s embedded resources are shown', async () => {
    const read: gui.ResourceReadView = {
      server: 's', uri: 'file:///conf',
      contents: [
        { uri: 'file:///conf.yaml', mimeType: 'application/yaml', text: '', blob: b64('name: demo') },
        { uri: 'file:///bad.txt', mimeType: 'text/plain', text: '', blob: btoa('\xff\xfe') },
      ] as gui.ResourceReadView['contents'],
    };
    window.go = { gui: { Content: { ReadResource: async () => read } } } as unknown as typeof window.go;
    const link = { type: 'resource_link', uri: 'file:///conf', name: 'conf' } as host.ContentView;
    render(<ResourceLinks content={[link]} server="s" />);
    await userEvent.click(screen.getByRole('button', { name: 'conf' }));
    const viewer = screen.getByRole('dialog', { name: 'Resource conf' });
    const texts = await within(viewer).findAllByLabelText('Resource text');
    expect(texts.map((t) => t.textContent)).toEqual(['name: demo', '(unreadable text)']);
  });
});
