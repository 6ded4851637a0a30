import type { Manager } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';

const t = strings.variables;

interface Variable {
  id: string;
  name: string;
  type: string;
  value: string | number | boolean;
}

/** The hub stores the newer description's single letters as given: each of them is the number type. */
const kindOf = (variable: Variable): 'boolean' | 'string' | 'number' =>
  variable.type === 'boolean' ? 'boolean' : variable.type === 'string' ? 'string' : 'number';

/** A field's text as the variable's value: a number must read as one. */
function parseValue(kind: 'boolean' | 'string' | 'number', text: string): { value: string | number | boolean } | null {
  if (kind === 'string') return { value: text };
  if (kind === 'boolean') return { value: text === 'true' };
  const number = Number(text);
  return text.trim() === '' || !Number.isFinite(number) ? null : { value: number };
}

function VariableRow({ variable }: { variable: Variable }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  const kind = kindOf(variable);
  const fieldId = `variable-${variable.id}`;

  async function write(value: string | number | boolean) {
    try {
      await hub.logic.updateVariable({ id: variable.id, variable: { value } });
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parseValue(kind, String(new FormData(event.currentTarget).get('value') ?? ''));
    if (!parsed) return setError(t.notANumber);
    await write(parsed.value);
  }
  async function remove(): Promise<boolean> {
    try {
      await hub.logic.deleteVariable({ id: variable.id });
      notify('info', strings.deleting.done(variable.name));
      return false;
    } catch (failure) {
      notify('error', t.refused(variable.name, messageOf(failure)));
      return true;
    }
  }

  return (
    <li className="row variable" data-variable-id={variable.id}>
      {kind === 'boolean' ? (
        <span className="row__main">
          <strong id={`${fieldId}-name`}>{variable.name}</strong>
          <button
            type="button"
            role="switch"
            aria-checked={variable.value === true}
            aria-labelledby={`${fieldId}-name`}
            className={`switch${variable.value === true ? ' switch--on' : ''}`}
            onClick={() => void write(variable.value !== true)}
          >
            <span className="switch__label">{variable.value === true ? t.yes : t.no}</span>
          </button>
          <FieldError id={fieldId} error={error} />
        </span>
      ) : (
        <form className="inline-form row__main" onSubmit={(event) => void submit(event)} noValidate>
          <div className="field">
            <label htmlFor={fieldId}>{variable.name}</label>
            <input
              id={fieldId}
              name="value"
              inputMode={kind === 'number' ? 'decimal' : undefined}
              defaultValue={String(variable.value)}
              key={String(variable.value)}
              {...invalidProps(fieldId, error)}
            />
            <FieldError id={fieldId} error={error} />
          </div>
          <button type="submit" className="button button--small" aria-label={t.setName(variable.name)}>
            {t.set}
          </button>
        </form>
      )}
      <span className="row__actions">
        <ConfirmDelete name={variable.name} onConfirm={remove} />
      </span>
    </li>
  );
}

function NewVariable() {
  const { hub } = useHub();
  const [errors, setErrors] = useState<{ name?: string; value?: string; form?: string }>({});
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const type = String(data.get('type')) as 'boolean' | 'string' | 'number';
    const parsed = parseValue(type, String(data.get('value') ?? (type === 'boolean' ? 'false' : '')));
    const found = { name: name ? undefined : t.nameRequired, value: parsed ? undefined : t.notANumber };
    setErrors(found);
    if (!name || !parsed) return;
    try {
      await hub.logic.createVariable({ variable: { name, type, value: parsed.value } });
      form.reset();
    } catch (failure) {
      setErrors({ form: messageOf(failure) });
    }
  }
  return (
    <form className="card" onSubmit={(event) => void create(event)} noValidate>
      <h2>{t.new}</h2>
      <div className="field">
        <label htmlFor="new-variable-name">{t.name}</label>
        <input id="new-variable-name" name="name" maxLength={100} {...invalidProps('new-variable-name', errors.name)} />
        <FieldError id="new-variable-name" error={errors.name} />
      </div>
      <div className="field">
        <label htmlFor="new-variable-type">{t.type}</label>
        <select id="new-variable-type" name="type" defaultValue="number">
          <option value="number">{t.types.number}</option>
          <option value="boolean">{t.types.boolean}</option>
          <option value="string">{t.types.string}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="new-variable-value">{t.value}</label>
        <input id="new-variable-value" name="value" {...invalidProps('new-variable-value', errors.value)} />
        <span className="muted">{t.valueHint}</span>
        <FieldError id="new-variable-value" error={errors.value} />
      </div>
      {errors.form ? (
        <p role="alert" className="form-error">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" className="button">
        {t.create}
      </button>
    </form>
  );
}

/** The home's Logic variables, live: each set by its type, created and deleted here. */
export function VariablesPage() {
  const { hub } = useHub();
  const variables = useLiveItems<Variable>(hub.manager('logic') as Manager, 'variable');
  if (variables.state === 'failed') return <Failed error={variables.error} title={t.title} />;
  if (variables.state === 'loading') return <Loading title={t.title} />;
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      {variables.items.length === 0 ? <p>{t.empty}</p> : null}
      <ul className="rows">
        {[...variables.items]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((variable) => (
            <VariableRow key={variable.id} variable={variable} />
          ))}
      </ul>
      <NewVariable />
    </>
  );
}
