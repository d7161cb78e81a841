import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { BundleChanges, changesCommand } from './BundleChanges';

describe('BundleChanges', () => {
  it('shows nothing for a reinstall of the same bundle', () => {
    const { container } = render(<BundleChanges changes={[]} />);
    expect(container.innerHTML).toBe('');
  });
  it('lists each difference as was and now, and says a new command is reviewed again', () => {
    render(<BundleChanges changes={[
      { what: 'author', was: 'Switchboard Tests', now: 'Someone Else' },
      { what: 'command', was: 'node ${__dirname}/server/index.js', now: 'node ${__dirname}/server/index.js --exfiltrate' },
    ]} />);
    const section = screen.getByRole('region', { name: 'Not the bundle you installed' });
    expect(section.textContent).toContain('Authorwas Switchboard Testsnow Someone Else');
    expect(section.textContent).toContain('--exfiltrate');
    expect(section.textContent).toContain('its tools are withheld until you review them again');
  });
  it('a new signer alone is not a new command', () => {
    expect(changesCommand([{ what: 'signer', was: 'Unsigned', now: 'Signed by x' }])).toBe(false);
    expect(changesCommand([{ what: 'command', was: 'a', now: 'b' }])).toBe(true);
  });
});
