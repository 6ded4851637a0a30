import { type Fetcher, skippingClock } from '@hearth/contract/testing';
import { afterAll, beforeAll } from 'vitest';
import type { Cloud } from '../../server';
import { DEMO_CLIENTS, describeOnDatabases, describeOnLimitStores, startTestCloud, tokenRequest } from '../../testing';

/** What a sign-in throttle test has: its cloud (started before the suite) and the password grant from an address. */
export interface ThrottleSuite {
  cloud: Cloud;
  password(email: string, secret: string, via: Fetcher): Promise<Response>;
  /** Moves the cloud's clock forward by `ms` instead of sleeping through a hold (`failRepeatedly`'s wait). */
  skip(ms: number): Promise<void>;
}

/**
 * Declares the sign-in throttle's tests once per database and limit store, on one cloud per combination. The
 * throttle's suites are split over files (by address, by account) so they run side by side.
 */
export function describeSignInThrottle(name: string, limitsName: string, cases: (suite: ThrottleSuite) => void): void {
  describeOnDatabases(name, (backend) => {
    describeOnLimitStores(limitsName, (overrides) => {
      // The holds are measured on the cloud's clock, in-process and in Redis alike: the tests move it past them
      // instead of sleeping.
      const { clock, skip } = skippingClock();
      const suite = {
        password: (email: string, secret: string, via: Fetcher) =>
          tokenRequest(suite.cloud, { grant_type: 'password', username: email, password: secret }, DEMO_CLIENTS.demo, via),
        skip,
      } as ThrottleSuite;
      beforeAll(async () => {
        suite.cloud = await startTestCloud(backend, overrides, { clock });
      });
      afterAll(() => suite.cloud.stop());
      cases(suite);
    });
  });
}
