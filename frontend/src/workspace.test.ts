import { describe, expect, it } from 'vitest';
import { parseTree } from './pages/workspace/WorkspacePage';

describe('parseTree', () => {
  it('reads the tree tool listing into paths with depths', () => {
    const text = './\n  docs/\n    guide.md\n    img/\n      a.png\n  link -> ../x\n  main.go\n[2 ignored entries not shown]';
    expect(parseTree(text)).toEqual([
      { path: 'docs', dir: true, depth: 0 },
      { path: 'docs/guide.md', dir: false, depth: 1 },
      { path: 'docs/img', dir: true, depth: 1 },
      { path: 'docs/img/a.png', dir: false, depth: 2 },
      { path: 'link', dir: false, depth: 0 },
      { path: 'main.go', dir: false, depth: 0 },
    ]);
  });
});
