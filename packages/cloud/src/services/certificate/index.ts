import { cloudOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import type { CloudService } from '../service';
import { type CertificateAuthority, loadCertificateAuthority, signHubCertificate } from './ca';

const certificateOps = cloudOperations.certificate;
/** A hub renews a certificate every few weeks; one asking constantly is stopped. */
const PER_HUB = { name: 'certificate', quota: 20, windowSeconds: 3600 };

/**
 * The cloud's small certificate authority (`/certificate`): a hub sends a signing request made with its own key
 * and gets a certificate for its local secure address; clients trust the CA certificate for those addresses.
 */
export const certificateService: CloudService = {
  name: 'certificate',
  create: (context) => {
    let loaded: CertificateAuthority | null = null;
    return {
      implementations: () => {
        const authority = () => {
          if (!loaded) throw new Error('The certificate service has not started');
          return loaded;
        };
        return implement<typeof certificateOps, CloudPrincipal>(certificateOps, {
          getCertificate: async ({ query, request }) => {
            const hubId = hubOfSecretOrRefuse(context, query.secret);
            await context.rateLimiter.count(request, PER_HUB, hubId);
            return signHubCertificate(authority(), hubId, query.csr, context.clock.now());
          },
          getCertificateAuthority: () => ({ certificate: authority().certificatePem }),
        });
      },
      start: async () => {
        loaded = await loadCertificateAuthority(context);
      },
    };
  },
};
