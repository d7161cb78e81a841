import { useState } from 'react';
import { call, OpenConfigFile } from '../../backend';
import { message } from '../../errors';
import './ServerEditor.css';

/**
 * useConfigFile is "Open config file": a button that opens config.json in
 * the system's editor, and a line that shows its path (with Copy path)
 * once pressed, or why it could not be opened.
 */
export function useConfigFile() {
  const [path, setPath] = useState('');
  const [err, setErr] = useState('');
  const [copied, setCopied] = useState(false);
  const open = () => {
    setErr('');
    setCopied(false);
    call(() => OpenConfigFile()).then(setPath, (e: unknown) => setErr(message(e)));
  };
  const copy = () => {
    void navigator.clipboard?.writeText(path).then(() => setCopied(true), () => undefined);
  };
  const button = <button type="button" onClick={open}>Open config file</button>;
  const line = (path || err) ? (
    <div className="config-file" role="status">
      {err ? <span className="bad">{err}</span> : <span>Opened in your editor: </span>}
      {path && <code>{path}</code>}
      {path && <button type="button" className="small-btn" onClick={copy}>{copied ? 'Copied' : 'Copy path'}</button>}
      <button type="button" className="link small" onClick={() => { setPath(''); setErr(''); }}>Dismiss</button>
    </div>
  ) : null;
  return { button, line };
}
