// The bundle install form's rules, shared by the Servers page's form
// (pages/servers/BundleInstall) and the registry's bundle packages
// (components/RegistryBrowse): values to start with, what it refuses
// before asking the Go side.
import type { gui } from './backend';

type Form = gui.BundleForm;

/** isBundle: a file name an MCP Bundle has. */
export function isBundle(name: string): boolean {
  return /\.(mcpb|dxt)$/i.test(name);
}

/** startValues: the form's first values, one empty field for a multiple option without any. */
export function startValues(f: Form): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const o of f.options) out[o.key] = o.values.length > 0 ? [...o.values] : [''];
  return out;
}

/** confirming: the form lists differences from the installed copy, so its button confirms them ("Install anyway"). */
export function confirming(f: Form): boolean {
  return f.signed !== 'invalid' && f.changes.length > 0;
}

/** installable: nothing refuses the bundle (its archive, its signature, this computer); its values apart. */
export function installable(f: Form): boolean {
  return f.refused === '' && f.incompatible === '' && f.signed !== 'invalid';
}

/** problems: what the form would refuse before asking the Go side (required, min/max). */
export function problems(f: Form, values: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const o of f.options) {
    const v = (values[o.key] ?? []).filter((x) => x !== '');
    if (o.required && v.length === 0 && !o.kept) out.push(`${o.title} is required`);
    if (o.type === 'number') {
      for (const x of v) {
        const n = Number(x);
        if (Number.isNaN(n)) out.push(`${o.title}: ${x} is not a number`);
        else if ((o.hasMin && n < o.min) || (o.hasMax && n > o.max)) out.push(`${o.title}: ${x} is outside ${o.hasMin ? o.min : '…'}–${o.hasMax ? o.max : '…'}`);
      }
    }
  }
  return out;
}

