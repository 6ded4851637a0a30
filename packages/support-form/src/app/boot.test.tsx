import { screen } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServices } from '../testing/fakes';
import { boot } from './boot';

describe('boot', () => {
  it('a browser without fetch gets the alert and no form', () => {
    const root = document.createElement('div');
    const alert = vi.fn();
    expect(boot(root, { alert, location: window.location }, 'http://cloud.test', fakeServices())).toBe(false);
    expect(alert).toHaveBeenCalledWith('Your browser is not supported. Please contact support by e-mail at support@hearth.app.');
    expect(root.innerHTML).toBe('');
  });

  it('a browser with fetch gets the form', async () => {
    const root = document.createElement('div');
    document.body.append(root);
    await act(async () => {
      boot(root, { alert: vi.fn(), location: window.location, fetch: () => undefined }, 'http://cloud.test', fakeServices());
    });
    expect(await screen.findByRole('heading', { name: 'Hi Ada, how can we help?' })).toBeTruthy();
    root.remove();
  });
});
