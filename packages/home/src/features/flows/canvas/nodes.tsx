import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { createContext, useContext } from 'react';
import { strings } from '../../../app/strings';
import { type NodeData, PORTS_OF, takesInput } from './graph';

const t = strings.canvas;

export type CanvasNode = Node<{ node: NodeData }, 'hearth'>;

/** How the canvas names a node: its title, who offers it, and whether it is broken. */
export interface NodeWords {
  title: string;
  owner?: string;
  broken?: boolean;
}

export const DescribeContext = createContext<(node: NodeData) => NodeWords>(() => ({ title: '' }));

/**
 * A node on the canvas: its kind, title and owner, an input on the left where edges may end, and one output on
 * the right per port of its kind (yes / no for a condition, then / error for an action). Editing happens in the
 * panel under the canvas; here the node is moved and connected.
 */
export function HearthNode({ data, selected }: NodeProps<CanvasNode>) {
  const describe = useContext(DescribeContext);
  const { node } = data;
  const words = describe(node);
  const ports = PORTS_OF[node.type];
  return (
    <div
      className={`canvas-node canvas-node--${node.type}${selected ? ' canvas-node--selected' : ''}${words.broken ? ' canvas-node--broken' : ''}`}
    >
      {takesInput(node.type) ? <Handle type="target" position={Position.Left} /> : null}
      <p className="canvas-node__kind">
        {t.kinds[node.type]}
        {node.inverted ? ` · ${t.not}` : ''}
        {words.broken ? ` · ${strings.flowEditor.broken}` : ''}
      </p>
      <p className="canvas-node__title">{words.title}</p>
      {words.owner ? <p className="canvas-node__owner">{words.owner}</p> : null}
      {ports.map((port, index) => (
        <div key={port} className="canvas-node__port" style={{ top: `${((index + 1) * 100) / (ports.length + 1)}%` }}>
          <span className="canvas-node__port-label">{t.ports[port]}</span>
          <Handle type="source" id={port} position={Position.Right} />
        </div>
      ))}
    </div>
  );
}

export const nodeTypes = { hearth: HearthNode };
