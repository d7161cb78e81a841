import { Placeholder } from '../components/Placeholder';

export function SettingsPage() {
  return (
    <Placeholder title="Settings">
      <p>Model providers, API keys (kept in your OS keyring, never on disk) and the approval policy for tools.</p>
    </Placeholder>
  );
}
