import type { buildinfo } from '../backend';

/**
 * ThirdPartyLicences lists what ships beside the app under its own licence
 * (the local model runtime: llama.cpp and the code it vendors), each with its
 * licence, copyright line and home page, in a disclosure About opens on demand.
 */
export function ThirdPartyLicences({ notices }: { notices: buildinfo.Notice[] | null | undefined }) {
  if (!notices?.length) return null;
  return (
    <details className="third-party">
      <summary>Third-party licences ({notices.length})</summary>
      <p className="muted small">The local model runtime (llama.cpp&apos;s llama-server) is made of:</p>
      <ul aria-label="Third-party licences">
        {notices.map((n) => (
          <li key={n.name}>
            <strong>{n.name}</strong> — {n.licence}
            <div className="muted small">{n.copyright} · <code>{n.url}</code></div>
          </li>
        ))}
      </ul>
    </details>
  );
}
