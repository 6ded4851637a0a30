import { OptionTiles, type Tile } from '../../../components/OptionTiles';
import { StepFrame } from '../../../components/StepFrame';
import { usePromise } from '../../../hooks/usePromise';
import { localized } from '../../../types/entities';
import { type StepProps, useFormContext } from '../../form/context';
import { appArticles, appTags, type Choice, tree } from '../../tree';
import { buildOf, classifyApp } from '../utils/classify';

/** "Which app is this about?": the apps installed on the selected hub, classified by how they are supported. */
export function AppsStep({ answer, collected, status, reveal, choose }: StepProps) {
  const { diagnostics } = useFormContext();
  const hub = collected.hub;
  const apps = usePromise(hub ? diagnostics(hub.id)?.apps : null);
  const definition = tree.steps.apps;
  const loading = apps.status === 'pending';
  const list = apps.status === 'fulfilled' ? apps.value : [];

  const choices = new Map<string, Choice>();
  const tiles: Tile[] = list.map((app) => {
    const build = app.details ? buildOf(app.details) : null;
    const name = localized(build?.name) || app.id;
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
    return {
      value: app.id,
      label: name,
      detail: `v${app.version}`,
      icon: build?.icon ? (
        <img src={build.icon} alt="" width={40} height={40} style={{ background: build.brandColor ?? 'transparent' }} />
      ) : null,
    };
  });
  choices.set('other', {
    value: 'other',
    label: 'Other',
    action: 'other',
    data: { articles: [...appArticles.other], tags: [appTags.app, appTags.other] },
  });
  const placeholders: Tile[] = loading
    ? Array.from({ length: 3 }, (_, i) => ({ value: `loading-${i}`, label: 'Loading app…', disabled: true }))
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
      <OptionTiles
        tiles={[...tiles, ...placeholders, { value: 'other', label: 'Other' }]}
        selected={answer.value}
        onSelect={(value) => {
          const choice = choices.get(value);
          if (choice) choose(choice);
        }}
      />
    </StepFrame>
  );
}
