import { useId } from 'react';
import { MESSAGE_MAX_LENGTH, SUBJECT_MAX_LENGTH } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { FieldValue } from '../../tree/types';

interface FieldProps {
  value: FieldValue;
  showValidation: boolean;
  onChange: (text: string) => void;
}

interface TextFieldProps extends FieldProps {
  label: string;
  name: string;
  maxLength: number;
  placeholder: string;
  error: string;
  /** A multi-line text area instead of a single-line input. */
  multiline?: boolean;
}

/** A labelled, required text input whose error shows (and is announced) only after a submit attempt. */
function TextField({ value, showValidation, onChange, label, name, maxLength, placeholder, error, multiline }: TextFieldProps) {
  const id = useId();
  const invalid = showValidation && !value.valid;
  const control = {
    id,
    name,
    value: value.text,
    maxLength,
    placeholder,
    required: true,
    'aria-invalid': invalid,
    'aria-describedby': invalid ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...control} rows={8} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...control} type="text" onChange={(e) => onChange(e.target.value)} />
      )}
      {invalid ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const SubjectField = (props: FieldProps) => (
  <TextField
    {...props}
    label="Subject"
    name="subject"
    maxLength={SUBJECT_MAX_LENGTH}
    placeholder={texts.subjectPlaceholder}
    error={texts.subjectError}
  />
);

export const MessageField = (props: FieldProps) => (
  <TextField
    {...props}
    label="Message"
    name="message"
    maxLength={MESSAGE_MAX_LENGTH}
    placeholder={texts.messagePlaceholder}
    error={texts.messageError}
    multiline
  />
);
