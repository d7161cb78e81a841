import { Placeholder } from '../components/Placeholder';

export function KnowledgePage() {
  return (
    <Placeholder title="Knowledge">
      <p>Full-text content stores: add documents, search them, and let the model search and read them too.</p>
    </Placeholder>
  );
}
