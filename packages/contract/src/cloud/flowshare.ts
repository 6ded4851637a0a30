import { type Static, Type } from 'typebox';
import { AdvancedFlowCreate, FlowCreate } from '../hub/flow';
import { cloudService } from '../operation';

const op = cloudService('flow', '/flow');

/**
 * A flow as it is shared: its name, cards and run mode, without the hub's ids and folder. Standard flows carry
 * `trigger`, `conditions` and `actions`; advanced flows carry `cards`.
 */
export const SharedFlowData = Type.Union([
  Type.Omit(FlowCreate, ['folder', 'order', 'enabled']),
  Type.Omit(AdvancedFlowCreate, ['folder', 'enabled']),
]);

/** What a placeholder stands for: a device, or the thing an argument names (a variable, a zone, a person, …). */
export const SharedFlowPlaceholder = Type.Object({
  /** As it appears in the shared flow: `{{<kind>:<n>}}`. */
  placeholder: Type.String(),
  kind: Type.String(),
  /** The cards that use it (`<card id>`), so whoever imports it knows what it must be able to do. */
  usedBy: Type.Array(Type.String()),
});

export const SharedFlow = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  type: Type.Enum(['flow', 'advancedflow']),
  /** The flow with every device, variable, zone and person it names replaced by a placeholder. */
  flow: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
  /** Every card it uses, once: `<type>` and `<owner uri>:<card id>` (placeholders in owner uris). */
  cards: Type.Array(Type.Object({ type: Type.Enum(['trigger', 'condition', 'action']), id: Type.String() })),
  placeholders: Type.Array(SharedFlowPlaceholder),
  /** Where the shared flow is read (`GET /flow/flow/{id}`). */
  url: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type SharedFlowBody = Static<typeof SharedFlow>;

export const flowShareOperations = {
  shareFlow: op({
    name: 'shareFlow',
    method: 'POST',
    path: '/flow',
    scope: null,
    body: Type.Object({ data: SharedFlowData }),
    response: SharedFlow,
    successStatus: 201,
    errors: ['invalid_parameter', 'missing_parameter', 'rate_limited'],
    summary:
      "Shares a flow: it is checked as a flow, its cards are listed, and every device, variable, zone and person it names is replaced by a placeholder (`{{device:1}}`, …) that whoever imports it maps to their own. Signed-in callers (a user, or a hub with the provider's credentials).",
  }),
  getFlow: op({
    name: 'getFlow',
    method: 'GET',
    path: '/flow/:flowId',
    scope: null,
    auth: false,
    params: Type.Object({ flowId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: SharedFlow,
    errors: ['not_found'],
    summary: 'A shared flow, by the id its link carries. Anyone with the link may read it.',
  }),
} as const;
