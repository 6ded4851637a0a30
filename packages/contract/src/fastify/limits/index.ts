export { addressKey } from './address';
export { RATE_LIMIT_HEADERS, RateLimited, type RatePolicy, type RateState, writeRateLimitFields } from './headers';
export {
  DEFAULT_RATE_LIMITS,
  installRateLimits,
  RateLimiter,
  type RateLimitOptions,
  type RateLimits,
  rateLimitProblems,
  rateLimitsFromEnv,
} from './rate-limit';
export { SIGN_IN_RULES, type SignInRules, SignInThrottle } from './signin-throttle';
export { type Admission, type Gate, type LimitStore, MemoryLimitStore, type WindowCount } from './store';
