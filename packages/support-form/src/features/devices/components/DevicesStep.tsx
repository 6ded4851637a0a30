import { useEffect, useId, useState } from 'react';
import { StepFrame } from '../../../components/StepFrame';
import { DEVICE_GROUPS_OPEN_DELAY_MS } from '../../../config/constants';
import { texts } from '../../../config/texts';
import { usePromise } from '../../../hooks/usePromise';
import { type Device, localized } from '../../../types/entities';
import { buildOf } from '../../apps/utils/classify';
import { type StepProps, useFormContext } from '../../form/context';
import type { InstalledApp } from '../../hub/api/diagnostics';
import { appArticles, radioArticles } from '../../tree';
import { appIdOfDevice, classifyDevice } from '../utils/radios';

interface Group {
  app: InstalledApp;
  name: string;
  icon?: string;
  devices: Device[];
}

function DeviceGroup({
  group,
  open,
  onToggle,
  selected,
  onSelect,
}: {
  group: Group;
  open: boolean;
  onToggle: () => void;
  selected: string | null;
  onSelect: (device: Device) => void;
}) {
  const panelId = useId();
  const name = useId();
  return (
    <div className={`device-group${open ? ' device-group--open' : ''}`}>
      <h3 className="device-group__title">
        <button type="button" aria-expanded={open} aria-controls={panelId} onClick={onToggle}>
          <span className="device-group__chevron" aria-hidden="true" />
          {group.icon ? <img className="app-icon" src={group.icon} alt="" width={32} height={32} /> : null}
          <span className="device-group__name">
            {group.name} <span className="device-group__count">({group.devices.length})</span>
          </span>
        </button>
      </h3>
      <fieldset id={panelId} className="device-group__panel" hidden={!open}>
        <legend className="visually-hidden">{group.name}</legend>
        {group.devices.map((device) => (
          <label key={device.id} className="device">
            <input
              type="radio"
              name={name}
              value={device.id}
              checked={selected === device.id}
              onChange={() => onSelect(device)}
            />
            {device.iconObj?.url ? <img src={device.iconObj.url} alt="" width={24} height={24} /> : null}
            <span>{device.name}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** "Which device is this about?": the hub's devices of verified authors' apps, grouped by app. */
export function DevicesStep({ answer, collected, status, reveal, choose }: StepProps) {
  const { diagnostics } = useFormContext();
  const hub = collected.hub;
  const context = hub ? diagnostics(hub.id) : null;
  const apps = usePromise(context?.apps);
  const [devicesPromise] = useState(() => context?.devices ?? null);
  const devices = usePromise(devicesPromise);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOpened(true), DEVICE_GROUPS_OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const definition = texts.steps.devices;
  const loading = apps.status === 'pending' || devices.status === 'pending';
  const groups: Group[] = [];
  if (apps.status === 'fulfilled' && devices.status === 'fulfilled') {
    for (const app of apps.value) {
      if (!app.details?.author.verified) continue;
      const own = devices.value.filter((d) => appIdOfDevice(d) === app.id);
      const build = buildOf(app.details);
      if (own.length > 0)
        groups.push({ app, name: localized(build?.name) || app.name || app.id, icon: app.icon ?? build?.icon, devices: own });
    }
  }

  const select = (group: Group, device: Device) => {
    const details = group.app.details;
    const result = classifyDevice(device, details);
    choose({
      value: device.id,
      label: device.name,
      action: result.action,
      data: {
        articles: [...appArticles.device, ...result.tags.map((t) => radioArticles[t]).filter((a): a is string => !!a)],
        tags: ['device', ...result.tags],
        driverId: device.driverId,
        appId: group.app.id,
        appBuild: details ? buildOf(details) : null,
        appAuthor: details?.author,
        supportType: result.supportType,
        supportUrl: result.supportUrl,
      },
    });
  };

  let body: React.ReactNode = null;
  if (devices.status === 'rejected') body = <p className="notice">{texts.hubOffline}</p>;
  else if (!loading && groups.length === 0) body = <p className="notice">{texts.noDevices}</p>;
  else
    body = groups.map((group) => (
      <DeviceGroup
        key={group.app.id}
        group={group}
        open={open[group.app.id] ?? opened}
        onToggle={() => setOpen((o) => ({ ...o, [group.app.id]: !(o[group.app.id] ?? opened) }))}
        selected={answer.value}
        onSelect={(device) => select(group, device)}
      />
    ));

  return (
    <StepFrame
      stepName="devices"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
      loading={loading}
    >
      {body}
    </StepFrame>
  );
}
