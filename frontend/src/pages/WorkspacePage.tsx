import { Placeholder } from '../components/Placeholder';

export function WorkspacePage() {
  return (
    <Placeholder title="Workspace">
      <p>The folder the model works in: its files, and a live terminal attached to the same shell sessions the model uses.</p>
    </Placeholder>
  );
}
