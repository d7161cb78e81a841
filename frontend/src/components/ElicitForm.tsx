import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { answerElicit, type Elicit } from '../chat';
import { ExternalLink } from './ExternalLink';

/** ElicitForm renders a server's elicitation request as a form built from its schema, defaults filled in. */
export function ElicitForm({ req }: { req: Elicit }) {
  return (
    <div className="approval-card elicit" role="dialog" aria-label={`Request from ${req.server}`} data-testid="elicit-form">
      <p><strong>{req.server}</strong> asks: {req.message}</p>
      {req.mode === 'url' ? (
        <>
          <p><ExternalLink href={req.url}>{req.url}</ExternalLink></p>
          <div className="row">
            <button type="button" className="primary" onClick={() => void answerElicit(req.id, 'accept')}>Done</button>
            <button type="button" onClick={() => void answerElicit(req.id, 'decline')}>Decline</button>
          </div>
        </>
      ) : (
        <Form
          schema={(req.schema ?? { type: 'object' }) as RJSFSchema}
          validator={validator}
          onSubmit={({ formData }) => void answerElicit(req.id, 'accept', formData ?? {})}
        >
          <div className="row">
            <button type="submit" className="primary">Send</button>
            <button type="button" onClick={() => void answerElicit(req.id, 'decline')}>Decline</button>
            <button type="button" onClick={() => void answerElicit(req.id, 'cancel')}>Cancel</button>
          </div>
        </Form>
      )}
    </div>
  );
}
