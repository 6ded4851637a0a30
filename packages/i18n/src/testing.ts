export { missingKeys } from './keys';
