import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { accepts, compatible, hubVersion, versionIntervals } from './compatibility';

describe('app compatibility', () => {
  it('accepts exactly the release versions semver accepts, as intervals the database can compare', () => {
    const ranges = [
      '>=5.0.0',
      '>=12.0.0 <13.0.0',
      '^8.1.0',
      '~12.4.0',
      '12.x',
      '*',
      '',
      '>=8.0.0 <9.0.0 || >=12.2.0',
      '>5.0.0',
      '<=12.4.0',
      '=12.4.0',
      '12.4.0 - 12.6.1',
      '>=12.0.0-rc.1',
      '<12.4.0-beta',
      '>12.4.0-beta <=13.0.0-rc.2',
      '=12.4.0-rc.1',
      '>=13.0.0 <12.0.0',
    ];
    const versions = ['4.9.9', '5.0.0', '5.0.1', '8.0.0', '8.1.0', '8.9.3', '11.9.9', '12.0.0', '12.2.0', '12.4.0'];
    versions.push('12.4.1', '12.5.0', '12.6.1', '12.6.2', '13.0.0', '13.0.1', '14.2.0');
    for (const range of ranges)
      for (const version of versions)
        expect([range, version, accepts(versionIntervals(range), hubVersion(version) as number)]).toEqual([
          range,
          version,
          semver.satisfies(version, range),
        ]);
    expect(versionIntervals('not a range')).toBeNull();
    expect(versionIntervals('>=5.0.0')).toEqual([[5_000_000_000_000, null]]);
  });

  it('judges platform, hub version, model hardware and SDK level', () => {
    const app = { platforms: ['local'], compatibility: '>=12.0.0', platformLocalRequiredFeatures: ['zwave'], sdk: 3 };
    expect(compatible(app, {})).toBe(true);
    expect(compatible(app, { homeyVersion: '12.4.0', homeyModel: 'hearth-pro-5q' })).toBe(true);
    expect(compatible(app, { homeyVersion: '11.0.0' })).toBe(false);
    expect(compatible(app, { homeyPlatform: 'cloud' })).toBe(false);
    expect(compatible(app, { homeyModel: 'hearth-pro-mini-6q' })).toBe(false);
    expect(compatible(app, { homeyModel: 'hearth-cloud' })).toBe(false);
    expect(compatible(app, { homeyModel: 'another-model' })).toBe(true);
    expect(compatible(app, { homeyMinimumSdkVersion: 4 })).toBe(false);
    expect(compatible({ platforms: ['local', 'cloud'] }, { homeyModel: 'hearth-cloud' })).toBe(true);
  });

  it("judges the platform version against the range of the hub's platform, else of any platform the app runs on", () => {
    const two = { platforms: ['local', 'cloud'], platformCompatibility: { local: '>=2' } };
    const one = { platforms: ['local'], platformCompatibility: { local: '^1.0.0' } };
    expect(compatible(two, { homeyPlatformVersion: '2' })).toBe(true);
    expect(compatible(two, { homeyPlatformVersion: '1' })).toBe(true);
    expect(compatible(two, { homeyPlatform: 'local', homeyPlatformVersion: '1' })).toBe(false);
    expect(compatible(two, { homeyModel: 'hearth-cloud', homeyPlatformVersion: '1' })).toBe(true);
    expect(compatible(one, { homeyPlatformVersion: '2' })).toBe(false);
    expect(compatible(one, { homeyPlatform: 'local', homeyPlatformVersion: '1.4' })).toBe(true);
    expect(compatible(one, { homeyPlatform: 'cloud', homeyPlatformVersion: '1' })).toBe(false);
    expect(compatible({ platforms: ['local'] }, { homeyPlatformVersion: '7' })).toBe(true);
  });
});
