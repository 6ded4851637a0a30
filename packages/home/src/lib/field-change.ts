import type { FormEvent } from 'react';
import { messageOf } from './errors';

/**
 * The submit handler of a small form that changes one field of an item (a device's or a zone's name or place): reads
 * the field from the form, refuses an empty name with `nameRequired`, saves it while `setBusy` says so, then tells
 * the notice `save` answers, or puts the refusal (as `refused` words it) beside the field through `fail`.
 */
export function fieldChange<Field extends string>(options: {
  nameRequired: string;
  setBusy: (busy: boolean) => void;
  save: (field: Field, value: string) => Promise<string>;
  notify: (kind: 'info', message: string) => void;
  refused?: (message: string) => string;
}) {
  return async (event: FormEvent<HTMLFormElement>, field: Field, fail: (error: string | null) => void) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(field) ?? '').trim();
    if (field === 'name' && !value) return fail(options.nameRequired);
    fail(null);
    options.setBusy(true);
    try {
      options.notify('info', await options.save(field, value));
    } catch (error) {
      const message = messageOf(error);
      fail(options.refused ? options.refused(message) : message);
    } finally {
      options.setBusy(false);
    }
  };
}
