import type { CloudContext } from '../../platform/context';
import { Apps } from './apps';
import { Builds } from './builds';
import { Crashes } from './crashes';
import { Discovery } from './discovery';
import { Feedback } from './feedback';
import { Installs } from './installs';
import { CatalogueIndex } from './search-index';
import { Submissions } from './submissions';

/**
 * The app catalogue of one running cloud, one part per concern, over the database and the blob store. The parts
 * hold only the context, so every node of the cloud answers alike.
 */
export class AppCatalogue {
  readonly apps: Apps;
  readonly builds: Builds;
  readonly submissions: Submissions;
  readonly installs: Installs;
  readonly feedback: Feedback;
  readonly crashes: Crashes;
  readonly discovery: Discovery;
  readonly index: CatalogueIndex;

  constructor(context: CloudContext) {
    this.discovery = new Discovery(context);
    // Publishing a build rewrites the app's search postings; approving a submission with auto-release publishes.
    this.index = new CatalogueIndex(context, this.discovery);
    this.builds = new Builds(context, this.index);
    this.submissions = new Submissions(context, this.builds);
    this.apps = new Apps(context);
    this.installs = new Installs(context);
    this.feedback = new Feedback(context);
    this.crashes = new Crashes(context);
  }
}
