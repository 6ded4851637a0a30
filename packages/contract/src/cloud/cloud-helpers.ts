import { type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';

/** What the `cloud` service's declarations share (not exported from the package: the schemas built from them are). */
export const op = cloudService('cloud', '/cloud');

export const open = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: true });
export const Id = Type.String({ minLength: 1, maxLength: 200 });
export const OptionalString = Type.Optional(Type.String());
export const DateTime = Type.String({ format: 'date-time' });
export const UserIdParams = Type.Object({ userId: Id });
