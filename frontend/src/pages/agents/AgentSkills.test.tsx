import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AgentSkills } from './AgentSkills';
import type { host } from '../../backend';

describe('AgentSkills', () => {
  afterEach(() => { window.go = undefined as unknown as typeof window.go; });
  function bind(skills: host.Skill[]) {
    window.go = { gui: { ServersPage: { ServerSkills: async () => ({ offered: skills.length > 0, skills }) } } } as unknown as typeof window.go;
  }
  const skill = (name: string, on = true): host.Skill => ({ server: 'docs', name, description: '', uri: `skill://${name}/SKILL.md`, files: 1, size: 1, on });

  it('narrows the agent to some of a server’s skills, as server/name', async () => {
    bind([skill('haiku'), skill('notes', false)]);
    const changes: string[][] = [];
    render(<AgentSkills server="docs" chosen={['web/search']} onChange={(k) => changes.push(k)} />);
    expect(await screen.findByText(/Only some skills \(all chosen\)/)).toBeTruthy();
    expect(screen.getByText(/notes \(off on the Servers page\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'haiku' }));
    expect(changes).toEqual([['web/search', 'docs/haiku']]);
  });

  it('shows nothing for a server without skills', async () => {
    bind([]);
    const { container } = render(<AgentSkills server="docs" chosen={[]} onChange={() => undefined} />);
    await waitFor(() => expect(container.textContent).toBe(''));
  });
});
