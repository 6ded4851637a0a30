import { type DragEvent, useId, useRef, useState } from 'react';
import { texts } from '../../../config/texts';
import { addFiles } from '../utils/validation';

interface AttachmentsProps {
  files: File[];
  /** Upload progress per file name, 0–1, while sending. */
  progress: Record<string, number>;
  disabled: boolean;
  onChange: (files: File[]) => void;
}

/** Optional attachments: picked or dropped, removable, at most 12 files of at most 50 MB each. */
export function Attachments({ files, progress, disabled, onChange }: AttachmentsProps) {
  const inputId = useId();
  const statusId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const add = (incoming: FileList | null) => {
    if (!incoming) return;
    const result = addFiles(files, [...incoming]);
    setErrors(result.errors);
    onChange(result.files);
    if (input.current) input.current.value = '';
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) add(event.dataTransfer.files);
  };
  return (
    <div className="field attachments">
      <label htmlFor={inputId}>{texts.form.attachments}</label>
      <p className="field__help">{texts.attachmentsHelp}</p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for pointers; the file input inside is the keyboard way */}
      <div
        className={`dropzone${dragging ? ' dropzone--active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        {/* The browser's own picker says "No file chosen" even after files were added (they are kept here, not in
            the input): it is hidden, and a button-like label and the count stand in for it. */}
        <input
          id={inputId}
          ref={input}
          className="visually-hidden file-input"
          type="file"
          multiple
          disabled={disabled}
          aria-describedby={statusId}
          onChange={(e) => add(e.target.files)}
        />
        <label htmlFor={inputId} className="button file-button">
          {texts.form.addFiles}
        </label>
        <span id={statusId} className="dropzone__status">
          {files.length === 0 ? texts.form.noFiles : texts.form.filesAdded(files.length)}
        </span>
        <span className="dropzone__hint" aria-hidden="true">
          {texts.form.orDrop}
        </span>
      </div>
      {errors.map((error) => (
        <p key={error} className="field__error" role="alert">
          {error}
        </p>
      ))}
      {files.length > 0 ? (
        <ul className="attachments__list">
          {files.map((file) => (
            <li key={file.name}>
              <span className="attachments__name">{file.name}</span>
              {progress[file.name] !== undefined ? (
                <progress max={1} value={progress[file.name]} aria-label={texts.form.uploading(file.name)} />
              ) : null}
              <button
                type="button"
                className="button button--small"
                disabled={disabled}
                aria-label={texts.form.remove(file.name)}
                onClick={() => {
                  setErrors([]);
                  onChange(files.filter((f) => f !== file));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
