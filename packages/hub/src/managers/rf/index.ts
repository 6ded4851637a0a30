import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { RfRadio } from './radio';

/** 433 MHz, 868 MHz and infrared: record, replay, emulate, radio configuration, Pronto hex. */
export const rfManager: HubManager = {
  name: 'rf',
  create: (context) => {
    const radio = new RfRadio(context);
    return {
      implementations: implement<typeof hubOperations.rf, HubPrincipal>(hubOperations.rf, {
        getState: () => radio.state(),
        record: ({ body }) => radio.record(body.frequency),
        replay: ({ body }) => radio.transmit(body.frequency, body.data),
        emulate: ({ params, body }) => radio.transmit(params.frequency, body),
        set433MHzConfig: ({ body }) => radio.set433Config(body),
        txInfraredProntohex: ({ body }) => radio.prontoHex(body.payload, body.repetitions),
      }),
    };
  },
};
