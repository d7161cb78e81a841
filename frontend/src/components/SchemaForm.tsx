import Form from '@rjsf/core';
import type {
  ArrayFieldItemButtonsTemplateProps,
  ArrayFieldItemTemplateProps,
  ArrayFieldTemplateProps,
  FieldProps,
  IconButtonProps,
  MultiSchemaFieldTemplateProps,
  RegistryFieldsType,
  RJSFSchema,
  RJSFValidationError,
  TemplatesType,
  UiSchema,
} from '@rjsf/utils';
import { Component, createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { formValidator, jsonUiSchema, mergeUi, normalizeSchema } from '../schemaform';
import './SchemaForm.css';

type Data = Record<string, unknown>;

/**
 * SchemaForm is the one form made from a JSON Schema: the Tools page's
 * arguments, a server's elicitation, a template's parameters. It takes the
 * schema as a server sent it (normalizeSchema makes it renderable), shows
 * array items with labelled Add / Remove / Move buttons, and edits what no
 * widget fits (no type, several types, a $ref it cannot follow) as JSON.
 * children are the form's buttons (a submit button among them).
 */
export function SchemaForm(props: FormProps) {
  const { schema, formData, onSubmit, children, label } = props;
  return (
    <FormBoundary schema={schema} fallback={(err) => <JsonArguments error={err} label={label} formData={formData} onSubmit={onSubmit}>{children}</JsonArguments>}>
      <SchemaFormInner {...props} />
    </FormBoundary>
  );
}

type FormProps = {
  schema: unknown;
  uiSchema?: UiSchema;
  formData?: Data;
  onChange?: (data: Data) => void;
  onSubmit: (data: Data) => void;
  children: ReactNode;
  /** The form's accessible name. */
  label?: string;
};

function SchemaFormInner({ schema, uiSchema, formData, onChange, onSubmit, children, label }: FormProps) {
  const normal = useMemo(() => normalizeSchema(schema), [schema]);
  const ui = useMemo(() => mergeUi({ ...jsonUiSchema(normal), 'ui:submitButtonOptions': { norender: true } }, uiSchema as Record<string, unknown>), [normal, uiSchema]);
  const validator = useMemo(formValidator, []);
  // Ids unique on the page: the Tools page can show a tool's form and an elicitation at once.
  const prefix = `sf${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const bad = useRef(new Map<string, HTMLTextAreaElement>());
  return (
    <JsonErrors.Provider value={bad.current}>
      <FormLabel.Provider value={label}>
      <Form
        tagName={LabelledForm}
        className="schema-form"
        schema={normal}
        uiSchema={ui}
        validator={validator}
        formData={formData}
        idPrefix={prefix}
        templates={templates}
        fields={fields}
        showErrorList={false}
        noHtml5Validate
        transformErrors={plainErrors}
        onChange={onChange ? (e) => onChange((e.formData ?? {}) as Data) : undefined}
        onSubmit={(e) => {
          // A JSON field with text that does not parse keeps the last value it
          // had: sending that silently would not be what the person typed.
          const first = bad.current.values().next().value;
          if (first) {
            first.focus();
            return;
          }
          onSubmit((e.formData ?? {}) as Data);
        }}
      >
        {children}
      </Form>
      </FormLabel.Provider>
    </JsonErrors.Provider>
  );
}

/**
 * FormBoundary catches a form library failure on a schema normalizeSchema
 * did not foresee: without it the throw unmounts the whole window (a blank
 * page, an uncaught page error). The person gets JsonArguments instead, and
 * a new schema (another tool) tries the form again.
 */
class FormBoundary extends Component<{ schema: unknown; fallback: (error: string) => ReactNode; children: ReactNode }, { error?: string; schema?: unknown }> {
  state: { error?: string; schema?: unknown } = {};

  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }

  static getDerivedStateFromProps(props: { schema: unknown }, state: { error?: string; schema?: unknown }) {
    return props.schema === state.schema ? null : { schema: props.schema, error: undefined };
  }

  render() {
    return this.state.error === undefined ? this.props.children : this.props.fallback(this.state.error);
  }
}

/** JsonArguments is the form FormBoundary falls back to: the whole value as one JSON object; the server checks it against its schema. */
function JsonArguments({ error, label, formData, onSubmit, children }: { error: string; label?: string; formData?: Data; onSubmit: (data: Data) => void; children: ReactNode }) {
  const id = `sf${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [text, setText] = useState(() => JSON.stringify(formData ?? {}, null, 2));
  const [err, setErr] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('give a JSON object, e.g. {"key": "value"}');
      setErr('');
      onSubmit(v as Data);
    } catch (x) {
      setErr(`Not a JSON object: ${x instanceof Error ? x.message : String(x)}`);
    }
  };
  return (
    <form className="schema-form" aria-label={label} onSubmit={submit} noValidate>
      <p className="small muted" id={`${id}__why`}>The form could not be built from the server's schema ({error}). Give the values as a JSON object; the server checks them.</p>
      <label htmlFor={id}>Values (JSON)</label>
      <textarea id={id} rows={8} spellCheck={false} value={text} aria-describedby={`${id}__why`} aria-invalid={err !== '' || undefined}
        onChange={(e) => setText(e.target.value)} />
      {err && <div className="json-field-error" role="alert">{err}</div>}
      {children}
    </form>
  );
}

