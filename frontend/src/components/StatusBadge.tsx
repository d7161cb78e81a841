// StatusBadge shows a server state as colour plus text (never colour alone).
const LABELS: Record<string, string> = {
  ready: 'Ready',
  starting: 'Starting',
  installing: 'Installing',
  restarting: 'Restarting',
  error: 'Error',
  stopped: 'Stopped',
  disabled: 'Disabled',
  'needs-login': 'Needs login',
};

export function StatusBadge({ state }: { state: string }) {
  return (
    <span className={`badge badge-${state}`} data-state={state}>
      <span className="dot" aria-hidden="true" />
      {LABELS[state] ?? state}
    </span>
  );
}
