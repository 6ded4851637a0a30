import '@xyflow/react/dist/style.css';
import './canvas.css';
import type { Manager } from '@hearth/client/browser';
import type { AdvancedFlowNode } from '@hearth/contract';
import {
  Background,
  type Connection,
  type Edge,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
} from '@xyflow/react';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { strings } from '../../../app/strings';
import { FieldError, invalidProps } from '../../../components/FieldError';
import { useNotify } from '../../../components/Notices';
import { Failed, Loading } from '../../../components/Status';
import { messageOf } from '../../../lib/errors';
import { useHub, useLiveItems } from '../../../lib/hub';
import { useAsync } from '../../../lib/useLoad';
import { CardPicker } from '../editor/CardPicker';
import { type Catalog, loadCatalog, useOwnerOf } from '../editor/catalog';
import {
  type CardDef,
  type CardType,
  cardKeyOf,
  type DraftCard,
  draftProblems,
  type ErrorKey,
  fieldErrorKey,
  nameKey,
  newCard,
  ownedCard,
  triggerSlotKey,
} from '../editor/draft';
import { EditorFooter } from '../editor/EditorParts';
import type { DeviceChoice, TokenChoice } from '../editor/fields';
import { flowPath } from '../model';
import {
  advancedRefusalTarget,
  asDraftCard,
  canConnect,
  edgeId,
  fromCards,
  type GraphEdge,
  isCardNode,
  type NodeData,
  type Port,
  toCards,
  uuid,
} from './graph';
import { NodePanel } from './NodePanel';
import { type CanvasNode, DescribeContext, type NodeWords, nodeTypes } from './nodes';

const t = strings.canvas;

interface WireAdvancedFlow {
  id: string;
  name: string;
  broken?: boolean;
  cards: Record<string, AdvancedFlowNode>;
}

interface Loaded extends Catalog {
  flow: WireAdvancedFlow | null;
}

const toCanvasNode = (key: string, node: NodeData): CanvasNode => ({
  id: key,
  type: 'hearth',
  position: { x: node.x, y: node.y },
  data: { node },
});
const toEdge = (edge: GraphEdge): Edge => ({
  id: edgeId(edge),
  source: edge.source,
  sourceHandle: edge.port,
  target: edge.target,
  label: t.ports[edge.port],
});
const fromEdge = (edge: Edge): GraphEdge => ({ source: edge.source, port: edge.sourceHandle as Port, target: edge.target });

/**
 * The advanced flow editor, loaded on demand with its node-editor library (React Flow): the node kinds the engine
 * runs, placed on a canvas and connected output to input, stored as the engine reads them (edges on their source
 * node); a panel under the canvas edits the selected node (arguments, inversion, delay, note), its connections and
 * its removal, so everything can also be done from the keyboard.
 */
export default function AdvancedFlowEditorPage({ id }: { id?: string }) {
  const { hub } = useHub();
  const loaded = useAsync<Loaded>(async () => {
    const [catalog, flow] = await Promise.all([loadCatalog(hub), id ? hub.flow.getAdvancedFlow({ id }) : Promise.resolve(null)]);
    return { ...catalog, flow: flow as unknown as WireAdvancedFlow | null };
  }, [hub, id]);
  if (loaded.state === 'loading') return <Loading title={id ? undefined : t.newTitle} />;
  if (loaded.state === 'failed') return <Failed error={loaded.error} title={id ? undefined : t.newTitle} />;
  return (
    <ReactFlowProvider>
      <Editor id={id} data={loaded.data} />
    </ReactFlowProvider>
  );
}

