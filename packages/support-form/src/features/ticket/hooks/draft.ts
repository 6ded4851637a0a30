import { DRAFT_STORAGE_KEY } from '../../../config/constants';

export interface Draft {
  subject: string;
  message: string;
}

/** What the customer typed, kept in local storage so it survives a reload and a failed send. */
export function readDraft(): Draft {
  try {
    const value = JSON.parse(localStorage.getItem(DRAFT_STORAGE_KEY) ?? '{}') as Partial<Draft>;
    return {
      subject: typeof value.subject === 'string' ? value.subject : '',
      message: typeof value.message === 'string' ? value.message : '',
    };
  } catch {
    return { subject: '', message: '' };
  }
}

export function writeDraft(draft: Partial<Draft>): void {
  try {
    localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ ...readDraft(), ...draft }));
  } catch {
    // storage full or disabled: the text stays in the form
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}
