import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { host } from '../../backend';
import { SchemaForm } from '../../components/SchemaForm';
import { paramsSchema, paramValues } from './TemplatePicker';

const param = (p: Partial<host.TemplateParam>): host.TemplateParam => ({ name: 'x', title: '', description: '', type: 'string', default: '', enum: [], required: false, secret: false, format: '', ...p });

describe('a template form is a SchemaForm', { timeout: 30_000 }, () => {
  it('shows the name and each parameter by kind, and sends text values', async () => {
    const params = [
      param({ name: 'path', title: 'Folder', required: true, format: 'directory' }),
      param({ name: 'token', title: 'Token', secret: true }),
      param({ name: 'port', title: 'Port', type: 'integer', default: '8080' }),
      param({ name: 'ro', title: 'Read only', type: 'boolean', default: 'true' }),
      param({ name: 'mode', title: 'Mode', enum: ['a', 'b'], default: 'b' }),
    ];
    const f = paramsSchema('files', params);
    const sent = vi.fn();
    render(<SchemaForm schema={f.schema} uiSchema={f.uiSchema} formData={f.start} label="Add Files" onSubmit={(d) => sent(paramValues(d))}><button type="submit">Add server</button></SchemaForm>);
    const user = userEvent.setup();
    expect((screen.getByRole('textbox', { name: /Server name/ }) as HTMLInputElement).value).toBe('files');
    expect(screen.getByLabelText(/^Token/).getAttribute('type')).toBe('password');
    expect((screen.getByRole('checkbox', { name: /Read only/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    expect(screen.getByText('Folder is required')).toBeTruthy();
    expect(sent).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: /^Folder/ }), '/srv/docs');
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    expect(sent).toHaveBeenLastCalledWith({ name: 'files', values: { path: '/srv/docs', port: '8080', ro: 'true', mode: 'b' } });
  });
});
