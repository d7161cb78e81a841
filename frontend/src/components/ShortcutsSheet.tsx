import { useRef } from 'react';
import { useDismiss } from '../dismiss';
import { SHORTCUTS } from '../shortcuts.gen';
import { isMac, keysLabel, openSheet, useRequests } from '../shortcuts';

const GROUPS: { menu: string; title: string }[] = [
  { menu: 'File', title: 'File' },
  { menu: 'Go', title: 'Pages' },
  { menu: 'Help', title: 'Help' },
  { menu: '', title: 'In the chat' },
];

/**
 * ShortcutsSheet is Help → Keyboard shortcuts: every shortcut of the one table
 * (app/gui/shortcuts.go), as this computer writes it and as macOS does, the
 * keys of this platform first.
 */
export function ShortcutsSheet() {
  const open = useRequests((r) => r.sheet);
  const close = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(open, () => openSheet(false), { panel, initial: close, modal: true, preventScroll: true });
  if (!open) return null;
  const [here, there] = isMac ? ['macOS', 'Windows and Linux'] : ['Windows and Linux', 'macOS'];
  return (
    <div className="modal-backdrop" onClick={(e) => { if (e.target === e.currentTarget) openSheet(false); }}>
      <div className="card shortcuts-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" ref={panel}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <div className="shortcuts-groups">
          {GROUPS.map((g) => {
            const rows = SHORTCUTS.filter((s) => s.menu === g.menu && s.keys);
            if (rows.length === 0) return null;
            return (
              <table key={g.title} className="shortcuts-table" aria-label={g.title}>
                <thead>
                  <tr><th scope="col">{g.title}</th><th scope="col">{here}</th><th scope="col">{there}</th></tr>
                </thead>
                <tbody>
                  {rows.map((s) => (
                    <tr key={s.id}>
                      <th scope="row">{s.label}</th>
                      <td><kbd>{keysLabel(s.keys, isMac)}</kbd></td>
                      <td><kbd>{keysLabel(s.keys, !isMac)}</kbd></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          })}
        </div>
        <div className="wizard-actions">
          <button type="button" ref={close} onClick={() => openSheet(false)}>Close</button>
        </div>
      </div>
    </div>
  );
}
