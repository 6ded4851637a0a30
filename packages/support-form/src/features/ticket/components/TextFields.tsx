import { useId } from 'react';
import { MESSAGE_MAX_LENGTH, SUBJECT_MAX_LENGTH } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { FieldValue } from '../../tree/types';

interface FieldProps {
  value: FieldValue;
  showValidation: boolean;
  onChange: (text: string) => void;
}

export function SubjectField({ value, showValidation, onChange }: FieldProps) {
  const id = useId();
  const invalid = showValidation && !value.valid;
  return (
    <div className="field">
      <label htmlFor={id}>Subject</label>
      <input
        id={id}
        name="subject"
        type="text"
        value={value.text}
        maxLength={SUBJECT_MAX_LENGTH}
        placeholder={texts.subjectPlaceholder}
        required
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {invalid ? (
        <p id={`${id}-error`} className="field__error">
          {texts.subjectError}
        </p>
      ) : null}
    </div>
  );
}

export function MessageField({ value, showValidation, onChange }: FieldProps) {
  const id = useId();
  const invalid = showValidation && !value.valid;
  return (
    <div className="field">
      <label htmlFor={id}>Message</label>
      <textarea
        id={id}
        name="message"
        rows={8}
        value={value.text}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder={texts.messagePlaceholder}
        required
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {invalid ? (
        <p id={`${id}-error`} className="field__error">
          {texts.messageError}
        </p>
      ) : null}
    </div>
  );
}
