import { useId } from 'react';
import { MESSAGE_MAX_LENGTH, SUBJECT_MAX_LENGTH } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { FieldValue } from '../../tree/types';
import { writeDraft } from '../hooks/draft';
import { messageField, subjectField } from '../utils/validation';

interface FieldProps {
  value: FieldValue;
  showValidation: boolean;
  /** The validated value after each change; it is also kept as the draft (it survives a reload). */
  onChange: (value: FieldValue) => void;
}

interface TextFieldProps extends Omit<FieldProps, 'onChange'> {
  onChange: (text: string) => void;
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
      {/* A live region: the error is announced as it appears, after a refused submit. */}
      {invalid ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const SubjectField = ({ onChange, ...props }: FieldProps) => (
  <TextField
    {...props}
    onChange={(text) => {
      const field = subjectField(text);
      writeDraft({ subject: field.text });
      onChange(field);
    }}
    label={texts.form.subject}
    name="subject"
    maxLength={SUBJECT_MAX_LENGTH}
    placeholder={texts.subjectPlaceholder}
    error={texts.subjectError}
  />
);

export const MessageField = ({ onChange, ...props }: FieldProps) => (
  <TextField
    {...props}
    onChange={(text) => {
      const field = messageField(text);
      writeDraft({ message: field.text });
      onChange(field);
    }}
    label={texts.form.message}
    name="message"
    maxLength={MESSAGE_MAX_LENGTH}
    placeholder={texts.messagePlaceholder}
    error={texts.messageError}
    multiline
  />
);
