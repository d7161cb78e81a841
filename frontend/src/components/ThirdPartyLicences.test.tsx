import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { ThirdPartyLicences } from './ThirdPartyLicences';

const notices = [
  { name: 'llama.cpp', licence: 'MIT License', copyright: 'Copyright (c) 2023-2026 The ggml authors', url: 'https://github.com/ggml-org/llama.cpp' },
  { name: 'cpp-httplib', licence: 'MIT License', copyright: 'Copyright (c) 2017 yhirose', url: 'https://github.com/yhirose/cpp-httplib' },
];

describe('ThirdPartyLicences', () => {
  it('lists each component with its licence, copyright and home page behind a closed disclosure', () => {
    const { container } = render(<ThirdPartyLicences notices={notices} />);
    const details = container.querySelector('details');
    expect(details?.open).toBe(false);
    expect(screen.getByText('Third-party licences (2)').tagName).toBe('SUMMARY');
    const items = within(screen.getByRole('list', { name: 'Third-party licences', hidden: true })).getAllByRole('listitem', { hidden: true });
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('llama.cpp — MIT License');
    expect(items[0]?.textContent).toContain('Copyright (c) 2023-2026 The ggml authors');
    expect(items[1]?.textContent).toContain('https://github.com/yhirose/cpp-httplib');
  });

  it('shows nothing when nothing ships beside the app', () => {
    const { container } = render(<ThirdPartyLicences notices={[]} />);
    expect(container.innerHTML).toBe('');
  });
});
