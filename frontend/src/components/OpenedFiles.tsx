import { useWelcome } from '../welcome';

/**
 * OpenedFiles shows the files handed to the window (a .mcpb opened from the
 * file manager, or given to a second launch) above the Servers page, where
 * bundles are installed.
 */
export function OpenedFiles() {
  const opened = useWelcome((s) => s.opened);
  if (opened.length === 0) return null;
  return (
    <ul className="notice opened-files" role="status" aria-label="Opened files">
      {opened.map((f, i) => (
        <li key={`${i}-${f}`}>Opened <code>{f}</code></li>
      ))}
    </ul>
  );
}
