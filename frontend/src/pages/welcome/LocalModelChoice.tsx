import { useState } from 'react';
import type { gui } from '../../backend';

/**
 * LocalModelChoice is one model server running on this machine (Ollama, LM
 * Studio) on the welcome page: which model chats will use — its models to
 * choose from, a chat model chosen to start with (the Go side skips
 * embedding models) — and Use.
 */
export function LocalModelChoice({ server: m, onUse }: { server: gui.LocalModel; onUse: (model: string) => void }) {
  const [model, setModel] = useState(m.default || m.models[0] || '');
  const id = `local-model-${m.name.replace(/\W+/g, '-')}`;
  return (
    <li className="local-model-choice">
      <span>
        <strong>{m.name}</strong> is running on this machine
        {m.models.length === 0 && ' (no model installed yet: pull one, then come back)'}
      </span>
      {m.models.length > 0 && (
        <label htmlFor={id} className="small">
          Model
          <select id={id} value={model} onChange={(e) => setModel(e.target.value)}>
            {m.models.map((x) => <option key={x} value={x}>{x}{/embed/i.test(x) ? ' (embeddings, not for chat)' : ''}</option>)}
          </select>
        </label>
      )}
      <button type="button" className="primary" onClick={() => onUse(model)}>Use {m.name}</button>
    </li>
  );
}
