import { useState } from 'react';
import { strings } from '../../../app/strings';
import { type CardDef, type DraftCard, type ErrorKey, fieldErrorKey, fieldId } from '../editor/draft';
import { ArgField, DelayField, type DeviceChoice, type TokenChoice } from '../editor/fields';
import { asDraftCard, edgeId, type GraphEdge, isCardNode, type NodeData, type NodeKind, PORTS_OF, takesInput } from './graph';

const t = strings.canvas;

/** The selected node's editing: which node, its fields by kind, its connections, and its removal. */
export function NodePanel({
  nodes,
  edges,
  selected,
  label,
  defOf,
  tokens,
  devices,
  errors,
  onSelect,
  onChange,
  onConnect,
  onDisconnect,
  onRemove,
}: {
  nodes: { key: string; node: NodeData }[];
  edges: GraphEdge[];
  selected: { key: string; node: NodeData } | null;
  label: (key: string) => string;
  defOf: (node: NodeData) => CardDef | undefined;
  tokens: TokenChoice[];
  devices: DeviceChoice[];
  errors: Map<ErrorKey, string>;
  onSelect: (key: string | null) => void;
  onChange: (key: string, update: (node: NodeData) => NodeData) => void;
  onConnect: (edge: GraphEdge) => void;
  onDisconnect: (edge: GraphEdge) => void;
  onRemove: (key: string) => void;
}) {
  const [targets, setTargets] = useState<Record<string, string>>({});
  const key = selected?.key ?? '';
  const node = selected?.node;
  const card = node && isCardNode(node) ? asDraftCard(key, node) : null;
  const def = node ? defOf(node) : undefined;
  const delayKey = fieldErrorKey({ key } as DraftCard, 'delay');
  return (
    <section className="canvas-panel card" aria-labelledby="canvas-panel-title">
      <h2 id="canvas-panel-title">{t.selected}</h2>
      <div className="field">
        <label htmlFor="canvas-node-choice">{t.chooseNode}</label>
        <select id="canvas-node-choice" value={key} onChange={(event) => onSelect(event.target.value || null)}>
          <option value="">{t.noneSelected}</option>
          {nodes.map((item) => (
            <option key={item.key} value={item.key}>
              {label(item.key)}
            </option>
          ))}
        </select>
      </div>
      {node ? (
        <>
          {card && !def ? <p className="form-error">{strings.flowEditor.missingCard}</p> : null}
          {card
            ? (def?.args ?? []).map((arg) => (
                <ArgField
                  key={arg.name}
                  id={fieldId(card, `arg.${arg.name}`)}
                  card={card}
                  arg={arg}
                  error={errors.get(fieldErrorKey(card, `arg.${arg.name}`))}
                  tokens={tokens}
                  devices={devices}
                  onChange={(value) =>
                    onChange(key, (current) => {
                      const args = { ...(current.args ?? {}) };
                      if (value === undefined) delete args[arg.name];
                      else args[arg.name] = value;
                      return { ...current, args };
                    })
                  }
                />
              ))
            : null}
          {node.type === 'condition' ? (
            <div className="field field--checkbox field--inline">
              <input
                id={`canvas-${key}-inverted`}
                type="checkbox"
                checked={node.inverted === true}
                onChange={(event) => onChange(key, (current) => ({ ...current, inverted: event.target.checked }))}
              />
              <label htmlFor={`canvas-${key}-inverted`}>{strings.flowEditor.inverted}</label>
            </div>
          ) : null}
          {node.type === 'delay' ? (
            <DelayField
              key={key}
              id={`canvas-${key}-delay`}
              label={t.delay}
              value={node.args?.delay as { number: string; multiplier: 1 | 60 } | null}
              error={errors.get(delayKey)}
              onChange={(delay) => onChange(key, (current) => ({ ...current, args: { ...current.args, delay } }))}
            />
          ) : null}
          {node.type === 'note' ? (
            <div className="field">
              <label htmlFor={`canvas-${key}-note`}>{t.note}</label>
              <textarea
                id={`canvas-${key}-note`}
                value={String((node as { value?: unknown }).value ?? '')}
                onChange={(event) => onChange(key, (current) => ({ ...current, value: event.target.value }) as NodeData)}
              />
            </div>
          ) : null}
          {PORTS_OF[node.type as NodeKind].length > 0 ? (
            <div className="canvas-connections">
              <h3>{t.connections}</h3>
              {PORTS_OF[node.type as NodeKind].map((port) => {
                const portName = t.ports[port] ?? port;
                const out = edges.filter((edge) => edge.source === key && edge.port === port);
                const choiceId = `canvas-${key}-${port}`;
                const choices = nodes.filter(
                  (other) => other.key !== key && takesInput(other.node.type) && !out.some((edge) => edge.target === other.key),
                );
                return (
                  <fieldset key={port} className="canvas-port">
                    <legend>{portName}</legend>
                    {out.length === 0 ? <p className="muted">{t.noConnections}</p> : null}
                    <ul className="rows">
                      {out.map((edge) => (
                        <li key={edgeId(edge)} className="row">
                          <span className="row__main">{label(edge.target)}</span>
                          <button
                            type="button"
                            className="button button--small button--quiet"
                            aria-label={t.disconnect(label(edge.target))}
                            onClick={() => onDisconnect(edge)}
                          >
                            {strings.flowEditor.remove}
                          </button>
                        </li>
                      ))}
                    </ul>
                    <div className="inline-form">
                      <div className="field">
                        <label htmlFor={choiceId}>{t.connectTo(portName)}</label>
                        <select
                          id={choiceId}
                          value={targets[choiceId] ?? ''}
                          onChange={(event) => setTargets({ ...targets, [choiceId]: event.target.value })}
                        >
                          <option value="">{t.chooseTarget}</option>
                          {choices.map((other) => (
                            <option key={other.key} value={other.key}>
                              {label(other.key)}
                            </option>
                          ))}
                        </select>
                      </div>
                      <button
                        type="button"
                        className="button button--quiet"
                        aria-label={t.connectName(portName)}
                        disabled={!targets[choiceId]}
                        onClick={() => {
                          onConnect({ source: key, port, target: targets[choiceId] as string });
                          setTargets({ ...targets, [choiceId]: '' });
                        }}
                      >
                        {t.connect}
                      </button>
                    </div>
                  </fieldset>
                );
              })}
            </div>
          ) : null}
          <button type="button" className="button button--quiet" onClick={() => onRemove(key)}>
            {t.removeNode}
          </button>
        </>
      ) : null}
    </section>
  );
}
