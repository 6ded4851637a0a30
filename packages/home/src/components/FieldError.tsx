/** The attributes that tie a field to its error message (`<id>-error`), when it has one. */
export const invalidProps = (id: string, error: string | null | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

/** A field's error, right under it, read with the field (see invalidProps). */
export function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  return error ? (
    <span id={`${id}-error`} className="form-error">
      {error}
    </span>
  ) : null;
}

/** A form's own error (the hub's reason for refusing it), announced when it appears. */
export function FormError({ error }: { error: string | null | undefined }) {
  return error ? (
    <p role="alert" className="form-error">
      {error}
    </p>
  ) : null;
}
