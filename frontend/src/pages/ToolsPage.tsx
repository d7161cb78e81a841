import { Placeholder } from '../components/Placeholder';

export function ToolsPage() {
  return (
    <Placeholder title="Tools">
      <p>The tool playground: pick a server and one of its tools, fill in the form generated from its schema, run it and see the result.</p>
    </Placeholder>
  );
}
