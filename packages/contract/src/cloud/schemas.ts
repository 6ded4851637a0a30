import { type TSchema, Type } from 'typebox';

// Schemas the cloud services' declarations share (not exported from the package: the schemas built from them are).

/** A moment as the wire carries it: an ISO 8601 date-time string. */
export const DateTime = Type.String({ format: 'date-time' });

/** An object with these properties that may carry more: a record a later cloud version may grow. */
export const open = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: true });
