import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ServerSkills, sizeText } from './ServerSkills';
import { SkillLoaded } from '../chat/SkillLoaded';
import type { gui, host } from '../../backend';

const server = { name: 'docs', state: 'ready' } as gui.ServerView;

describe('sizeText', () => {
  it.each([
    [{ size: 350, files: 2 }, '350 B in 2 files'],
    [{ size: 2048, files: 1 }, '2.0 KB in 1 file'],
    [{ size: 3 << 20, files: 4 }, '3.0 MB in 4 files'],
    [{ size: 0, files: 0, dynamic: true }, 'files listed on demand'],
  ])('%j', (s, want) => expect(sizeText(s)).toBe(want));
});

describe('ServerSkills', () => {
  const calls: unknown[][] = [];
  afterEach(() => {
    window.go = undefined as unknown as typeof window.go;
    calls.length = 0;
  });
  function bind(list: host.ServerSkills) {
    window.go = {
      gui: {
        ServersPage: {
          ServerSkills: async () => list,
          SetSkillOn: async (...a: unknown[]) => {
            calls.push(a);
            list.skills = list.skills.map((s) => (s.name === a[1] ? { ...s, on: a[2] as boolean } : s));
          },
        },
      },
    } as unknown as typeof window.go;
  }
  const skill = (name: string, on: boolean): host.Skill => ({ server: 'docs', name, description: `the ${name} skill`, uri: `skill://${name}/SKILL.md`, files: 1, size: 100, on });

  it('lists the skills with their size and switches one off', async () => {
    bind({ offered: true, skills: [skill('haiku', true), skill('notes', false)] });
    render(<ServerSkills server={server} />);
    const haiku = await screen.findByRole<HTMLInputElement>('switch', { name: 'Skill haiku of docs' });
    expect(haiku.checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Skill notes of docs' }).checked).toBe(false);
    expect(screen.getByRole('group', { name: 'Skills of docs' }).textContent).toMatch(/the haiku skill.*100 B in 1 file · off.*the notes skill/s);
    fireEvent.click(haiku);
    await waitFor(() => expect(calls).toEqual([['docs', 'haiku', false]]));
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Skill haiku of docs' }).checked).toBe(false));
  });

  it('shows nothing for a server without skills', async () => {
    bind({ offered: false, skills: [] });
    const { container } = render(<ServerSkills server={server} />);
    await waitFor(() => expect(container.textContent).toBe(''));
  });
});

describe('SkillLoaded', () => {
  const call = (over: Partial<host.ToolCallView>) => ({ id: 'c1', index: 0, name: 'load_skill', args: '{"name":"haiku"}', status: 'done', ...over }) as host.ToolCallView;
  it('says which skill of which server was loaded', () => {
    render(<SkillLoaded call={call({ result: { content: [], structured: '{"skill":"haiku","server":"poems","file":"SKILL.md","size":10}' } as unknown as host.ToolCallView['result'] })} />);
    expect(screen.getByTestId('skill-loaded').textContent).toBe('Loaded skill haiku from poems');
  });
  it('says which file was read', () => {
    render(<SkillLoaded call={call({ result: { content: [], structured: '{"skill":"notes","server":"docs","file":"templates/T.md","size":10}' } as unknown as host.ToolCallView['result'] })} />);
    expect(screen.getByTestId('skill-loaded').textContent).toBe('Read templates/T.md of skill notes from docs');
  });
  it('says why a skill was refused', () => {
    render(<SkillLoaded call={call({ status: 'error', error: 'The tool call failed: poems: skill haiku: SKILL.md: verification failed: its digest is x (the skill is not loaded: do not use it, and tell the user)' })} />);
    expect(screen.getByTestId('skill-loaded').textContent).toBe('Skill haiku was not loaded: poems: skill haiku: SKILL.md: verification failed: its digest is x');
  });
  it('says what the model looked for when it searched the skills', () => {
    render(<SkillLoaded call={call({ args: '{"query":"write a haiku"}' })} />);
    expect(screen.getByTestId('skill-loaded').textContent).toBe('Looked for skills that fit “write a haiku”');
  });
  it('is nothing for other tools', () => {
    const { container } = render(<SkillLoaded call={call({ name: 'docs__read' })} />);
    expect(container.textContent).toBe('');
  });
});