/** plainErrors says what Ajv says in the words a person uses: "Folder is required", not "must have required property 'Folder'". */
function plainErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((e) => {
    if (e.name === 'required') {
      const what = e.title ?? String((e.params as { missingProperty?: string } | undefined)?.missingProperty ?? 'This field');
      return { ...e, message: `${what} is required`, stack: `${what} is required` };
    }
    if (e.name === 'format') return { ...e, message: `must be a valid ${String((e.params as { format?: string } | undefined)?.format ?? 'value')}` };
    return e;
  });
}

/** FormLabel is the accessible name of the form element rjsf renders (it passes no aria-label through). */
const FormLabel = createContext<string | undefined>(undefined);
function LabelledForm(props: ComponentProps<'form'>) {
  return <form {...props} aria-label={useContext(FormLabel)} />;
}

/** JsonErrors holds the JSON fields whose text does not parse, by field id. */
const JsonErrors = createContext<Map<string, HTMLTextAreaElement>>(new Map());

/**
 * JsonField edits a value no widget fits as JSON: it parses on every change,
 * says what is wrong inline, and the form takes the value once it parses.
 */
function JsonField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema, name, required } = props;
  const id = fieldPathId.$id;
  const [text, setText] = useState(() => (formData === undefined ? '' : JSON.stringify(formData, null, 2)));
  const [err, setErr] = useState('');
  const bad = useContext(JsonErrors);
  useEffect(() => () => void bad.delete(id), [bad, id]); // a removed item's text no longer holds the form back
  const edit = (t: string, el: HTMLTextAreaElement) => {
    setText(t);
    if (t.trim() === '') {
      setErr('');
      bad.delete(id);
      onChange(undefined, fieldPathId.path, undefined, id);
      return;
    }
    try {
      const v: unknown = JSON.parse(t);
      setErr('');
      bad.delete(id);
      onChange(v, fieldPathId.path, undefined, id);
    } catch (e) {
      setErr(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      bad.set(id, el);
    }
  };
  const title = (schema.title as string | undefined) ?? (name && !/-\d+$/.test(name) ? name : 'Value');
  // Marked by jsonUiSchema, rjsf shows no label of its own (it does for the FallbackField path).
  const own = props.uiSchema?.['ui:field'] === 'json';
  return (
    <div className="json-field">
      {own && <label className="control-label" htmlFor={id}>{title}{required && <span className="required">*</span>}</label>}
      {own && schema.description && <div className="field-description">{schema.description}</div>}
      <textarea
        id={id}
        name={id}
        rows={3}
        spellCheck={false}
        value={text}
        required={required}
        disabled={disabled}
        readOnly={readonly}
        placeholder='JSON, e.g. "text", 42, true, ["a"] or {"key": "value"}'
        aria-label={!own && props.hideLabel ? title : undefined}
        aria-invalid={err !== '' || undefined}
        aria-describedby={err ? `${id}__json-error` : `${id}__json-hint`}
        onChange={(e) => edit(e.target.value, e.target)}
      />
      {err
        ? <div id={`${id}__json-error`} className="json-field-error" role="alert">{err}</div>
        : <div id={`${id}__json-hint`} className="small muted">Any JSON value.</div>}
    </div>
  );
}

/** Button is one labelled text button of the array and object templates. */
function Button({ text, label, className, onClick, disabled, id }: { text: string; label: string; className?: string; onClick?: IconButtonProps['onClick']; disabled?: boolean; id?: string }) {
  return <button type="button" id={id} className={`sf-button ${className ?? ''}`} aria-label={label} onClick={onClick} disabled={disabled}>{text}</button>;
}

