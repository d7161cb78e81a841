import type { gui } from '../../backend';

const label: Record<string, string> = { version: 'Version (older)', author: 'Author', signer: 'Signature', command: 'Command' };

/** changesCommand: whether the bundle runs another command than the installed copy (its tools are then reviewed again). */
export function changesCommand(changes: gui.BundleChange[]): boolean {
  return changes.some((c) => c.what === 'command');
}

/**
 * BundleChanges shows how a bundle differs from the installed copy (an
 * older version, who made, signed or runs it) before the user confirms a
 * reinstall: each
 * difference as was → now, and what a new command costs (its tools are
 * withheld until reviewed again).
 */
export function BundleChanges({ changes }: { changes: gui.BundleChange[] }) {
  if (changes.length === 0) return null;
  return (
    <section className="bundle-changes" aria-labelledby="bundle-changes-title">
      <h3 id="bundle-changes-title">Not the bundle you installed</h3>
      <p className="small">
        This copy differs from the installed one: an older version, or another author, signer or command. Install it only if you expected this change.
        {changesCommand(changes) && ' It runs another command: its tools are withheld until you review them again, and “always allow” for them is dropped.'}
      </p>
      <dl>
        {changes.map((c) => (
          <div key={c.what} className="bundle-change">
            <dt>{label[c.what] ?? c.what}</dt>
            <dd>
              <div><span className="muted">was</span> <code>{c.was || '(none)'}</code></div>
              <div><span className="muted">now</span> <code>{c.now || '(none)'}</code></div>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
