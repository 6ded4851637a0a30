/** Business constants and limits (seed section 9). The server validates the same limits. */
export const MESSAGE_MIN_LENGTH = 20;
export const MESSAGE_MAX_LENGTH = 10_000;
export const SUBJECT_MIN_LENGTH = 1;
export const SUBJECT_MAX_LENGTH = 200;
export const MAX_ATTACHMENTS = 12;
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
export const DIAGNOSTIC_REPORT_TIMEOUT_MS = 30_000;
export const UNDER_VOLTAGE_THRESHOLD = 0.2;
export const MOBILE_MEDIA_QUERY = '(hover: none), (max-width: 991px)';
export const SCROLL_OFFSET_PX = 120;
export const DEVICE_GROUPS_OPEN_DELAY_MS = 400;
/** Hub models with add-on ports and an under-voltage sensor: codes ending in 5q, 6q or 7q. */
export const SPECIAL_MODEL_PATTERN = /[567]q$/;

/** The provider's own five trusted app authors: their apps are supported by the provider itself. */
export { TRUSTED_APP_AUTHOR_IDS as TRUSTED_AUTHOR_IDS } from '@hearth/contract/provider';

/** Hosts of the provider's own support site: a support link there means "contact Hearth support". */
export const PROVIDER_SUPPORT_HOSTS: readonly string[] = ['support.hearth.app', 'support.hearth.test'];

export const COMMUNITY_URL = 'https://community.hearth.app';
export const communityTopicUrl = (topicId: string | number) => `${COMMUNITY_URL}/t/${topicId}`;

/** Local storage key of what the customer typed (subject and message survive a reload). */
export const DRAFT_STORAGE_KEY = 'hearth-support-form:draft';
