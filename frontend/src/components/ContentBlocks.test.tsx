import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { blocksSummary, ContentBlocks, decodedSize } from './ContentBlocks';
import type { host } from '../backend';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const block = (b: Partial<host.ContentView> & { type: string }): host.ContentView =>
  ({ text: '', data: '', mimeType: '', uri: '', name: '', title: '', description: '', ...b });

describe('ContentBlocks', () => {
  it('shows an image as a thumbnail that opens larger from the keyboard, and closes with Escape', () => {
    render(<ContentBlocks content={[block({ type: 'image', mimeType: 'image/png', data: PNG })]} tool="get-tiny-image" />);
    const img = screen.getByRole('img', { name: 'Image from get-tiny-image' });
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    const thumb = screen.getByRole('button', { name: 'Image from get-tiny-image' });
    thumb.focus();
    fireEvent.click(thumb); // Enter and Space on a button click it
    const dialog = screen.getByRole('dialog', { name: 'Image from get-tiny-image' });
    expect(dialog.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    expect(document.activeElement?.textContent).toBe('Close');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(thumb);
  });

  it('numbers several images, plays audio, and shows embedded resources with their URI and text', () => {
    render(<ContentBlocks tool="shots" content={[
      block({ type: 'image', mimeType: 'image/png', data: PNG }),
      block({ type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg xmlns="http://www.w3.org/2000/svg"/>') }),
      block({ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' }),
      block({ type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'plain words' }),
      block({ type: 'resource', uri: 'file:///notes.md', mimeType: 'text/markdown', data: btoa('# Notes\nThe secret word is PINEAPPLE.\n') }),
      block({ type: 'resource', uri: 'file:///b.bin', mimeType: 'application/octet-stream', data: 'AAECAwQ=' }),
      block({ type: 'resource_link', uri: 'file:///c', name: 'c' }),
    ]} />);
    expect(screen.getAllByRole('img').map((i) => i.getAttribute('alt'))).toEqual(['Image from shots (1 of 2)', 'Image from shots (2 of 2)']);
    const audio = document.querySelector('audio');
    expect(audio?.hasAttribute('controls')).toBe(true);
    expect(audio?.getAttribute('src')).toBe('data:audio/wav;base64,UklGRg==');
    expect(screen.getByText('file:///a.txt')).toBeTruthy();
    expect(screen.getByText('plain words')).toBeTruthy();
    expect(screen.getByLabelText('Resource file:///notes.md').textContent).toContain('The secret word is PINEAPPLE.');
    expect(screen.getByText('Binary application/octet-stream, 5 B')).toBeTruthy();
    expect(screen.queryByText('file:///c')).toBeNull(); // a link is ResourceLinks' chip
  });

  it('says what a block the window was not sent is, and how large', () => {
    render(<ContentBlocks tool="screenshot" content={[
      block({ type: 'image', mimeType: 'image/png', size: 6 * 1024 * 1024 }),
      block({ type: 'resource', uri: 'file:///big.bin', mimeType: 'application/zip', size: 5 * 1024 * 1024 }),
    ]} />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('Image from screenshot (image/png), 6.0 MB: too large to show here.')).toBeTruthy();
    expect(screen.getByText('Binary application/zip, 5.0 MB: too large to show here.')).toBeTruthy();
  });

  it('leaves text out when asked, and hides the block it is told to', () => {
    const { container, rerender } = render(<ContentBlocks tool="t" text={false} content={[block({ type: 'text', text: 'words' })]} />);
    expect(container.textContent).toBe('');
    rerender(<ContentBlocks tool="t" hide="schema note" content={[block({ type: 'text', text: 'schema note' }), block({ type: 'text', text: 'words' })]} />);
    expect(container.textContent).toBe('words');
  });

  it('names what a result holds besides text', () => {
    expect(blocksSummary([block({ type: 'image' })])).toBe('1 image');
    expect(blocksSummary([block({ type: 'image' }), block({ type: 'image' }), block({ type: 'audio' }), block({ type: 'resource' }), block({ type: 'text' })]))
      .toBe('2 images, 1 audio clip, 1 resource');
    expect(blocksSummary([])).toBe('');
    expect([decodedSize('AAECAwQ='), decodedSize('aGk='), decodedSize('')]).toEqual([5, 2, 0]);
  });
});