/** AddButton adds an array item or, for an object with additionalProperties, a property. */
function AddButton({ id, className, onClick, disabled }: IconButtonProps) {
  const property = className?.includes('object-property');
  const text = property ? 'Add property' : 'Add item';
  return <Button id={id} text={text} label={text} className={`sf-add ${className ?? ''}`} onClick={onClick} disabled={disabled} />;
}

function ItemButtons(p: ArrayFieldItemButtonsTemplateProps) {
  const n = p.index + 1;
  const off = p.disabled || p.readonly;
  return (
    <>
      {(p.hasMoveUp || p.hasMoveDown) && (
        <>
          <Button text="Move up" label={`Move up item ${n}`} onClick={p.onMoveUpItem} disabled={off || !p.hasMoveUp} />
          <Button text="Move down" label={`Move down item ${n}`} onClick={p.onMoveDownItem} disabled={off || !p.hasMoveDown} />
        </>
      )}
      {p.hasCopy && <Button text="Copy" label={`Copy item ${n}`} onClick={p.onCopyItem} disabled={off} />}
      {p.hasRemove && <Button text="Remove" label={`Remove item ${n}`} className="sf-remove" onClick={p.onRemoveItem} disabled={off} />}
    </>
  );
}

function ArrayItem(p: ArrayFieldItemTemplateProps) {
  return (
    <div className="sf-item" role="group" aria-label={`Item ${p.index + 1}`}>
      <div className="sf-item-body">{p.children}</div>
      {p.hasToolbar && <div className="sf-item-tools"><ItemButtons {...p.buttonsProps} /></div>}
    </div>
  );
}

function ArrayTemplate(p: ArrayFieldTemplateProps) {
  const title = (p.uiSchema?.['ui:title'] as string | undefined) ?? p.title;
  const describedBy = p.schema.description ? `${p.fieldPathId.$id}__description` : undefined;
  return (
    <fieldset className="sf-array" id={p.fieldPathId.$id} aria-describedby={describedBy}>
      {title && <legend>{title}{p.required && <span className="required" aria-hidden="true">*</span>}</legend>}
      {p.schema.description && <p id={describedBy} className="small muted field-description">{p.schema.description}</p>}
      {p.optionalDataControl}
      {p.items.length === 0 && <p className="small muted sf-empty">No items.</p>}
      <div className="sf-items">{p.items}</div>
      {p.canAdd && (
        <Button id={`${p.fieldPathId.$id}__add`} text="Add item" label={title ? `Add item to ${title}` : 'Add item'}
          className="sf-add" onClick={p.onAddClick} disabled={p.disabled || p.readonly} />
      )}
    </fieldset>
  );
}

/**
 * Choice is a oneOf/anyOf: a labelled select of the choices (named by
 * normalizeSchema), then the chosen one's field.
 */
function Choice({ selector, optionSchemaField }: MultiSchemaFieldTemplateProps) {
  return (
    <div className="sf-choice">
      {selector && <label className="sf-choice-select"><span>Kind</span>{selector}</label>}
      {optionSchemaField}
    </div>
  );
}

/** Unsupported should not be reached (normalizeSchema leaves JSON fields instead); if it is, it says what to do, not rjsf's dump. */
function Unsupported() {
  return <p className="small muted">This field can only be given as JSON: switch to Raw JSON to set it.</p>;
}

const templates: Partial<TemplatesType> = {
  ArrayFieldTemplate: ArrayTemplate,
  ArrayFieldItemTemplate: ArrayItem,
  ArrayFieldItemButtonsTemplate: ItemButtons,
  UnsupportedFieldTemplate: Unsupported,
  MultiSchemaFieldTemplate: Choice,
  ButtonTemplates: {
    AddButton,
    CopyButton: (p: IconButtonProps) => <Button text="Copy" label="Copy" onClick={p.onClick} disabled={p.disabled} />,
    MoveUpButton: (p: IconButtonProps) => <Button text="Move up" label="Move up" onClick={p.onClick} disabled={p.disabled} />,
    MoveDownButton: (p: IconButtonProps) => <Button text="Move down" label="Move down" onClick={p.onClick} disabled={p.disabled} />,
    RemoveButton: (p: IconButtonProps) => <Button text="Remove" label="Remove" className="sf-remove" onClick={p.onClick} disabled={p.disabled} />,
    ClearButton: (p: IconButtonProps) => <Button text="Clear" label="Clear" onClick={p.onClick} disabled={p.disabled} />,
    SubmitButton: () => null,
  },
} as Partial<TemplatesType>;

const fields: RegistryFieldsType = { FallbackField: JsonField, json: JsonField };

export type { RJSFSchema };
