import { APIError, OfflineError } from '@hearth/client/browser';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../app/App';
import { fakeHubClient, fakeServices, proHub } from '../../testing/fakes';

const proHubApps = proHub.apps;

const renderApp = (services = fakeServices()) => {
  render(<App services={services} knowledgeBaseUrl="http://kb.test/" />);
  return services;
};
const step = (name: string) => {
  const sections = document.querySelectorAll<HTMLElement>(`section[data-step="${name}"]`);
  const last = sections[sections.length - 1];
  if (!last) throw new Error(`no step ${name}`);
  return within(last);
};
const steps = () =>
  [...document.querySelectorAll('section[data-step]:not([data-step="placeholder"])')].map((s) => s.getAttribute('data-step'));

async function expectAccessible() {
  const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
}

describe('screens', () => {
  it('shows the loading screen, then the login screen when signed out', async () => {
    let resolve!: (v: boolean) => void;
    const services = fakeServices({ init: () => new Promise((r) => (resolve = r)) });
    renderApp(services);
    expect(screen.getByText('Help is on the way...')).toBeTruthy();
    await act(async () => resolve(false));
    expect(screen.getByRole('heading', { name: 'How can we help?' })).toBeTruthy();
    expect(screen.getByText('Please sign in so we can help you best.')).toBeTruthy();
    expect(screen.getByRole('link', { name: "Can't sign in?" }).getAttribute('href')).toBe('http://kb.test/cant-sign-in');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(services.signIn).toHaveBeenCalled();
    await expectAccessible();
  });

  it('greets the user and lists account, hubs, orders and subscriptions with the placeholder step', async () => {
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Hi Ada, how can we help?' })).toBeTruthy();
    const main = step('mainCategory');
    expect(main.getByRole('heading', { name: "What's your question about?" })).toBeTruthy();
    for (const group of ['My Account', 'My hubs', 'My Orders', 'My Subscriptions'])
      expect(main.getByRole('group', { name: group })).toBeTruthy();
    expect(main.getByRole('button', { name: /Ada Lovelace/ })).toBeTruthy();
    expect(main.getByRole('button', { name: /Home/ })).toBeTruthy();
    expect(main.getByRole('button', { name: "My hub isn't listed" })).toBeTruthy();
    expect(main.getByRole('button', { name: /Order #1001.*2 May 2025/ })).toBeTruthy();
    expect(main.getByRole('button', { name: "My order isn't listed" })).toBeTruthy();
    expect(main.getByRole('button', { name: /Since 1 March 2025/ })).toBeTruthy();
    expect(main.getByRole('button', { name: "My subscription isn't listed" })).toBeTruthy();
    expect(screen.getByText('Select one of the above options.')).toBeTruthy();
    await expectAccessible();
  });
});

describe('paths through the form', () => {
  it('account → Other → ticket: validation after a submit attempt, then the ticket is sent with its payload', async () => {
    const services = renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    expect(document.activeElement?.textContent).toBe('How can we help you with your account?');
    await user.click(step('accountCategory').getByRole('button', { name: 'Other' }));
    expect(steps()).toEqual(['mainCategory', 'accountCategory', 'ticket']);
    const ticket = step('ticket');
    expect(ticket.getByRole('heading', { name: "We're happy to help." })).toBeTruthy();
    expect(ticket.queryByText('Please add a subject.')).toBeNull();
    // An account ticket carries no hub, so its disclaimer names no hub details or diagnostic report.
    expect(ticket.getByText(/By sending this form/).textContent).not.toMatch(/hub|diagnostic/);
    expect(ticket.getByText('No files added')).toBeTruthy();
    await user.click(ticket.getByRole('button', { name: 'Send' }));
    // Both errors are announced (live regions), both fields are marked invalid, and focus is on the first.
    expect(ticket.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Please add a subject.',
      'A minimum of 20 characters is required to describe your issue.',
    ]);
    const subject = ticket.getByPlaceholderText("What's your question about?");
    expect(subject.getAttribute('aria-invalid')).toBe('true');
    expect(ticket.getByPlaceholderText('Please include as much details as you can.').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(subject);
    expect(services.createTicket).not.toHaveBeenCalled();
    await user.type(ticket.getByPlaceholderText("What's your question about?"), 'My account');
    await user.type(
      ticket.getByPlaceholderText('Please include as much details as you can.'),
      'I cannot change my settings at all.',
    );
    await expectAccessible();
    await user.click(ticket.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Thanks for your message!' });
    expect(
      within(dialog).getByText(
        'Your e-mail confirmation is on its way. Our support team is working to get back to you as soon as possible.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Return to Knowledge Base' })).toBeTruthy();
    expect(within(dialog).getByText('c0ffee00-0000-4000-8000-000000000001')).toBeTruthy();
    expect(document.body.style.overflow).toBe('hidden');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(services.createTicket).toHaveBeenCalledTimes(1);
    const [payload, key] = vi.mocked(services.createTicket).mock.calls[0]!;
    expect(key).toMatch(/\w{8}/);
    expect(payload).toMatchObject({
      subject: 'My account',
      message: 'I cannot change my settings at all.',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['account', 'account_other'],
      supportFormPath: 'My Account → Other',
      subscriptions: 'homey_plus_1, homey_developer_2',
      underVoltageOccured: 'no',
      uploadTokens: [],
    });
    // A second submit once the popup opened is ignored.
    ticket.getByRole('button', { name: 'Send' }).closest('form')?.requestSubmit();
    expect(services.createTicket).toHaveBeenCalledTimes(1);
    // Escape closes the popup and the form starts over for a new question.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.style.overflow).toBe('');
    expect(steps()).toEqual(['mainCategory']);
  });

  it('Pro hub → Zigbee → knowledge base → ticket sends the hub context, diagnostics and attachments', async () => {
    const services = renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    const hubStep = step('hubCategoryPro');
    expect(await hubStep.findByText('Hub software is out of date.')).toBeTruthy();
    expect(hubStep.queryByRole('button', { name: '868 MHz' })).toBeNull();
    expect(hubStep.getByRole('button', { name: 'Matter' })).toBeTruthy();
    expect(hubStep.getByRole('button', { name: 'Ethernet Adapter' })).toBeTruthy();
    await user.click(hubStep.getByRole('button', { name: 'Zigbee' }));
    const kb = step('knowledgeBase');
    const link = await kb.findByRole('link', { name: 'Article zigbee' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(kb.getByText('Still not found what you were looking for?')).toBeTruthy();
    await user.click(kb.getByRole('button', { name: 'Contact Support' }));
    const ticket = step('ticket');
    await user.type(ticket.getByPlaceholderText("What's your question about?"), 'Zigbee drops');
    await user.type(
      ticket.getByPlaceholderText('Please include as much details as you can.'),
      'My Zigbee sensors drop off every night.',
    );
    const input = ticket.getByLabelText('Attachments') as HTMLInputElement;
    await user.upload(input, [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.txt', { type: 'text/plain' })]);
    await user.upload(input, [new File(['a2'], 'a.png', { type: 'image/png' })]);
    expect(ticket.getAllByRole('button', { name: /Remove/ })).toHaveLength(2);
    expect(ticket.getByText('2 files added')).toBeTruthy();
    await user.click(ticket.getByRole('button', { name: 'Remove b.txt' }));
    expect(ticket.getByText('1 file added')).toBeTruthy();
    expect(ticket.getByText(/By sending this form/).textContent).toContain('diagnostic report');
    expect(await ticket.findByText('25%')).toBeTruthy();
    expect(await ticket.findByText('report-123')).toBeTruthy();
    await user.click(ticket.getByRole('button', { name: 'Send' }));
    await screen.findByRole('dialog');
    expect(services.uploadAttachment).toHaveBeenCalledTimes(1);
    const [payload] = vi.mocked(services.createTicket).mock.calls[0]!;
    expect(payload).toEqual({
      subject: 'Zigbee drops',
      message: 'My Zigbee sensors drop off every night.',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['hub', 'wireless', 'zigbee', 'hearth-pro-5q'],
      diagnosticReport: 'report-123',
      homeyApps: 'com.example.mail (v1.0.0)\ncom.example.old (v1.2.0)',
      homeyAppsCount: 2,
      homeyBridges: 0,
      homeyId: 'hub-pro',
      homeyLanguage: 'en',
      homeyLicenses: 'zwave',
      homeyModel: 'hearth-pro-5q',
      homeyModelName: 'Hearth Pro (Early 2023)',
      homeyPlatform: 'local',
      homeyRegion: 'eu',
      homeySoftwareVersion: '12.1.0',
      homeyUsers: 2,
      underVoltagePercentage: '25%',
      underVoltageOccured: 'yes',
      appId: '',
      driverId: '',
      orderId: '',
      subscriptionId: '',
      subscriptions: 'homey_plus_1, homey_developer_2',
      supportFormPath: 'Home → Zigbee',
      uploadTokens: ['token-a.png'],
    });
  });

  it('upload and ticket failures show their messages in place of the disclaimer, and the text survives', async () => {
    const createTicket = vi.fn(async () => {
      throw new APIError('boom', 500);
    });
    const services = fakeServices({
      uploadAttachment: vi.fn(async () => {
        throw new APIError('x', 500);
      }),
      createTicket,
    });
    renderApp(services);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: "My order isn't listed" }));
    await user.click(await step('knowledgeBase').findByRole('button', { name: 'Contact Support' }));
    const ticket = step('ticket');
    expect(ticket.getByText(/By sending this form/)).toBeTruthy();
    await user.type(ticket.getByPlaceholderText("What's your question about?"), 'Order');
    await user.type(ticket.getByPlaceholderText('Please include as much details as you can.'), 'Where is my order? It is late.');
    await user.upload(ticket.getByLabelText('Attachments'), new File(['a'], 'receipt.pdf'));
    await user.click(ticket.getByRole('button', { name: 'Send' }));
    expect(await ticket.findByText("We've encountered a problem uploading receipt.pdf. Please try again!")).toBeTruthy();
    expect(ticket.queryByText(/By sending this form/)).toBeNull();
    await user.click(ticket.getByRole('button', { name: 'Remove receipt.pdf' }));
    await user.click(ticket.getByRole('button', { name: 'Send' }));
    expect(await ticket.findByText("We've encountered a problem sending your message. Please try again.")).toBeTruthy();
    expect((ticket.getByPlaceholderText("What's your question about?") as HTMLInputElement).value).toBe('Order');
    expect(JSON.parse(localStorage.getItem('hearth-support-form:draft') ?? '{}')).toEqual({
      subject: 'Order',
      message: 'Where is my order? It is late.',
    });
  });

  it('the developer subscription goes straight to the ticket; what was typed comes back after a reload', async () => {
    localStorage.setItem(
      'hearth-support-form:draft',
      JSON.stringify({ subject: 'Saved subject', message: 'Saved message text that is long' }),
    );
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Hearth Developer/ }));
    expect(steps()).toEqual(['mainCategory', 'ticket']);
    expect((step('ticket').getByPlaceholderText("What's your question about?") as HTMLInputElement).value).toBe('Saved subject');
  });

  it('changing an earlier answer discards the later steps and their answers', async () => {
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    await user.click(step('accountCategory').getByRole('button', { name: 'Other' }));
    await user.type(step('ticket').getByPlaceholderText("What's your question about?"), 'x');
    await user.click(step('accountCategory').getByRole('button', { name: 'Password' }));
    expect(steps()).toEqual(['mainCategory', 'accountCategory', 'knowledgeBaseFinal']);
    expect(step('knowledgeBaseFinal').queryByRole('button', { name: 'Contact Support' })).toBeNull();
    await user.click(screen.getByRole('button', { name: /^Studio/ }));
    expect(steps()).toEqual(['mainCategory', 'hubCategoryCloud']);
    const wireless = step('hubCategoryCloud').getByRole('group', { name: 'Wireless Technologies' });
    expect(
      within(wireless)
        .getAllByRole('button')
        .map((r) => r.textContent),
    ).toEqual(['Wi-Fi']);
    await user.click(step('hubCategoryCloud').getByRole('button', { name: 'Flow' }));
    await user.click(await step('knowledgeBase').findByRole('button', { name: 'Ask the community' }));
    expect(steps()).toEqual(['mainCategory', 'hubCategoryCloud', 'knowledgeBase', 'community']);
    expect(step('community').getByText(/cannot help with custom use-cases/)).toBeTruthy();
  });

  it('apps: e-mail developer with hub offline (500 or no answer) and other errors, then success', async () => {
    const getAppStd = vi
      .fn()
      .mockRejectedValueOnce(new OfflineError())
      .mockRejectedValueOnce(new APIError('Failed to fetch', 0, 'network_error'))
      .mockRejectedValueOnce(new APIError('Message too short.', 400))
      .mockResolvedValueOnce(undefined);
    const services = fakeServices({}, fakeHubClient({ getAppStd }));
    renderApp(services);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Apps' }));
    await user.click(await step('apps').findByRole('button', { name: /Mail Lights/ }));
    expect(step('apps').getByRole('button', { name: 'Other' })).toBeTruthy();
    // The knowledge base's button says where it leads: to the developer, not to Hearth support.
    expect(step('knowledgeBase').queryByRole('button', { name: 'Contact Support' })).toBeNull();
    await user.click(await step('knowledgeBase').findByRole('button', { name: 'Contact the developer' }));
    const contact = step('contactDeveloper');
    expect(contact.getByText('Mail Lights is made by a verified developer.')).toBeTruthy();
    await user.click(contact.getByRole('button', { name: 'E-mail the developer' }));
    const form = step('emailDeveloper');
    await user.type(
      form.getByPlaceholderText('Please include as much details as you can.'),
      'The lights do not turn on anymore.',
    );
    await user.click(form.getByRole('button', { name: 'Send' }));
    expect(
      await form.findByText(
        'Unfortunately, we were unable to generate a diagnostic report of the app to send with the email because your hub appears to be offline.',
      ),
    ).toBeTruthy();
    await user.click(form.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(getAppStd).toHaveBeenCalledTimes(2));
    expect(
      await form.findByText(
        'Unfortunately, we were unable to generate a diagnostic report of the app to send with the email because your hub appears to be offline.',
      ),
    ).toBeTruthy();
    await user.click(form.getByRole('button', { name: 'Send' }));
    expect(await form.findByText("We've encountered a problem sending the email. Message too short.")).toBeTruthy();
    expect(form.getByRole('link', { name: 'feel free to send an email to the developer here' }).getAttribute('href')).toBe(
      'mailto:dev@example.com',
    );
    await user.click(form.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('dialog', { name: 'Your e-mail has been sent to the developer.' })).toBeTruthy();
    expect(getAppStd).toHaveBeenLastCalledWith('com.example.mail', 'The lights do not turn on anymore.');
  });

  it('apps: an out-of-date app ends on the knowledge base with the warning and an update link', async () => {
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Apps' }));
    await user.click(await step('apps').findByRole('button', { name: /Old App/ }));
    const kb = step('knowledgeBaseFinal');
    expect(kb.getByText('The selected app is out of date.')).toBeTruthy();
    expect(kb.getByRole('link', { name: 'Update the app' }).getAttribute('href')).toBe('http://cloud.test/app/com.example.old');
    expect(kb.queryByRole('button', { name: 'Contact Support' })).toBeNull();
  });

  it('devices: grouped by app, verified authors only, groups open after 400 ms, device leads to its developer', async () => {
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Devices' }));
    const devices = step('devices');
    const group = await devices.findByRole('button', { name: /Mail Lights/ });
    expect(devices.queryByRole('button', { name: /Old App/ })).toBeNull();
    await waitFor(() => expect(group.getAttribute('aria-expanded')).toBe('true'));
    await user.click(devices.getByRole('radio', { name: 'Kitchen bulb' }));
    expect(steps()).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'contactDeveloper']);
  });

  it('shows the under-voltage and report failures in the context the ticket carries', async () => {
    renderApp(
      fakeServices(
        {},
        fakeHubClient({
          getInfo: vi.fn(async () => Promise.reject(new Error('x'))),
          sendLog: vi.fn(async () => Promise.reject(new Error('y'))),
        }),
      ),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Web App' }));
    const ticket = step('ticket');
    expect(await ticket.findByText("Couldn't get under voltage ratio")).toBeTruthy();
    expect(await ticket.findByText("Couldn't generate report")).toBeTruthy();
  });

  it('devices: the empty and offline states', async () => {
    const offline = fakeServices({}, fakeHubClient({ getDevices: vi.fn(async () => Promise.reject(new Error('down'))) }));
    renderApp(offline);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Devices' }));
    expect(
      await step('devices').findByText(
        "Couldn't establish a connection to your hub. Please make sure it's connected and online.",
      ),
    ).toBeTruthy();
  });

  it('devices: empty state', async () => {
    renderApp(fakeServices({}, fakeHubClient({ getDevices: vi.fn(async () => []) })));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Devices' }));
    expect(await step('devices').findByText('No devices installed on selected hub.')).toBeTruthy();
  });

  it('resets on back-forward cache restore and on sign-out', async () => {
    const services = renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    expect(steps()).toHaveLength(2);
    await act(async () => {
      const event = new Event('pageshow') as PageTransitionEvent;
      Object.defineProperty(event, 'persisted', { value: true });
      window.dispatchEvent(event);
    });
    await screen.findByRole('heading', { name: 'Hi Ada, how can we help?' });
    expect(steps()).toEqual(['mainCategory']);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(services.signOut).toHaveBeenCalled();
    expect(await screen.findByRole('heading', { name: 'How can we help?' })).toBeTruthy();
  });

  it('built-in apps: listed by name with their icon, and their devices go to Hearth support', async () => {
    const virtual = {
      id: 'com.hearth.virtual',
      version: '12.4.1',
      name: 'Virtual devices',
      icon: 'http://hub.test/app/com.hearth.virtual/assets/icon.svg',
      builtin: true,
    };
    const services = fakeServices(
      {},
      fakeHubClient({
        getApps: vi.fn(async () => [...proHubApps, virtual]),
        getDevices: vi.fn(async () => [
          {
            id: 'lamp',
            name: 'Desk lamp',
            driverId: 'homey:app:com.hearth.virtual:socket',
            iconObj: { url: 'http://hub.test/app/com.hearth.virtual/drivers/socket/assets/icon.svg' },
          },
        ]),
      }),
    );
    renderApp(services);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Apps' }));
    const app = await step('apps').findByRole('button', { name: /Virtual devices/ });
    expect(app.querySelector('img')?.getAttribute('src')).toBe(virtual.icon);
    // The catalogue is not asked about an app it does not list.
    expect(services.getApp).not.toHaveBeenCalledWith('com.hearth.virtual');
    await user.click(app);
    expect(await step('knowledgeBase').findByRole('button', { name: 'Contact Support' })).toBeTruthy();

    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Devices' }));
    const devices = step('devices');
    const group = await devices.findByRole('button', { name: /Virtual devices/ });
    await waitFor(() => expect(group.getAttribute('aria-expanded')).toBe('true'));
    const lamp = devices.getByRole('radio', { name: 'Desk lamp' });
    expect(lamp.closest('label')?.querySelector('img')?.getAttribute('src')).toMatch(/^http:\/\/hub\.test\//);
    await user.click(lamp);
    expect(steps()).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'knowledgeBase']);
    await user.click(await step('knowledgeBase').findByRole('button', { name: 'Contact Support' }));
    expect(steps()).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'knowledgeBase', 'ticket']);
  });

  it('apps: a hub that does not answer is said to be offline, with the apps the cloud knows of', async () => {
    renderApp(fakeServices({}, fakeHubClient({ getApps: vi.fn(async () => Promise.reject(new Error('down'))) })));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Apps' }));
    const apps = step('apps');
    expect(
      await apps.findByText("Couldn't establish a connection to your hub. Please make sure it's connected and online."),
    ).toBeTruthy();
    expect(await apps.findByRole('button', { name: /Mail Lights/ })).toBeTruthy();
  });

  it('an app without any contact way points to the community forum', async () => {
    const services = fakeServices({
      getApp: vi.fn(async (id: string) => ({
        id,
        author: { userId: 'dev3', verified: false },
        liveBuild: { name: 'Silent App' },
        liveVersion: '1.0.0',
      })),
    });
    renderApp(services);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Home/ }));
    await user.click(step('hubCategoryPro').getByRole('button', { name: 'Apps' }));
    await user.click((await step('apps').findAllByRole('button', { name: /Silent App/ }))[0]!);
    await user.click(await step('knowledgeBase').findByRole('button', { name: 'Contact the developer' }));
    const contact = step('contactDeveloper');
    expect(contact.getByText(/The community forum may be able to help./)).toBeTruthy();
    expect(contact.getByRole('link', { name: 'Ask on the community forum' }).getAttribute('href')).toMatch(/^https:/);
  });
});
