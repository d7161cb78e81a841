import type { PageId } from '../pages';

// Simple line icons, drawn in currentColor so they follow the theme.
const PATHS: Record<PageId, string> = {
  chat: 'M4 5h16v10H9l-5 4z',
  servers: 'M4 4h16v6H4zM4 14h16v6H4zM7 7h.01M7 17h.01',
  tools: 'M14 6a4 4 0 0 0 5 5l-8 8a2 2 0 0 1-3-3l8-8a4 4 0 0 0-2-2z',
  knowledge: 'M5 4h10l4 4v12H5zM15 4v4h4M8 12h8M8 16h6',
  workspace: 'M3 6h7l2 2h9v11H3zM7 13l2 2-2 2M12 17h4',
  settings: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v3M12 19v3M2 12h3M19 12h3M5 5l2 2M17 17l2 2M5 19l2-2M17 7l2-2',
};

export function NavIcon({ page }: { page: PageId }) {
  return (
    <svg className="nav-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={PATHS[page]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