function Editor({ id, data }: { id?: string; data: Loaded }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const flow = useReactFlow<CanvasNode, Edge>();
  const devices = useLiveItems<DeviceChoice>(hub.manager('devices') as Manager, 'device');
  const deviceList = devices.state === 'ready' ? devices.items : [];
  const ownerOf = useOwnerOf(data, deviceList);
  const initial = useMemo(() => fromCards(data.flow?.cards ?? {}), [data.flow]);
  const [nodes, setNodes, onNodesChange] = useNodesState<CanvasNode>(
    initial.nodes.map(({ key, node }) => toCanvasNode(key, node)),
  );
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>(initial.edges.map(toEdge));
  const [name, setName] = useState(data.flow?.name ?? '');
  const [selected, setSelected] = useState<string | null>(null);
  const [picking, setPicking] = useState<CardType | null>(null);
  const [errors, setErrors] = useState<Map<ErrorKey, string>>(new Map());
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const defOf = useCallback(
    (node: NodeData) =>
      isCardNode(node)
        ? data.cards[node.type as CardType].get(cardKeyOf({ uri: node.ownerUri ?? '', id: node.id ?? '' }))
        : undefined,
    [data.cards],
  );
  const describe = useCallback(
    (node: NodeData): NodeWords => {
      if (!isCardNode(node)) {
        if (node.type === 'delay') {
          const delay = node.args?.delay as { number?: string; multiplier?: number } | undefined;
          const unit = delay?.multiplier === 60 ? strings.flowEditor.minutes : strings.flowEditor.seconds;
          return { title: delay?.number ? `${t.kindTitles.delay} ${delay.number} ${unit}` : (t.kindTitles.delay ?? '') };
        }
        if (node.type === 'note')
          return { title: String((node as { value?: unknown }).value ?? '') || (t.kindTitles.note ?? '') };
        return { title: t.kindTitles[node.type] ?? node.type };
      }
      const def = defOf(node);
      return {
        title: def?.title ?? (node.id ?? '').replaceAll('_', ' '),
        owner: ownerOf(def ?? { ownerUri: ownedCard(node.ownerUri, node.id ?? '').uri }).name,
        broken: !def,
      };
    },
    [defOf, ownerOf],
  );

  const graphNodes = nodes.map((node) => ({ key: node.id, node: { ...node.data.node, x: node.position.x, y: node.position.y } }));
  const graphEdges = edges.map(fromEdge);
  const selectedNode = graphNodes.find((node) => node.key === selected) ?? null;
  const label = (key: string) => {
    const node = graphNodes.find((item) => item.key === key);
    if (!node) return key;
    const words = describe(node.node);
    return t.nodeOption(t.kinds[node.node.type] ?? node.node.type, words.owner ? `${words.title} (${words.owner})` : words.title);
  };
  const tokens = useMemo<TokenChoice[]>(
    () => [
      ...graphNodes
        .filter((node) => node.node.type === 'trigger')
        .flatMap((node) => defOf(node.node)?.tokens ?? [])
        .map((token) => ({
          reference: token.id,
          title: token.title,
          type: token.type,
          owner: strings.flowEditor.tokens.fromTrigger,
        })),
      ...[...data.globals.values()].map((token) => ({
        reference: token.id,
        title: token.title,
        type: token.type,
        owner: ownerOf(token).name,
      })),
    ],
    [graphNodes, data.globals, defOf, ownerOf],
  );

  const select = (key: string | null) => {
    setSelected(key);
    setNodes((all) => all.map((node) => ({ ...node, selected: node.id === key })));
  };
  const updateNode = (key: string, update: (node: NodeData) => NodeData) =>
    setNodes((all) => all.map((node) => (node.id === key ? { ...node, data: { node: update(node.data.node) } } : node)));

  /** A new node in the next free place of a grid four wide, left to right as a run reads. */
  const addNode = (node: Omit<NodeData, 'x' | 'y'>) => {
    const key = uuid();
    const position = { x: 40 + (nodes.length % 4) * 260, y: 40 + Math.floor(nodes.length / 4) * 160 };
    if (errors.has(triggerSlotKey) && (node.type === 'start' || node.type === 'trigger')) {
      const rest = new Map(errors);
      rest.delete(triggerSlotKey);
      setErrors(rest);
      if (rest.size === 0) setFormError(null);
    }
    setNodes((all) => [
      ...all.map((item) => ({ ...item, selected: false })),
      { ...toCanvasNode(key, { ...node, ...position } as NodeData), selected: true },
    ]);
    setSelected(key);
    requestAnimationFrame(() => document.getElementById('canvas-node-choice')?.focus());
  };
  const pick = (def: CardDef) => {
    if (!picking) return;
    const card = newCard(picking, def);
    addNode({
      type: picking,
      ownerUri: card.uri,
      id: card.id,
      args: card.args,
      droptoken: null,
      ...(picking === 'condition' ? { inverted: false } : {}),
    });
    setPicking(null);
  };
  const removeNode = (key: string) => {
    setNodes((all) => all.filter((node) => node.id !== key));
    setEdges((all) => all.filter((edge) => edge.source !== key && edge.target !== key));
    setSelected(null);
  };
  const connect = (edge: GraphEdge) => {
    if (canConnect(graphNodes, graphEdges, edge)) setEdges((all) => [...all, toEdge(edge)]);
  };
  const onConnect = (connection: Connection) =>
    connect({ source: connection.source, port: connection.sourceHandle as Port, target: connection.target });

  async function save(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const cardNodes = graphNodes.filter(({ node }) => isCardNode(node)).map(({ key, node }) => asDraftCard(key, node));
    const found = draftProblems(
      { name, folder: null, trigger: null, conditions: cardNodes, actions: [] },
      (card) => data.cards[card.type].get(cardKeyOf(card)),
      strings.flowEditor.problems,
    );
    found.delete(triggerSlotKey);
    for (const { key, node } of graphNodes) {
      const delay = node.args?.delay as { number?: string } | undefined;
      if (node.type === 'delay' && !(delay?.number && /^\d+(\.\d+)?$/.test(delay.number.trim())))
        found.set(fieldErrorKey({ key } as DraftCard, 'delay'), strings.flowEditor.problems.notADelay);
    }
    if (!graphNodes.some(({ node }) => node.type === 'trigger' || node.type === 'start')) found.set(triggerSlotKey, t.needsEntry);
    setErrors(found);
    if (found.size > 0) {
      setFormError(strings.flowEditor.notSaved);
      const first = [...found.keys()][0] as string;
      const nodeKey = /^card:([^:]+):/.exec(first)?.[1];
      if (nodeKey) select(nodeKey);
      requestAnimationFrame(() =>
        document.getElementById(first === nameKey ? 'flow-name' : nodeKey ? 'canvas-node-choice' : 'canvas-add')?.focus(),
      );
      return;
    }
    setBusy(true);
    try {
      const body = { name: name.trim(), cards: toCards(graphNodes, graphEdges) };
      const saved = (id
        ? await hub.flow.updateAdvancedFlow({ id, advancedflow: body })
        : await hub.flow.createAdvancedFlow({ advancedflow: body })) as unknown as { id: string; name: string };
      notify('info', strings.flowEditor.saved(saved.name));
      navigate(flowPath('advancedflow', saved.id));
    } catch (error) {
      const message = messageOf(error);
      const target = advancedRefusalTarget(message);
      setFormError(strings.flowEditor.refused(message));
      if (target?.field === 'name') setErrors(new Map([[nameKey, target.reason]]));
      else if (target?.node) {
        // A delay node's `args.delay` is its delay field.
        const isDelay = graphNodes.find((item) => item.key === target.node)?.node.type === 'delay';
        const field = isDelay && target.field === 'arg.delay' ? 'delay' : target.field;
        const key = field ? fieldErrorKey({ key: target.node } as DraftCard, field) : `card:${target.node}`;
        setErrors(new Map([[key, target.reason]]));
        select(target.node);
      }
    } finally {
      setBusy(false);
    }
  }

  const nameError = errors.get(nameKey);
  const entryError = errors.get(triggerSlotKey);
  const adders: { label: string; run: () => void }[] = [
    { label: t.addTrigger, run: () => setPicking('trigger') },
    { label: t.addCondition, run: () => setPicking('condition') },
    { label: t.addAction, run: () => setPicking('action') },
    { label: t.addStart, run: () => addNode({ type: 'start' }) },
    { label: t.addDelay, run: () => addNode({ type: 'delay', args: { delay: { number: '5', multiplier: 1 } } }) },
    { label: t.addAny, run: () => addNode({ type: 'any' }) },
    { label: t.addAll, run: () => addNode({ type: 'all' }) },
    { label: t.addNote, run: () => addNode({ type: 'note', value: '', color: 'yellow', width: null, height: null } as never) },
  ];

  return (
    <DescribeContext.Provider value={describe}>
      <p className="crumb">
        <Link href={id ? flowPath('advancedflow', id) : '/flows'}>{id ? data.flow?.name : strings.flows.back}</Link>
      </p>
      <h1 tabIndex={-1}>{id && data.flow ? t.editTitle(data.flow.name) : t.newTitle}</h1>
      {data.flow?.broken ? <p className="form-error">{strings.flows.brokenExplained}</p> : null}
      <form onSubmit={(event) => void save(event)} noValidate>
        <div className="field canvas-name">
          <label htmlFor="flow-name">{strings.flowEditor.name}</label>
          <input
            id="flow-name"
            type="text"
            maxLength={200}
            value={name}
            onChange={(event) => setName(event.target.value)}
            {...invalidProps('flow-name', nameError)}
          />
          <FieldError id="flow-name" error={nameError} />
        </div>
        <p className="muted">{t.intro}</p>
        <fieldset className="canvas-add" id="canvas-add" tabIndex={-1}>
          <legend>{t.add}</legend>
          <div className="actions">
            {adders.map((adder) => (
              <button key={adder.label} type="button" className="button button--small button--quiet" onClick={adder.run}>
                {adder.label}
              </button>
            ))}
            <button type="button" className="button button--small button--quiet" onClick={() => void flow.fitView()}>
              {t.fit}
            </button>
          </div>
          {entryError ? (
            <p className="form-error" role="alert">
              {entryError}
            </p>
          ) : null}
        </fieldset>
        <section className="canvas" aria-label={t.canvas}>
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            isValidConnection={(connection) =>
              canConnect(graphNodes, graphEdges, {
                source: connection.source,
                port: connection.sourceHandle as Port,
                target: connection.target,
              })
            }
            onNodeClick={(_event, node) => select(node.id)}
            onPaneClick={() => select(null)}
            onNodesDelete={(deleted) => {
              if (deleted.some((node) => node.id === selected)) setSelected(null);
            }}
            fitView
            minZoom={0.3}
            maxZoom={1.5}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
          </ReactFlow>
          {nodes.length === 0 ? <p className="canvas__empty muted">{t.empty}</p> : null}
        </section>

        <NodePanel
          nodes={graphNodes}
          edges={graphEdges}
          selected={selectedNode}
          label={label}
          defOf={defOf}
          tokens={tokens}
          devices={deviceList}
          errors={errors}
          onSelect={select}
          onChange={updateNode}
          onConnect={connect}
          onDisconnect={(edge) => setEdges((all) => all.filter((item) => item.id !== edgeId(edge)))}
          onRemove={removeNode}
        />

        <EditorFooter
          error={formError}
          busy={busy}
          save={t.save}
          saving={strings.flowEditor.saving}
          cancel={strings.flowEditor.cancel}
          back={id ? flowPath('advancedflow', id) : '/flows'}
        />
      </form>
      {picking ? (
        <CardPicker
          type={picking}
          cards={[...data.cards[picking].values()]}
          ownerOf={ownerOf}
          onPick={pick}
          onClose={() => setPicking(null)}
        />
      ) : null}
    </DescribeContext.Provider>
  );
}
