import { OptionTiles, type Tile } from '../../../components/OptionTiles';
import { StepFrame } from '../../../components/StepFrame';
import { texts } from '../../../config/texts';
import { usePromise } from '../../../hooks/usePromise';
import { localized } from '../../../types/entities';
import { type StepProps, useFormContext } from '../../form/context';
import { appArticles, appTags, type Choice } from '../../tree';
import { buildOf, classifyApp } from '../utils/classify';

/** "Which app is this about?": the apps installed on the selected hub, classified by how they are supported. */
export function AppsStep({ answer, collected, status, reveal, choose }: StepProps) {
  const { diagnostics } = useFormContext();
  const hub = collected.hub;
  const context = hub ? diagnostics(hub.id) : null;
  const apps = usePromise(context?.apps);
  const reachable = usePromise(context?.reachable);
  const definition = texts.steps.apps;
  const loading = apps.status === 'pending';
  const list = apps.status === 'fulfilled' ? apps.value : [];

  const choices = new Map<string, Choice>();
  const tiles: Tile[] = list.map((app) => {
    const build = app.details ? buildOf(app.details) : null;
    const name = localized(build?.name) || app.name || app.id;
    if (app.details) {
      const result = classifyApp(app.details, app.version);
      choices.set(app.id, {
        value: app.id,
        label: name,
        action: result.action,
        data: {
          articles: [...appArticles[result.action]],
          tags: [appTags.app, `app_${result.supportType}`, ...(result.outOfDate ? [appTags.outOfDate] : [])],
          appId: app.id,
          appBuild: build,
          appAuthor: app.details.author,
          supportType: result.supportType,
          supportUrl: result.supportUrl,
          appOutOfDate: result.outOfDate,
        },
      });
    } else {
      choices.set(app.id, {
        value: app.id,
        label: name,
        action: 'other',
        data: { articles: [...appArticles.other], tags: [appTags.app], appId: app.id },
      });
    }
    // The icon the hub shows for the installed app, else the catalogue's.
    const icon = app.icon ?? build?.icon;
    return {
      value: app.id,
      label: name,
      detail: app.builtin ? `Built in · v${app.version}` : `v${app.version}`,
      icon: icon ? <img className="app-icon" src={icon} alt="" width={40} height={40} /> : null,
    };
  });
  choices.set('other', {
    value: 'other',
    label: 'Other',
    action: 'other',
    data: { articles: [...appArticles.other], tags: [appTags.app, appTags.other] },
  });
  const placeholders: Tile[] = loading
    ? Array.from({ length: 3 }, (_, i) => ({ value: `loading-${i}`, label: texts.form.loadingApp, disabled: true }))
    : [];

  return (
    <StepFrame
      stepName="apps"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
      loading={loading}
    >
      {reachable.status === 'fulfilled' && !reachable.value ? <p className="notice">{texts.hubOffline}</p> : null}
      <OptionTiles
        tiles={[...tiles, ...placeholders, { value: 'other', label: texts.form.other }]}
        selected={answer.value}
        onSelect={(value) => {
          const choice = choices.get(value);
          if (choice) choose(choice);
        }}
      />
    </StepFrame>
  );
}
