import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { asSentence, messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import type { Folder } from './model';

const t = strings.flowManage.folders;

/** A name read from a form, refused when empty, then written by `save`; the hub's refusal shows on the field. */
function useNameForm(save: (name: string) => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (!name) return setError(t.nameRequired);
    setError(null);
    setBusy(true);
    try {
      await save(name);
      form.reset();
    } catch (failure) {
      setError(t.refused(asSentence(messageOf(failure))));
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, submit };
}

/** A folder's heading on the flows page, with its rename form behind a button. */
export function FolderHeading({ folder, headingId }: { folder: Folder; headingId: string }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [renaming, setRenaming] = useState(false);
  const fieldId = `${headingId}-name`;
  const form = useNameForm(async (name) => {
    await hub.flow.updateFlowFolder({ id: folder.id, flowfolder: { name } });
    notify('info', t.renamed(name));
    setRenaming(false);
  });
  return (
    <>
      <div className="page-head">
        <h2 id={headingId}>{folder.name}</h2>
        {renaming ? null : (
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={t.renameName(folder.name)}
            onClick={() => setRenaming(true)}
          >
            {t.rename}
          </button>
        )}
      </div>
      {renaming ? (
        <form className="inline-form" onSubmit={(event) => void form.submit(event)} noValidate>
          <div className="field">
            <label htmlFor={fieldId}>{t.name}</label>
            <input
              id={fieldId}
              name="name"
              defaultValue={folder.name}
              maxLength={200}
              required
              // biome-ignore lint/a11y/noAutofocus: the field the person just asked for
              autoFocus
              {...invalidProps(fieldId, form.error)}
            />
            <FieldError id={fieldId} error={form.error} />
          </div>
          <button type="submit" className="button" disabled={form.busy}>
            {t.save}
          </button>
          <button type="button" className="button button--quiet" onClick={() => setRenaming(false)}>
            {t.cancel}
          </button>
        </form>
      ) : null}
    </>
  );
}

/** Makes a flow folder. */
export function NewFolder() {
  const { hub } = useHub();
  const notify = useNotify();
  const form = useNameForm(async (name) => {
    await hub.flow.createFlowFolder({ flowfolder: { name } });
    notify('info', t.created(name));
  });
  return (
    <section aria-labelledby="folder-new" className="manage">
      <h2 id="folder-new">{t.new}</h2>
      <form className="inline-form" onSubmit={(event) => void form.submit(event)} noValidate>
        <div className="field">
          <label htmlFor="folder-new-name">{t.name}</label>
          <input id="folder-new-name" name="name" maxLength={200} required {...invalidProps('folder-new-name', form.error)} />
          <FieldError id="folder-new-name" error={form.error} />
        </div>
        <button type="submit" className="button" disabled={form.busy}>
          {t.create}
        </button>
      </form>
    </section>
  );
}
