import type { PageId } from '../pages';

// Simple line icons, drawn in currentColor so they follow the theme.
const PATHS: Record<PageId, string> = {
  chat: 'M4 5h16v10H9l-5 4z',
  servers: 'M4 4h16v6H4zM4 14h16v6H4zM7 7h.01M7 17h.01',
  tools: 'M14.5 4a4.5 4.5 0 0 0-4.2 6.1l-5.7 5.7a1.8 1.8 0 0 0 2.6 2.6l5.7-5.7A4.5 4.5 0 0 0 19 8.5l-2.6 2.6-2.8-.7-.7-2.8L15.5 4.1z',
  knowledge: 'M5 4h10l4 4v12H5zM15 4v4h4M8 12h8M8 16h6',
  workspace: 'M3 6h7l2 2h9v11H3zM7 13l2 2-2 2M12 17h4',
  agents: 'M12 4a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM6 20a6 6 0 0 1 12 0M4 9a2 2 0 1 0 0 .1M20 9a2 2 0 1 0 0 .1',
  skills: 'M6 4h9l3 3v13H6zM9 10h6M9 14h6M9 18h3',
  apps: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 17h6M17 14v6',
  settings: 'M4 7h8M18 7h2M4 17h2M12 17h8M15 5a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM9 15a2 2 0 1 0 0 4 2 2 0 0 0 0-4z',
};

export function NavIcon({ page }: { page: PageId }) {
  return (
    <svg className="nav-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={PATHS[page]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
