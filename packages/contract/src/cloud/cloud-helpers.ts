import { Type } from 'typebox';
import { cloudService } from '../operation';

export { DateTime, open } from './schemas';

/** What the `cloud` service's declarations share (not exported from the package: the schemas built from them are). */
export const op = cloudService('cloud', '/cloud');

export const Id = Type.String({ minLength: 1, maxLength: 200 });
export const OptionalString = Type.Optional(Type.String());
export const UserIdParams = Type.Object({ userId: Id });
